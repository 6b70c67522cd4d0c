// The JSON emitter writes plans kernel by kernel and renders shared slots and layouts once; its
// text must be exactly what JSON.stringify(planToJson(plan), null, 2) writes, for every target.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { emitJson, planToJson } from '../src/emit/json.js';
import { type LowerOptions, TARGETS, lower } from '../src/lower.js';
import { FIXTURES } from './support/fixtures.js';
import { programSpec, render } from './support/gen.js';

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

function same(path: string, text: string, options: LowerOptions): number {
  const r = lower(path, text, host, { ...options, format: 'table' });
  if (!r.plan) return 0;
  assert.equal(emitJson(r.plan), JSON.stringify(planToJson(r.plan), null, 2) + '\n', `${path} --target ${options.target}`);
  // A second rendering (shared slots now cached) is the same text.
  assert.equal(emitJson(r.plan), emitJson(r.plan));
  return 1;
}

test('emitJson equals the reference stringify on every fixture and target', () => {
  let checked = 0;
  for (const d of readdirSync(FIXTURES)) {
    const ir = existsSync(join(FIXTURES, d, 'input.ir'));
    if (!ir && !existsSync(join(FIXTURES, d, 'input.cl'))) continue;
    const text = readFileSync(join(FIXTURES, d, ir ? 'input.ir' : 'input.cl'), 'utf8');
    for (const target of TARGETS) checked += same(ir ? 'f.ir' : 'f.cl', text, { target, std: 'CL2.0', includeDirs: [join(FIXTURES, d)] });
  }
  assert.ok(checked > 40, `only ${checked} plans checked`);
});

test('emitJson equals the reference stringify on generated programs, every target and several options', () => {
  const variants: LowerOptions[] = [
    ...TARGETS.map((target) => ({ target })),
    { target: 'amdhsa', codeObject: 4, amdLlvm: 16 },
    { target: 'amd-cl2', amdCl2: { bits: 32, driver: 'old', use: ['generic'] } },
    { target: 'vulkan', vulkan: { podArgs: 'auto', clusterPodKernelArgs: true } },
    { target: 'vulkan', vulkan: { clusterPodKernelArgs: false, distinctKernelDescriptorSets: true } },
  ];
  fc.assert(
    fc.property(programSpec, fc.nat(variants.length - 1), (spec, v) => {
      same('g.cl', render(spec, 'g').source, { ...variants[v], std: 'CL2.0' });
    }),
    { seed, numRuns: 150 },
  );
});
