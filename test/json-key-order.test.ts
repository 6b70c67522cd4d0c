// Only the JSON emitter knows key order: each plan kind's keys are a declared list
// (src/emit/json-key-order.ts). The compiler checks that each list names exactly the fields of its
// plan type; the tests check that a plan whose objects were built with their keys in another order
// is written byte for byte as the goldens have it, and that lowered plans hold no key the lists lack.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AmdCl2Plan, AmdhsaPlan, OpenCLPlan, PlanBase } from '../src/abi/plan.js';
import type { LeftOutOfJson } from '../src/abi/plan-schema.js';
import { JSON_KEY_ORDER, type JsonKeyOrder, type PlanKind } from '../src/emit/json-key-order.js';
import { emitJson, emitJsonPieces } from '../src/emit/json.js';
import { type LowerOptions, lower } from '../src/lower.js';
import type { CudaPlan } from '../src/targets/cuda/plan.js';
import type { LlvmPlan } from '../src/targets/llvm/lower.js';
import type { R600Plan } from '../src/targets/r600/plan.js';
import { TARGET_NAMES, type TargetName } from '../src/targets/target-names.js';
import type { VulkanPlan } from '../src/targets/vulkan/plan.js';
import type { ZebinPlan } from '../src/targets/zebin/plan.js';
import { FIXTURES, type FixtureOptions } from './support/fixtures.js';
import { programSpec, render } from './support/gen.js';

type Plans = {
  opencl: OpenCLPlan;
  vulkan: VulkanPlan;
  amdhsa: AmdhsaPlan;
  'amd-cl2': AmdCl2Plan;
  llvm: LlvmPlan;
  r600: R600Plan;
  cuda: CudaPlan;
  zebin: ZebinPlan;
};
type KernelOf<P extends Plans[keyof Plans]> = P['kernels'][number];
type SlotOf<P extends Plans[keyof Plans]> = KernelOf<P>['args'][number];
/** Keys (of every member of a union) that the JSON form writes from a list. */
type AllKeys<T> = T extends unknown ? keyof T : never;
type Listed<T, Written extends PropertyKey> = Exclude<AllKeys<T>, Written | LeftOutOfJson>;

/** `true` where the list `L` names exactly the keys `K`; else the keys missing from it and the ones it has too many. */
type Exactly<K, L extends readonly string[]> = [Exclude<K, L[number]>, Exclude<L[number], K>] extends [never, never]
  ? true
  : { missing: Exclude<K, L[number]>; unknown: Exclude<L[number], K> };

type Order<T extends PlanKind> = (typeof JSON_KEY_ORDER)[T];
/**
 * Each plan kind's lists against its plan type: the plan's keys but `kernels`, a kernel's but `name` and `args`, a
 * slot's in the two slot lists together.
 */
type Checked<T extends PlanKind> = [
  Exactly<Listed<Plans[T], 'kernels'>, Order<T>['plan']>,
  Exactly<Listed<KernelOf<Plans[T]>, 'name' | 'args'>, Order<T>['kernel']>,
  Exactly<Listed<SlotOf<Plans[T]>, never>, readonly [...Order<T>['slot'], ...Order<T>['implicitSlot']]>,
];
const checked: { [T in PlanKind]: Checked<T> } = {
  opencl: [true, true, true],
  vulkan: [true, true, true],
  amdhsa: [true, true, true],
  'amd-cl2': [true, true, true],
  llvm: [true, true, true],
  r600: [true, true, true],
  cuda: [true, true, true],
  zebin: [true, true, true],
};
// The plan kinds are the targets' names, no more and no fewer.
const kindsAreTargets: [Exclude<TargetName, PlanKind>, Exclude<PlanKind, TargetName>] extends [never, never]
  ? true
  : false = true;

// The checks can fail: a list without one of its type's fields, and one with a field its type lacks.
// @ts-expect-error `typeName` is a field of OpenCLSlot the list does not name
const missing: Exactly<Listed<SlotOf<OpenCLPlan>, never>, ['name', 'param']> = true;
// @ts-expect-error `bogus` is no field of the r600 plan
const unknown: Exactly<Listed<R600Plan, 'kernels'>, ['target', 'mcpu', 'bogus']> = true;

test('the plan kinds with a key order are the registered targets; each list names a key once', () => {
  assert.ok(checked && kindsAreTargets && (missing || unknown));
  assert.deepEqual(Object.keys(JSON_KEY_ORDER).sort(), [...TARGET_NAMES].sort());
  for (const [kind, order] of Object.entries(JSON_KEY_ORDER) as [string, JsonKeyOrder][]) {
    // A member made of the kernel's name (cuda's ptxName) is one of the slot's listed keys, written in its place.
    if (order.kernelNamed) assert.ok(order.slot.includes(order.kernelNamed.key), `${kind}: kernelNamed is a slot key`);
    const { kernelNamed: _named, ...lists } = order;
    for (const [level, list] of Object.entries(lists) as [string, readonly string[]][]) {
      assert.equal(new Set(list).size, list.length, `${kind} ${level}: a key named twice`);
      for (const k of [
        'type',
        'where',
        'fill',
        ...(level === 'plan' ? ['kernels'] : []),
        ...(level === 'kernel' ? ['name', 'args'] : []),
      ])
        assert.ok(!list.includes(k), `${kind} ${level}: '${k}' is written elsewhere or left out`);
    }
  }
});

