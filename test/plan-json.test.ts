import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { jsonSpots } from './support/json-spots.js';
import fc from 'fast-check';
import type { OpenCLPlan, ValueLayout } from '../src/abi/plan.js';
import type { AbiPlan } from '../src/targets/index.js';
import { PlanError, readPlan } from '../src/plan-json/read-plan.js';
import { emitJson, planToJson } from '../src/emit/json.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { type TargetName, lower } from '../src/lower.js';
import { writerFor, writerSource } from '../src/pack/compiled.js';
import { openclTarget } from '../src/targets/opencl/index.js';
import { programSpec, render, samples } from './support/gen.js';
import { irFunction, renderIr } from './support/gen-tinytc.js';
import { argsFor, packed } from './support/pack-values.js';

// Issue 17: a plan read from its JSON form (`--format json`) is validated and packs exactly the
// bytes of the plan `lower` made in process; no plan field reaches generated code unchecked.

const TARGETS: readonly TargetName[] = ['opencl', 'amdhsa', 'amd-cl2', 'r600', 'vulkan', 'llvm'];
const fixtures = join(import.meta.dirname, 'fixtures');

test('every fixture plan, every target: readPlan(json) prints back the same JSON', () => {
  let n = 0;
  for (const dir of readdirSync(fixtures, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)) {
    for (const f of readdirSync(join(fixtures, dir))) {
      if (!f.endsWith('.json') || f === 'options.json') continue;
      const text = readFileSync(join(fixtures, dir, f), 'utf8');
      if (!text.startsWith('{')) continue;
      const json = JSON.parse(text);
      assert.deepEqual(JSON.parse(JSON.stringify(planToJson(readPlan(json)))), json, `${dir}/${f}`);
      n++;
    }
  }
  assert.ok(n >= 40, `${n} fixture plans`);
});

/** Lowers, prints JSON, reads it back, and compares what both plans pack for the same generated arguments. */
function roundTrip(path: string, source: string, target: TargetName, seed: number, extra: object = {}): number {
  const r = lower(path, source, memoryHost({}), { target, format: 'json', ...extra });
  if (!r.plan) return 0;
  const fromJson = readPlan(JSON.parse(emitJson(r.plan)));
  assert.deepEqual(JSON.parse(emitJson(fromJson)), JSON.parse(emitJson(r.plan)), `${target}: JSON round trip`);
  let n = 0;
  for (const k of r.plan.kernels) {
    const args = argsFor(r.plan, k.name, seed + n);
    if (!args) continue;
    for (const interpreted of [false, true])
      assert.equal(
        packed(fromJson, k.name, args, interpreted),
        packed(r.plan, k.name, args, interpreted),
        `${target} ${k.name}`,
      );
    n++;
  }
  return n;
}

test('generated OpenCL C kernels, every target: the plan read from JSON packs the same bytes as the one made in process', () => {
  const { values, seed } = samples(programSpec, 25, 1717);
  let checked = 0;
  values.forEach((spec, i) => {
    const src = render(spec, `j${i}`, { images: true }).source;
    for (const target of TARGETS)
      checked += roundTrip(`j${i}.cl`, src, target, seed + i, {
        std: 'CL2.0',
        ...(target === 'vulkan' ? { vulkan: { longVector: true } } : {}),
      });
  });
  assert.ok(checked > 150, `${checked} kernels packed both ways (seed ${seed})`);
});

test('generated tinytc functions, every target: the same bytes from the JSON plan', () => {
  const { values, seed } = samples(irFunction, 15, 2929);
  let checked = 0;
  values.forEach((f, i) => {
    for (const target of TARGETS) checked += roundTrip(`t${i}.ir`, renderIr(f, `t${i}`), target, seed + i);
  });
  assert.ok(checked > 40, `${checked} functions packed both ways (seed ${seed})`);
});

const SRC = 'typedef struct { int a; float b[2]; } S;\nkernel void k(global int *p, S s, long big) {}';
const base = () => JSON.parse(emitJson(lower('k.cl', SRC, memoryHost({}), { target: 'opencl', format: 'json' }).plan!));

