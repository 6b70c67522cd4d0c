import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pp } from './support/compile.js';

test('object-like and function-like macros rescan with hide sets', () => {
  assert.equal(pp('#define A B\n#define B A\nA B').text, 'A B');
  assert.equal(pp('#define f(x) x + f(x)\nf(1)').text, '1 + f(1)');
  assert.equal(
    pp(
      '#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\nf(y+1) + f(f(z)) % ' +
        'g(z)',
    ).text,
    'f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (z[0]))',
  );
  assert.equal(pp('#define NIL(x) x\n#define G NIL\nG(G)(1)').text, 'NIL(1)'); // as clang -E
});

test('stringizing and pasting', () => {
  assert.equal(pp('#define s(x) #x\ns(  a   +  "q\\"" )').text, '"a + \\"q\\\\\\"\\""');
  assert.equal(pp('#define cat(a,b) a##b\ncat(1,2) cat(,x) cat(x,) cat(,)').text, '12 x x');
  assert.equal(pp('#define h(x) #x\n#define x(a) h(a)\nx(1 ## 2)').text, '"1 ## 2"');
  assert.deepEqual(pp('#define p(a,b) a##b\np(., .)').errors, ["pasting formed '..', an invalid preprocessing token"]);
});

test('variadic macros and GNU comma elision', () => {
  assert.equal(pp('#define v(f, ...) f(__VA_ARGS__)\nv(g, 1, (2, 3), 4)').text, 'g(1, (2, 3), 4)');
  assert.equal(pp('#define e(f, ...) f(0, ## __VA_ARGS__)\ne(a) e(b, 1)').text, 'a(0) b(0, 1)');
  assert.equal(pp('#define n(args...) [args]\nn(1, 2)').text, '[1, 2]');
});

test('argument count errors name the macro and point to its definition', () => {
  const r = pp('#define two(a, b) a\ntwo(1)\ntwo(1, 2, 3)\n');
  assert.deepEqual(r.errors, [
    "macro 'two' requires 2 arguments, but only 1 given",
    "macro 'two' passed 3 arguments, but takes just 2",
  ]);
  assert.equal(r.diagnostics[0].related[0].message, 'macro is defined here');
  assert.deepEqual(pp('#define f(x) x\nf(1').errors, ["unterminated argument list invoking macro 'f'"]);
});

test('#if arithmetic is C intmax_t/uintmax_t', () => {
  const t = (e: string) => pp(`#if ${e}\nyes\n#else\nno\n#endif`).text;
  assert.equal(t('-1 < 0'), 'yes');
  assert.equal(t('-1 < 0u'), 'no');
  assert.equal(t('0xFFFFFFFFFFFFFFFF == -1'), 'yes');
  assert.equal(t('(1 << 63) < 0'), 'yes');
  assert.equal(t("'\\377' < 0"), 'yes');
  assert.equal(t('0 && 1/0'), 'no');
  assert.equal(t('1 || 1/0'), 'yes');
  assert.equal(t('1 ? 2 : 1/0'), 'yes');
  assert.equal(t('undefined_identifier'), 'no');
  assert.equal(t('defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ == 120'), 'yes');
  assert.equal(t('10 % 3 == 1 && 7 / 2 == 3 && (5 ^ 3) == 6 && ~0 == -1'), 'yes');
  assert.deepEqual(pp('#if 1/0\n#endif').errors, ['division by zero in preprocessor expression']);
  assert.deepEqual(pp('#if (1\n#endif').errors, ["expected ')' in preprocessor expression"]);
  assert.deepEqual(pp('#if 1 +\n#endif').errors, ['expected value in expression']);
});

test('conditional structure errors', () => {
  assert.deepEqual(pp('#else\n').errors, ['#else without #if']);
  assert.deepEqual(pp('#if 1\n#else\n#else\n#endif').errors, ['#else after #else']);
  assert.deepEqual(pp('#ifdef X\n').errors, ['unterminated conditional directive']);
  assert.equal(pp('#if 0\n#bogus\n#if 1/0\n#endif\n#else\nok\n#endif').text, 'ok');
});

test('-D and -U apply after the predefined macros, in order', () => {
  assert.equal(
    pp('N M', {
      defines: [
        ['N', '5'],
        ['M', undefined],
      ],
    }).text,
    '5 1',
  );
  assert.equal(pp('__OPENCL_C_VERSION__ CL_VERSION_2_0', { std: 'CL2.0' }).text, '200 200');
  assert.equal(pp('CLK_ADDRESS_CLAMP FLT_MAX __ENDIAN_LITTLE__').text, '4 0x1.fffffep127f 1');
});

test('includes: quotes search the including folder first, then -I; #pragma once', () => {
  const files = { 'dir/a.h': '#pragma once\nint a;\n#include "b.h"\n', 'dir/b.h': 'int b;\n' };
  const r = pp('#include "dir/a.h"\n#include "dir/a.h"\nint c;', { files });
  assert.equal(r.text, 'int a;\nint b;\nint c;');
  assert.deepEqual(pp('#include "r.h"', { files: { 'r.h': '#include "r.h"\n' } }).errors, [
    '#include nested too deeply',
  ]);
  assert.deepEqual(pp('#include nothing').errors, ['#include expects "FILENAME" or <FILENAME>']);
});

test('line splices and comments keep exact spans', () => {
  const r = pp('#define LONG 1 + \\\n  2\nint x = LONG; /* multi\nline */ int y;');
  assert.equal(r.text, 'int x = 1 + 2; int y;');
  assert.deepEqual(pp('/* open').errors, ['unterminated /* comment']);
  assert.deepEqual(pp('"open').errors, ['missing terminating " character']);
});

test('#line changes presumed locations and __LINE__', () => {
  assert.equal(pp('#line 42\n__LINE__\n#line 7 "x.cl"\n__FILE__ __LINE__').text, '42\n"x.cl" 7');
});