const host = { readFile: () => undefined };
const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;

/**
 * The fixtures' plans for every target, lowered with each case's options as its goldens were made
 * (test/support/fixtures.ts).
 */
function fixturePlans(): { name: string; plan: PlanBase; golden: string | undefined }[] {
  const out: { name: string; plan: PlanBase; golden: string | undefined }[] = [];
  const files = {
    readFile: (p: string) => (existsSync(join(FIXTURES, p)) ? readFileSync(join(FIXTURES, p), 'utf8') : undefined),
  };
  for (const d of readdirSync(FIXTURES)) {
    const ir = existsSync(join(FIXTURES, d, 'input.ir'));
    if (!ir && !existsSync(join(FIXTURES, d, 'input.cl'))) continue;
    const optionsPath = join(FIXTURES, d, 'options.json');
    const o: FixtureOptions = existsSync(optionsPath) ? JSON.parse(readFileSync(optionsPath, 'utf8')) : {};
    const input = join(d, ir ? 'input.ir' : 'input.cl');
    const text = readFileSync(join(FIXTURES, input), 'utf8');
    const includeDirs = (o.includeDirs ?? []).map((i) => join(d, i));
    for (const target of TARGET_NAMES) {
      const options: LowerOptions = ir
        ? { target, format: 'table', tinytc: { dopeOrder: o.dopeOrder } }
        : { target, format: 'table', std: o.std, includeDirs, defines: o.defines, vulkan: o.vulkan };
      const r = lower(input, text, files, options);
      const goldenPath = join(FIXTURES, d, `${target}.json`);
      if (r.plan)
        out.push({
          name: `${d} ${target}`,
          plan: r.plan,
          golden: existsSync(goldenPath) ? readFileSync(goldenPath, 'utf8') : undefined,
        });
    }
  }
  return out;
}

/** `o` with its own keys written in the order `perm` gives (a permutation seed), values shared. */
function shuffled<T extends object>(o: T, rand: () => number): T {
  const keys = Object.keys(o);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [keys[i], keys[j]] = [keys[j], keys[i]];
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = (o as Record<string, unknown>)[k];
  return out as T;
}

/** The plan rebuilt with every plan, kernel and slot object's keys in a random order (shared slots stay shared). */
function shuffledPlan(plan: PlanBase, rand: () => number): PlanBase {
  const slots = new Map<object, object>();
  const slot = (a: object) => slots.get(a) ?? slots.set(a, shuffled(a, rand)).get(a)!;
  const kernels = plan.kernels.map((k) => shuffled({ ...k, args: k.args.map(slot) }, rand));
  return shuffled({ ...plan, kernels }, rand) as PlanBase;
}

/** A small deterministic generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

test('a plan whose objects hold their keys in another order is written as the goldens have it, every fixture and target', () => {
  let goldens = 0;
  for (const { name, plan, golden } of fixturePlans()) {
    const text = emitJson(plan);
    if (golden !== undefined) {
      assert.equal(text, golden, `${name}: the golden`);
      goldens++;
    }
    for (let i = 0; i < 3; i++) {
      const p = shuffledPlan(plan, random(i + 1));
      assert.equal(emitJson(p), text, `${name}: shuffled ${i}`);
      assert.equal([...emitJsonPieces(p)].join(''), text, `${name}: shuffled ${i}, streamed`);
    }
  }
  assert.ok(goldens >= 8 * 20, `only ${goldens} goldens compared`);
});

test('a plan of generated programs with shuffled keys is written as it was, and holds no key the lists lack', () => {
  fc.assert(
    fc.property(programSpec, fc.constantFrom(...TARGET_NAMES), fc.nat(), (spec, target, s) => {
      const r = lower('g.cl', render(spec, 'g').source, host, { target, std: 'CL2.0', format: 'table' });
      if (!r.plan) return;
      const order: JsonKeyOrder = JSON_KEY_ORDER[target];
      const known = (list: readonly string[], extra: string[]) => new Set([...list, ...extra, 'type', 'where', 'fill']);
      const planKeys = known(order.plan, ['kernels']);
      const kernelKeys = known(order.kernel, ['name', 'args']);
      const slotKeys = known([...order.slot, ...order.implicitSlot], []);
      for (const k of Object.keys(r.plan)) assert.ok(planKeys.has(k), `${target} plan key '${k}' has no place`);
      for (const kernel of r.plan.kernels) {
        for (const k of Object.keys(kernel)) assert.ok(kernelKeys.has(k), `${target} kernel key '${k}' has no place`);
        for (const a of kernel.args)
          for (const k of Object.keys(a)) assert.ok(slotKeys.has(k), `${target} slot key '${k}' has no place`);
      }
      assert.equal(emitJson(shuffledPlan(r.plan, random(s))), emitJson(r.plan));
    }),
    { seed, numRuns: 120 },
  );
});