test('a string where a number belongs never runs: refused by readPlan, and refused again by the code generator', () => {
  const g = globalThis as { __kernargPwned?: number };
  delete g.__kernargPwned;
  const payload = '0, globalThis.__kernargPwned = 1, 0';
  // Through the reader: a PlanError naming the path.
  const forged = base();
  forged.kernels[0].args[1].layout.fields[0].offset = payload;
  assert.throws(
    () => readPlan(forged),
    (e: unknown) =>
      e instanceof PlanError &&
      /kernels\[0\]\.args\[1\]\.layout\.fields\[0\]\.offset: expected a whole number/.test(e.message),
  );
  // Past the reader (a forged in-process plan): the generator refuses to splice it.
  const plan = lower('k.cl', SRC, memoryHost({}), { target: 'opencl', format: 'json' }).plan as OpenCLPlan;
  const s = plan.kernels[0].args[1].layout as Extract<ValueLayout, { kind: 'record' }>;
  for (const mutate of [
    (l: Record<string, unknown>) => ((l.fields as Record<string, unknown>[])[0].offset = payload),
    (l: Record<string, unknown>) =>
      (((l.fields as Record<string, unknown>[])[1].layout as Record<string, unknown>).length = payload),
    (l: Record<string, unknown>) =>
      (((l.fields as Record<string, unknown>[])[1].layout as Record<string, unknown>).stride = payload),
    (l: Record<string, unknown>) =>
      (((l.fields as Record<string, unknown>[])[0].layout as Record<string, unknown>).size = payload),
  ]) {
    const evil = structuredClone(s) as unknown as Record<string, unknown>;
    mutate(evil);
    assert.throws(() => writerFor(evil as unknown as ValueLayout), /generated packer: .* must be a safe integer/);
  }
  // Names are quoted: a field or argument named like code is data.
  const named = structuredClone(s) as unknown as { fields: { name: string }[] };
  named.fields[0].name = 'a"]; globalThis.__kernargPwned = 1; //';
  const w = writerFor(named as unknown as ValueLayout);
  const view = new DataView(new ArrayBuffer(s.size));
  w(view, 0, { 'a"]; globalThis.__kernargPwned = 1; //': 7, b: [1, 2] }, 's');
  assert.equal(view.getInt32(0, true), 7);
  assert.equal(g.__kernargPwned, undefined, 'no plan field ran as code');
});

test('a value with very many scalars is written by the interpreted writer, not by megabytes of generated code', () => {
  const big = lower('b.cl', 'typedef struct { int x[100000]; } B;\nkernel void k(B b) {}', memoryHost({}), {
    target: 'opencl',
    format: 'json',
  }).plan as OpenCLPlan;
  const l = big.kernels[0].args[0].layout!;
  assert.ok(writerSource(l).length < 200, 'no unrolled code');
  const out = openclTarget.pack.packer(big, 'k').pack({ b: { x: new Int32Array(100000).fill(7) } });
  const bytes = (out[0] as { bytes: Uint8Array }).bytes;
  assert.equal(new DataView(bytes.buffer).getInt32(4 * 99999, true), 7);
});

test('a JSON plan handed to a packer without readPlan is refused, not packed as zeros', () => {
  const json = base() as OpenCLPlan;
  assert.throws(
    () => openclTarget.pack.packer(json, 'k').pack({ p: {}, s: { a: 1, b: [1, 2] }, big: 5n }),
    /kernel 'k', argument 'p': the slot has no where and fill \(read JSON plans with readPlan\)/,
  );
  const read = readPlan(base()) as OpenCLPlan;
  const out = openclTarget.pack.packer(read, 'k').pack({ p: {}, s: { a: 1, b: [1, 2] }, big: 5n });
  assert.equal(
    Buffer.from((out[1] as { bytes: Uint8Array }).bytes).toString('hex'),
    '01000000' + '0000803f' + '00000040',
  );
});

