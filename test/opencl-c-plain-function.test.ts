import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileOpenCL, type OpenCLFrontendOptions } from '../src/frontend/opencl-c/index.js';
import type { FileHost } from '../src/frontend/opencl-c/preprocessor.js';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';
import { CORPORA, CORPUS_ROOT } from './corpus/corpora.js';
import { frontendFlags } from './corpus/frontend-flags.js';
import { FIXTURES, diskHost, openclFixtureInputs } from './support/fixtures.js';
import { fingerprint } from './support/skip-compare.js';

// The parser's fast path for plain function declarations (src/frontend/opencl-c/parser-plain-function.ts) must give
// exactly the module and diagnostics the general grammar gives: the same types, spans, codes and places, and it must
// never take what the general parser refuses.

/** One source compiled with the fast path and without it: both fingerprints, and how many declarations it read. */
function bothWays(path: string, text: string, host: FileHost, options: OpenCLFrontendOptions) {
  const fast = compileOpenCL(new SourceFile(path, text), host, { ...options, plainFunctions: true });
  const general = compileOpenCL(new SourceFile(path, text), host, { ...options, plainFunctions: false });
  assert.equal(general.plainFunctions ?? 0, 0);
  return {
    fast: fingerprint({ module: fast.module, diagnostics: fast.diagnostics.items }),
    general: fingerprint({ module: general.module, diagnostics: general.diagnostics.items }),
    plain: fast.plainFunctions ?? 0,
  };
}

test('plain declarations: a file of plain kernels is read by the fast path, module and diagnostics as the general grammar gives', () => {
  let text = 'typedef float T;\n';
  for (let i = 0; i < 200; i++) text += `kernel void k${i}(global float *a, int n, T x) { }\n`;
  text += 'kernel void k7(global float *a, int n, T x);\n';
  const r = bothWays('many.cl', text, { readFile: () => undefined }, { layout: DATA_LAYOUTS.spir64 });
  assert.equal(r.fast, r.general);
  assert.equal(r.plain, 201);
});

test('plain declarations: every fixture compiles to the same module and diagnostics with and without the fast path', () => {
  let plain = 0;
  for (const f of openclFixtureInputs()) {
    const r = bothWays(f.path, f.text, diskHost(FIXTURES), f.options);
    assert.equal(r.fast, r.general, f.name);
    plain += r.plain;
  }
  assert.ok(plain > 20, `the fast path read only ${plain} declarations of the fixtures`);
});

test('plain declarations: every real-world corpus file compiles to the same module and diagnostics both ways', (t) => {
  if (!existsSync(CORPUS_ROOT)) {
    if (process.env.CI === 'true') throw new Error('the corpus is missing: run scripts/fetch-corpus.sh (.ci/run does)');
    t.skip('no corpus: run scripts/fetch-corpus.sh');
    return;
  }
  for (const corpus of CORPORA) {
    let plain = 0;
    for (const file of corpus.files()) {
      for (const std of ['CL1.2', 'CL2.0'] as const) {
        const r = bothWays(file.path, readFileSync(file.path, 'utf8'), diskHost('/'), {
          std,
          layout: DATA_LAYOUTS.spir64,
          ...frontendFlags(file.flags),
        });
        assert.equal(r.fast, r.general, `${corpus.name}: ${file.name} (${std})`);
        plain += r.plain;
      }
    }
    assert.ok(plain > 10, `${corpus.name}: the fast path read only ${plain} declarations`);
  }
});

/** Words and tokens around the fast path's edges: what it reads, what makes it give up, what makes either refuse. */
const SPECIFIERS = [
  'kernel',
  '__kernel',
  'static',
  'inline',
  'extern',
  'typedef',
  'const',
  'volatile',
  'restrict',
  'global',
  '__global',
  'local',
  'constant',
  'private',
  'generic',
  'read_only',
  'write_only',
  'void',
  'int',
  'float',
  'unsigned',
  'signed',
  '__signed__',
  'long',
  'char',
  '_Bool',
  'bool',
  'half',
  'double',
  'uint',
  'size_t',
  'float4',
  'int3',
  'image2d_t',
  'sampler_t',
  'queue_t',
  'pipe',
  'T',
  'U',
  'S',
  'struct R',
  'G',
  '__attribute__((packed))',
];
const POINTERS = [
  '',
  '',
  '',
  '*',
  '*',
  '*',
  '* const',
  '* restrict const',
  '* global',
  '**',
  '* __attribute__((aligned(4)))',
];
const NAMES = ['k', 'f', 'g', 'a', 'b', 'T', 'x', 'NM', 'int', '"s"', '1', ''];
const ENDS = [
  ' { }',
  ' { }',
  ' { }',
  ';',
  ';',
  ' { int y = 0; }',
  ' __attribute__((reqd_work_group_size(1, 1, 1))) { }',
  ', g2;',
  '[2];',
  ' = 1;',
  '',
];
const STRAYS = ['...', '[4]', '(', ')', ',', '\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n', '"s"', "'c'", '{'];

