import fc from 'fast-check';

/**
 * Random OpenCL C programs whose function bodies hold what a character-level body scan must get
 * right: macros (expanding to braces, '.', '->', '(' or calls; function-like ones across lines),
 * comments and literals holding braces and quotes, literal prefixes, digraphs, line splices,
 * directives (#if groups, #define and #undef, #include, pragmas, #line, #error) and broken text
 * (unterminated literals and comments, unbalanced braces) — for comparing a compilation that
 * skips bodies with one that reads them token by token.
 */

const MACROS = [
  '#define OBJ helper(1)',
  '#define FN(a, b) ((a) + (b))',
  '#define CALLER(x) helper(x)',
  '#define DOT .',
  '#define ARROW ->',
  '#define LPAREN (',
  '#define PAREN_CALL helper LPAREN 1)',
  '#define CAT(a, b) a##b',
  '#define EMPTY',
  '#define FNLIKE(x) x',
  '#define PRINT(...) printf(__VA_ARGS__)',
  '#define gvar gvar',
  '#define helper2 helper',
  '#define SELF SELF + 1',
  '#define TYPE int',
  '#define MULTI(a) a + \\\n  helper(a)',
  // Plain invocations (expanded inside bodies without token objects: body-expand.ts) and near misses.
  '#define SQR(x) ((x) * (x))',
  '#define IDX(x, y, w) ((y) * (w) + (x))',
  '#define NOARGS() helper(0)',
  '#define K 16',
  '#define USES_LATER LATER + 1',
  '#define CALLS(f, a) f(a)',
  '#define OPENS(x) { x',
  '#define LOCALDECL local float lfrom_macro[K]',
  '#define LMORE lmore[2]',
];

const STATEMENTS = [
  'x = a + b;',
  'out[0] = table[1];',
  'out[1] = TBL[0] + gvar;',
  's->x = 1;',
  'loc.y = 2;',
  'helper(1);',
  'helper (3);',
  'sub(out, helper(2));',
  'printf("%d %s\\n", 1, "str");',
  'printf("a" "b");',
  'printf("%f", read_imagef(img, smp, (int2)(0, 0)).x);',
  'read_imagef(img, smp, (int2)(0, 0));',
  'get_image_channel_order(img);',
  'x = "{ not a brace }"[0];',
  "x = '}';",
  "x = '\\'';",
  'x = "\\"{"[0];',
  'x = "/* not a comment"[0];',
  'x = L"wide"[0];',
  'x = u8"x"[0];',
  "x = U'x';",
  '/* { comment } */',
  '// } line comment\n',
  '/* multi\nline */',
  '{ int y = 0; }',
  'if (a) { helper(1); } else { sub(out, 2); }',
  'for (int i = 0; i < 4; i++) { sum += i; }',
  '<% x = 1; %>',
  'out<:0:> = 1;',
  'OBJ;',
  'x = FN(1, 2);',
  'CALLER(z);',
  'BRACE_OPEN x = 1; BRACE_CLOSE',
  'loc DOT x = 1;',
  's ARROW y = 2;',
  'x = PAREN_CALL;',
  'printf(STR(foo { ));',
  'x = CAT(hel, per)(1);',
  'EMPTY x = 1;',
  'x = FNLIKE;',
  'x = FNLIKE\n(helper(4));',
  'PRINT("%d", 1);',
  'x = SELF;',
  'TYPE t = 1;',
  'x = MULTI(2);',
  'x = CALLER(\n  FN(1,\n 2));',
  'a = \\\n b;',
  'hel\\\nper(1);',
  'x = "str\\\ning"[0];',
  'u32 v = 1;',
  'Lval = 2;',
  'U8 = 3;',
  'x = __LINE__;',
  'printf(__FILE__);',
  'x = __COUNTER__;',
  'x = 1e+5 + 0x1p-3f + .5f + 1.0e-3;',
  'x = a-->b;',
  'x = a - > b;',
  'x = s . x;',
  's.x(1);',
  's->fn(2);',
  'x = sizeof(int);',
  'x = (helper)(1);',
  'x = sizeof (helper(1));',
  'int (*fp)(int) = helper;',
  'x = a ? helper(1) : sub(out, 1);',
  'x = y.z->w(1);',
  'return;',
  'x = `;',
  'x = @;',
  'x = \\ 1;',
  'x = a %: b;',
  'x = \u00e9;',
  'x = SQR(a + b);',
  'x = IDX(a, b, (int)(z));',
  'x = SQR(SQR(a));',
  'x = NOARGS();',
  'x = K * K;',
  'x = USES_LATER;',
  'x = CALLS(helper, 2);',
  'CALLS(printf, "%d");',
  'printf(IDX(1, 2, 3));',
  'read_imagef(img, smp, (int2)(K, K));',
  'x = SQR(\n  a);',
  'x = SQR( (a, b) );',
  'x = SQR(helper(1));',
  'x = IDX(a, K, b);',
  'x = SQR(__LINE__);',
  'x = SQR ((a));',
  'x = SQR /* c */ (a);',
  'OPENS(x = 1;) }',
  'x = SQR({ a });',
  'x = CALLS(s.x, 1);',
  'x = CALLS(p->y, 1);',
  'x = SQR(L"w"[0]);',
  'x = SQR(a<:0:>);',
  // Kernel-scope `local` declarations (local-decls.ts): arrays sized by macros and expressions, several
  // declarators, specifiers before `local`, typedefs and structs, pointers to local (no local
  // variable), initializers and variable lengths (no variable), casts, uses and members of the same name.
  'local int lbuf[16];',
  '__local float tile[K][K + 1], lone;',
  'volatile local u32 lcnt;',
  'local TYPE tarr[SQR(2)];',
  'local S sarr[2];',
  'local float4 *lp;',
  'float * local lpp;',
  'local int linit = 1;',
  'local int lvla[x];',
  'local struct { int q; } lanon;',
  'x = ((local int *)0)[0];',
  'lbuf[0] = tile[0][0] + lcnt;',
  'x = sarr[0].x + tarr[1];',
  'x = s->lbuf;',
  'local int lm<:4:>;',
  '__local char\\\n lsplice[3];',
  'unsigned local int luns[2];',
  'local int lbad[;',
  'x = loc.lone;',
  'LOCALDECL;',
  'local int lmac[K], LMORE;',
];

