// Every target's text formats are written a kernel at a time (`lower(…, { chunked, streamed })`,
// the CLI's call), so a file of very many kernels is not held as one output. The streamed pieces
// must be exactly the text `lower` renders whole (which the fixtures hold to their goldens), on
// every fixture (against its goldens), on generated programs, and again when iterated a second
// time; and they must come a kernel at a time, not as one piece.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { FORMATS, type LowerOptions, TARGETS, lower } from '../src/lower.js';
import { TINYTC_FORMATS } from '../src/codegen/formats.js';
import { FIXTURES, fixtureCases, renderFixture } from './support/fixtures.js';
import { programSpec, render } from './support/gen.js';

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

/** The text formats a target renders from OpenCL C input (the code generator's need tinytc input). */
const textFormats = (target: (typeof TARGETS)[number]) =>
  FORMATS[target].filter((f) => !TINYTC_FORMATS[target].includes(f));

/** The formats a target streams (JSON has its own path: json-emit.test.ts). */
const STREAMED = (format: string) => format !== 'json';

/** Checks the streamed form of one input against the whole text; the number of formats compared. */
function same(path: string, text: string, options: LowerOptions): number {
  let compared = 0;
  for (const format of textFormats(options.target as (typeof TARGETS)[number])) {
    const whole = lower(path, text, host, { ...options, format });
    if (whole.output === undefined) continue;
    const streamed = lower(path, text, host, { ...options, format, chunked: true, streamed: true });
    const where = `${path} --target ${options.target} --format ${format}`;
    if (STREAMED(format)) assert.ok(streamed.pieces, `${where} is not streamed`);
    const pieces = streamed.pieces ?? streamed.chunks!;
    assert.equal([...pieces].join(''), whole.output, where);
    assert.equal([...pieces].join(''), whole.output, `${where}, iterated again`);
    compared++;
  }
  return compared;
}

// The goldens are the record: every fixture's outputs, streamed as the CLI writes them, are its golden files byte for
// byte.
test('streamed formats are the goldens on every fixture', () => {
  let compared = 0;
  for (const name of fixtureCases()) {
    for (const [f, actual] of renderFixture(name, { streamed: true })) {
      const path = join(FIXTURES, name, f);
      if (!existsSync(path)) continue; // fixtures.test.ts says which golden is missing
      assert.equal(actual, readFileSync(path, 'utf8'), `${name}/${f}, streamed, differs from its golden`);
      compared++;
    }
  }
  assert.ok(compared > 500, `only ${compared} goldens compared`);
});

test('streamed formats are the whole text on generated programs, every target and several options', () => {
  const variants: LowerOptions[] = [
    ...TARGETS.map((target) => ({ target })),
    { target: 'amdhsa', amdhsa: { codeObject: 4, llvm: 16 } },
    { target: 'amd-cl2', amdCl2: { bits: 32, driver: 'old', use: ['generic'] } },
    { target: 'vulkan', vulkan: { podArgs: 'auto', clusterPodKernelArgs: true } },
    { target: 'vulkan', vulkan: { clusterPodKernelArgs: false, distinctKernelDescriptorSets: true } },
  ];
  fc.assert(
    fc.property(programSpec, fc.nat(variants.length - 1), (spec, v) => {
      same('g.cl', render(spec, 'g').source, { ...variants[v], std: 'CL2.0' });
    }),
    { seed, numRuns: 60 },
  );
});

test('streamed formats come a kernel at a time', () => {
  const n = 40;
  const source = Array.from({ length: n }, (_, i) => `kernel void k${i}(global float *a, int n, float x) { }\n`).join(
    '',
  );
  for (const target of TARGETS) {
    for (const format of textFormats(target).filter(STREAMED)) {
      const r = lower('many.cl', source, host, { target, format, chunked: true, streamed: true });
      assert.ok(r.pieces, `${target} ${format} is not streamed`);
      const pieces = [...r.pieces];
      assert.ok(pieces.length >= n, `${target} ${format}: ${pieces.length} pieces for ${n} kernels`);
      // No piece holds two kernels' names: what is written before the next kernel is made is one kernel's.
      for (const p of pieces)
        assert.ok(
          (p.match(/\bk\d+\b/g) ?? []).filter((x, i, all) => all.indexOf(x) === i).length <= 1,
          `${target} ${format}: a piece of several kernels: ${p}`,
        );
    }
  }
});
