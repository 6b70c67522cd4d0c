import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { lower } from '../src/lower.js';
import { formatDiagnostics } from '../src/diagnostics/format.js';
import { FIXTURES } from './support/fixtures.js';

/** Every outcome is a result or diagnostics with spans; nothing throws. */
function check(text: string, path = 'fuzz.cl'): void {
  const r = lower(path, text, { readFile: () => undefined }, { target: 'opencl', format: 'json', std: 'CL2.0' });
  if (r.output === undefined) {
    assert.ok(
      r.diagnostics.some((d) => d.severity === 'error'),
      'no output without an error',
    );
    for (const d of r.diagnostics) {
      assert.ok(d.span, `diagnostic without a span: ${d.message}`);
      assert.ok(d.span.start >= 0 && d.span.end >= d.span.start && d.span.end <= d.span.file.text.length + 1);
    }
    formatDiagnostics(r.diagnostics);
  } else JSON.parse(r.output);
}

const corpus = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map(({ name: d }) => {
    const ir = existsSync(join(FIXTURES, d, 'input.ir'));
    return {
      path: ir ? 'fuzz.ir' : 'fuzz.cl',
      text: readFileSync(join(FIXTURES, d, ir ? 'input.ir' : 'input.cl'), 'utf8'),
    };
  });
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

test('random bytes never crash the lexer, preprocessor or parser', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => check(s)),
    { seed, numRuns: 400 },
  );
});

test('random IR token soup never crashes the tinytc frontend', () => {
  const piece = fc.constantFrom(
    'func',
    '@f',
    '%a',
    '%0',
    '(',
    ')',
    '{',
    '}',
    '[',
    ']',
    '<',
    '>',
    ',',
    ':',
    '=',
    '->',
    '?',
    'x',
    'memref',
    'group',
    'strided',
    'offset',
    'f32',
    'i1',
    'index',
    'i64',
    '4',
    '-1',
    '1.5',
    'load',
    'store',
    'arith.add',
    'cmp.lt',
    'if',
    'else',
    'yield',
    'for',
    'foreach',
    'gemm.n.t',
    'axpby.n',
    'subview',
    'expand',
    'fuse',
    'size',
    'alloca',
    'cast',
    'group_id',
    'work_group_size',
    'subgroup_size',
    '\n',
    ';c\n',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 80 }), (ps) => check(ps.join(' '), 'fuzz.ir')),
    { seed, numRuns: 600 },
  );
});

test('random C-like token soup never crashes', () => {
  const piece = fc.constantFrom(
    'kernel',
    'void',
    'struct',
    'union',
    'enum',
    'typedef',
    'global',
    'local',
    'constant',
    'int',
    'float4',
    'image2d_t',
    'sampler_t',
    'pipe',
    '__attribute__((',
    'aligned',
    'packed',
    '))',
    '(',
    ')',
    '{',
    '}',
    '[',
    ']',
    ';',
    ',',
    '*',
    '=',
    '#define',
    '#if',
    '#endif',
    '#include',
    '\n',
    'x',
    'y',
    '1',
    '0x1p3f',
    '"s"',
    "'c'",
    '...',
    '##',
    '#',
    '.',
    'sizeof',
    '-',
    '?',
    ':',
    'reqd_work_group_size(1,2,3)',
    'read_only',
    'const',
    '__kernel',
    '#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 80 }), (ps) => check(ps.join(' '))),
    { seed, numRuns: 600 },
  );
});

test('mutated fixtures never crash', () => {
  const mutation = fc.record({
    file: fc.nat(corpus.length - 1),
    edits: fc.array(fc.record({ at: fc.nat(), len: fc.nat(12), insert: fc.string({ maxLength: 6 }) }), {
      minLength: 1,
      maxLength: 6,
    }),
  });
  fc.assert(
    fc.property(mutation, ({ file, edits }) => {
      let text = corpus[file].text;
      for (const e of edits) {
        const at = e.at % (text.length + 1);
        text = text.slice(0, at) + e.insert + text.slice(at + e.len);
      }
      check(text, corpus[file].path);
    }),
    { seed, numRuns: 600 },
  );
});

test('deeply nested input gives a diagnostic, not a stack overflow', () => {
  check('constant int x = ' + '('.repeat(5000) + '1' + ')'.repeat(5000) + ';');
  check('struct S ' + '{ struct T '.repeat(3000));
  check('#define A A A\n' + 'A '.repeat(2000));
  check('#define F(x) F(x) F(x)\n#define G(x) F(F(x))\n' + 'G(G(G(G(G(1)))))');
  check('int *' + '*'.repeat(20000) + 'p;');
});