/** Text that makes the compilation fail (one per program at most, so most programs compare their modules too). */
const BROKEN = [
  'x = "unterminated;',
  "x = 'u;",
  '}',
  '{',
  'x = SQR(a\n#define LATER 2\n);',
  'x = SQR(a }',
  'x = NOARGS(1);',
  'x = IDX(a, b);',
  'x = SQR();',
  'x = SQR(',
  '\n#error boom\n',
  "\n#if 0\n don't\n#endif\n",
  '\n#else\n',
  '\n#endif\n',
  '\n#elif 1\n',
  '\n#if 1\n',
  '/* unterminated',
  'x = FN(1,',
  '\n#include "missing.h"\n',
  '\n#define\n',
  'x = FN(1);',
  'x = CALLER(1, 2);',
  '#if 0\nint junk( { "\n#endif',
  '\n#ifdef OBJ\n x = OBJ;\n#else\n }\n#endif\n',
  '\n#if defined(OBJ) && FN(1, 0)\n#endif\n',
];

const DIRECTIVES = [
  '#define OBJ helper(9)',
  '#undef OBJ',
  '#define LOCAL_M(x) x + 1',
  '#undef helper2',
  '#pragma unroll',
  '#include "body.h"',
  '#line 100',
  '#warning w',
  '  # define SPACED helper(5)',
  '#if 0\n "{ #endif"\n /* #else */\n#endif',
  '#',
  '/* c */ #define AFTER_COMMENT 1',
  '/*\n*/ #define AFTER_LONG_COMMENT 1',
  '#define LATER helper(7)',
  '#undef SQR',
  '#define K SQR(2)',
  '#undef LATER',
  '#if 0\n#if 1\n#else\n#endif\n #elif 1\n x = 1;\n#endif',
  '#ifdef OBJ\n x = OBJ;\n#elif defined(FN) || defined CALLER\n x = 2;\n#else\n x = 3;\n#endif',
];
const CONDITIONS = [
  '#if 0',
  '#if 1',
  '#ifdef OBJ',
  '#ifndef OBJ',
  '#if defined(OBJ) || defined CALLER',
  '#if __LINE__ > 20',
];
/**
 * Directives the character-level scan leaves to the token path (the whole file is read again): rare, so most programs
 * are skipped.
 */