/** Specifier lists the fast path reads, most of the time; any words of SPECIFIERS otherwise. */
const PLAIN_SPECIFIERS = [
  ['kernel', 'void'],
  ['__kernel', 'void'],
  ['int'],
  ['static', 'inline', 'float'],
  ['global', 'float'],
  ['const', 'int'],
  ['constant', 'uint'],
  ['local', 'float4'],
  ['T'],
  ['global', 'T'],
  ['read_only', 'image2d_t'],
];
/** Declarations from these lists; `plain`: only what the fast path reads (names, redeclarations and their errors vary). */
function declarations(plain: boolean) {
  const specifiers = plain
    ? fc.constantFrom(...PLAIN_SPECIFIERS)
    : fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...PLAIN_SPECIFIERS) },
        { weight: 1, arbitrary: fc.array(fc.constantFrom(...SPECIFIERS), { minLength: 0, maxLength: 4 }) },
      );
  const declarator = fc.record({
    specifiers,
    pointer: plain ? fc.constantFrom('', '*', '* const', '* restrict') : fc.constantFrom(...POINTERS),
    name: plain
      ? fc.constantFrom('k', 'f', 'g', 'a', 'b', 'c')
      : fc.oneof({ weight: 4, arbitrary: fc.constantFrom('k', 'f', 'g', 'a', 'b', 'c') }, fc.constantFrom(...NAMES)),
  });
  return fc.record({
    head: declarator,
    params: fc.oneof(
      fc.constant<'void' | { specifiers: string[]; pointer: string; name: string }[]>('void'),
      fc.array(declarator, { minLength: 0, maxLength: 5 }),
    ),
    end: plain ? fc.constantFrom(' { }', ';') : fc.constantFrom(...ENDS),
    stray: plain
      ? fc.constant(null)
      : fc.option(fc.record({ token: fc.constantFrom(...STRAYS), at: fc.nat() }), { freq: 6 }),
  });
}

type Decl = ReturnType<typeof declarations> extends fc.Arbitrary<infer D> ? D : never;

function spell(d: Decl): string {
  const one = (x: { specifiers: string[]; pointer: string; name: string }) =>
    [...x.specifiers, x.pointer, x.name].filter((w) => w !== '').join(' ');
  const params = d.params === 'void' ? 'void' : d.params.map(one).join(', ');
  const words = `${one(d.head)}(${params})${d.end}`.split(' ');
  if (d.stray) words.splice(d.stray.at % (words.length + 1), 0, d.stray.token);
  return words.join(' ');
}

const PRELUDE = [
  'typedef float T;',
  'typedef struct { int a; } S;',
  'typedef int U;',
  '#define G global',
  '#define NM k',
  'int v;',
  '',
].join('\n');

test('plain declarations: generated declarations give the same module and diagnostics with and without the fast path', () => {
  let plain = 0;
  let clean = 0;
  fc.assert(
    fc.property(
      fc.boolean().chain((plain) => fc.array(declarations(plain), { minLength: 1, maxLength: 8 })),
      fc.constantFrom('CL1.2', 'CL2.0'),
      (decls, std) => {
        const text = PRELUDE + decls.map(spell).join('\n') + '\n';
        const r = bothWays('gen.cl', text, { readFile: () => undefined }, { std, layout: DATA_LAYOUTS.spir64 });
        assert.equal(r.fast, r.general, text);
        plain += r.plain;
        if (!r.fast.includes('"severity":"error"')) clean++;
      },
    ),
    { numRuns: 3000, seed: Number(process.env.SEED ?? 30) },
  );
  console.log(`fast path: ${plain} declarations; ${clean} files without errors`);
  // Both sides of the comparison must be exercised: declarations the fast path reads, files with and without errors.
  assert.ok(plain > 1500, `the fast path read only ${plain} generated declarations`);
  assert.ok(clean > 80, `only ${clean} generated files compiled without errors`);
});