test('readPlan refuses every malformed field with its path', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mutations reach anywhere in the JSON
  const cases: [(p: Record<string, any>) => void, RegExp][] = [
    [(p) => (p.target = 'nowhere'), /^plan target: expected one of/],
    [(p) => (p.kernels[0].args[0].index = 1.5), /kernels\[0\]\.args\[0\]\.index: expected a whole number/],
    [(p) => (p.kernels[0].args[0].index = 3), /kernels\[0\]\.args\[0\]\.index: argument 0 has index 3/],
    [
      (p) => (p.kernels[0].args[1].size = 4),
      /kernels\[0\]\.args\[1\]\.layout: 12 bytes of layout in a 4-byte argument/,
    ],
    [
      (p) => (p.kernels[0].args[1].layout.fields[1].offset = 8),
      /fields\[1\]: 'b' at 8 with 8 bytes passes the 12 bytes/,
    ],
    [
      (p) => (p.kernels[0].args[1].layout.fields[0].layout.type = 'constructor'),
      /fields\[0\]\.layout\.type: expected one of/,
    ],
    [(p) => (p.kernels[0].args[1].layout.fields[0].layout.size = 8), /int is 4 bytes, not 8/],
    [(p) => (p.kernels[0].args[1].layout.kind = 'record'), /layout\.kind: expected "scalar"/],
    [(p) => (p.kernels[0].args[2].name = 'a b'), /args\[2\]\.name: expected an identifier/],
    [
      (p) => Object.defineProperty(p.kernels[0].args[2], '__proto__', { value: { kind: 'value' }, enumerable: true }),
      /args\[2\]\.__proto__: unknown field '__proto__'/,
    ],
    [(p) => (p.kernels[0].extra = 1), /kernels\[0\]\.extra: unknown field 'extra'/],
    [(p) => (p.kernels[0].args[1].size = 2 ** 30), /args\[1\]\.size: expected a whole number from 0 to 16777216/],
    [
      (p) => (p.kernels[0].args[1].layout.fields[1].layout.length = 2 ** 30),
      /layout\.length: expected a whole number from 0 to 16777216/,
    ],
    [(p) => delete p.kernels[0].args[0].kind, /args\[0\]\.kind: missing field 'kind'/],
    [(p) => (p.kernels[1] = p.kernels[0]), /kernels\[1\]\.name: a second kernel 'k'/],
    [(p) => (p.kernels[0].args[1].name = 'big'), /args\[2\]\.name: a second argument 'big'/],
  ];
  for (const [mutate, want] of cases) {
    const p = base();
    mutate(p);
    assert.throws(
      () => readPlan(p),
      (e: unknown) => e instanceof PlanError && want.test(e.message),
      String(mutate),
    );
  }
  for (const v of [null, 1, 'x', [], { target: 'opencl' }]) assert.throws(() => readPlan(v), PlanError);
  // Random damage anywhere in a real plan: a PlanError or a plan that packs, never another exception.
  const plans = TARGETS.map(
    (target) => JSON.parse(emitJson(lower('k.cl', SRC, memoryHost({}), { target, format: 'json' }).plan!)) as AbiPlan,
  );
  fc.assert(
    fc.property(fc.nat(plans.length - 1), fc.nat(), fc.jsonValue(), (ti, at, junk) => {
      const p = structuredClone(plans[ti]) as unknown as Record<string, unknown>;
      damage(p, at, junk);
      try {
        const r = readPlan(p);
        // A plan with no kernels is well formed; there is just nothing to pack.
        const args = r.kernels[0] ? argsFor(r, r.kernels[0].name, 1) : undefined;
        if (r.kernels[0] && args) packed(r, r.kernels[0].name, args);
      } catch (e) {
        if (!(e instanceof PlanError) && !/kernel '|no kernel named/.test(String(e))) throw e;
      }
    }),
    { numRuns: 300, seed: 17 },
  );
});

/** Replaces the `at`-th value (in a depth-first walk) of a JSON tree with `junk`. */
function damage(root: Record<string, unknown>, at: number, junk: unknown): void {
  const spots = jsonSpots(root);
  const [o, k] = spots[at % spots.length];
  o[k] = junk;
}