const TOKEN_PATH = ['#pragma OPENCL EXTENSION cl_khr_fp16 : enable', '%:define DIGRAPH 1', '%:if 1\n x = 1;\n%:endif'];

const TOP_LEVEL = [
  '',
  '#if 0\nint junk( { \n#endif',
  '/* } */',
  '#define TOP helper(3)',
  'int arr[] = {1, 2};',
  'struct T { int a; };',
  'void proto(void);',
  'DECL(gen)',
  'int gen_x = 0;',
  '#include "funcs.h"',
  'struct __attribute__((packed)) { int a; char b; } pv;',
  'typedef struct __attribute__((aligned(16))) { float x; } A16;',
  'int late(int v) { return v; END',
  'int late2(int v) { BRACE_OPEN return v; } END',
];

const fragment = fc.oneof(
  { weight: 24, arbitrary: fc.constantFrom(...STATEMENTS) },
  { weight: 8, arbitrary: fc.constantFrom(...DIRECTIVES).map((d) => `\n${d}\n`) },
  { weight: 1, arbitrary: fc.constantFrom(...TOKEN_PATH).map((d) => `\n${d}\n`) },
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.constantFrom(...CONDITIONS), fc.constantFrom(...STATEMENTS), fc.constantFrom(...STATEMENTS))
      .map(([c, a, b]) => `\n${c}\n${a}\n#else\n${b}\n#endif\n`),
  },
);
const separator = fc.constantFrom(' ', '\n', '\t', '  \n  ', ' /* gap */ ', ' // gap\n');
const body = fc
  .array(fc.tuple(fragment, separator), { maxLength: 12 })
  .map((parts) => parts.map(([f, s]) => f + s).join(''));
/** Function heads: '#' becomes the function's index, so no name is defined twice. */
const HEADS = [
  'int helper#(int a)',
  'void sub#(__global int *o, int v)',
  'static inline float fmul#(float a, float b) __attribute__((overloadable))',
  '__kernel void k#(__global int *out, read_only image2d_t img, sampler_t smp, __global S *s)',
  'kernel void kk#(__global int *out, __global S *s, read_only image2d_t img, sampler_t smp)',
];

export interface BodySkipProgram {
  readonly main: string;
  readonly files: Record<string, string>;
}

export const bodySkipProgram: fc.Arbitrary<BodySkipProgram> = fc
  .record({
    macros: fc.subarray(MACROS),
    functions: fc.array(
      fc.tuple(fc.constantFrom(...HEADS), fc.constantFrom(' ', '\n', ' /* c */ '), body, fc.constantFrom(...TOP_LEVEL)),
      { minLength: 1, maxLength: 5 },
    ),
    bodyHeader: body,
    broken: fc.oneof(
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.tuple(fc.nat(), fc.constantFrom(...BROKEN)) },
    ),
  })
  .map(({ macros, functions, bodyHeader, broken }) => {
    if (broken) {
      const k = broken[0] % functions.length;
      functions[k] = [functions[k][0], functions[k][1], functions[k][2] + broken[1], functions[k][3]];
    }
    const decls = [
      '__constant int table[4] = {1, 2, 3, 4};',
      '__constant int tbl_alias[2] = {5, 6};',
      'global int gvar;',
      'typedef struct { int x; float y; } S;',
      'typedef unsigned int u32;',
      'int helper(int a);',
      'int helper2(int a);',
      'void sub(__global int *o, int v);',
    ];
    const fixed = [
      '#define END }',
      '#define TBL tbl_alias',
      '#define BRACE_OPEN {',
      '#define BRACE_CLOSE }',
      '#define STR(x) #x',
      '#define DECL(n) int n(int v) { return helper(v) + n##_x; }',
    ];
    const main = [
      ...fixed,
      ...macros,
      ...decls,
      ...functions.map(
        ([head, gap, b, top], k) =>
          `${head.replace('#', String(k))}${gap}{\n  int a = 0, b = 1, x, sum = 0, z = 0; S loc; S *p = ` +
          `&loc;\n${b}\n}\n${top}`,
      ),
    ].join('\n');
    const files = {
      'main.cl': main,
      'body.h': bodyHeader,
      'funcs.h': 'int inc_fn(int v) { return helper(v) + table[0]; }\n',
    };
    return { main, files };
  });
