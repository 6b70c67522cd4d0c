// Issue 32: the plan reader reads only what the JSON writer writes. Each slot's keys are the writer's for its kind
// of slot (src/plan-json/slot-keys.ts reads the writer's declaration), and an accepted plan is written back as
// exactly the JSON it was read from (src/plan-json/written-back.ts), so write → read → write is the same text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JSON_KEY_ORDER, type PlanKind } from '../src/emit/json-key-order.js';
import { emitJson } from '../src/emit/json.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { type TargetName, lower } from '../src/lower.js';
import { PlanError, readPlan } from '../src/plan-json/read-plan.js';
import { type SlotKind, slotKindOf, writtenSlotKeys } from '../src/plan-json/slot-keys.js';
import { TARGET_NAMES } from '../src/targets/target-names.js';
import { programSpec, render } from './support/gen.js';
import { irFunction, renderIr } from './support/gen-tinytc.js';
import { jsonSpots } from './support/json-spots.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edits reach anywhere

/** A generated kernel source (OpenCL C with images, or a tinytc function) lowered for a target, as its JSON text. */
const planText = fc
  .tuple(
    fc.oneof(
      programSpec.map((p) => ({ path: 'g.cl', source: render(p, 'g', { images: true }).source })),
      irFunction.map((f) => ({ path: 't.ir', source: renderIr(f, 't') })),
    ),
    fc.constantFrom(...TARGET_NAMES),
  )
  .map(([{ path, source }, target]) => {
    const r = lower(path, source, memoryHost({}), { target, format: 'json', std: 'CL2.0' });
    return r.plan ? emitJson(r.plan) : undefined;
  })
  .filter((t): t is string => t !== undefined && (JSON.parse(t) as Json).kernels.some((k: Json) => k.args.length));

/** Every key any plan kind writes anywhere, and keys none writes. */
const ANY_KEY = [
  ...new Set(
    Object.values(JSON_KEY_ORDER).flatMap((o) => [...o.plan, ...o.kernel, ...o.slot, ...o.implicitSlot]) as string[],
  ),
  'kernels',
  'args',
  'fields',
  'bitWidth',
  'extra',
  '__proto__',
  'constructor',
  '',
];

/** Values a key takes in some plan (so that an added key gets past its type check), and some that fit none. */
function valuesOf(roots: readonly Json[]): Map<string, unknown[]> {
  const m = new Map<string, unknown[]>();
  for (const r of roots) for (const [o, k] of jsonSpots(r)) (m.get(k) ?? m.set(k, []).get(k)!).push(o[k]);
  return m;
}
const SAMPLE_PLANS: Json[] = (['opencl', 'r600', 'amd-cl2', 'vulkan', 'zebin', 'cuda', 'amdhsa', 'llvm'] as const)
  .flatMap((target) => [
    lower(
      'k.cl',
      'typedef struct { int a; float b[2]; } S;\nkernel void k(global int *p, S s, read_only image2d_t i, sampler_t m) {}',
      memoryHost({}),
      { target, format: 'json', std: 'CL2.0' },
    ).plan,
    lower('t.ir', 'func @t(%a: memref<f32x5x?>, %n: i64) {}', memoryHost({}), { target, format: 'json' }).plan,
  ])
  .map((p) => JSON.parse(emitJson(p!)) as Json);
const VALUES = valuesOf(SAMPLE_PLANS);
const JUNK = [0, 1, null, true, 'x', [], {}];
const someValue = (k: string) => fc.constantFrom(...(VALUES.get(k) ?? []), ...JUNK);

const SLOT_KINDS: readonly SlotKind[] = ['param', 'implicit'];

const setKey = (o: Json, k: string, v: unknown) =>
  Object.defineProperty(o, k, { value: structuredClone(v), enumerable: true, writable: true, configurable: true });

/** A PlanError at `path` or inside it. */
const refusedAt = (path: string) => (e: unknown) =>
  e instanceof PlanError && (e.path === path || e.path.startsWith(`${path}.`) || e.path.startsWith(`${path}[`));

test('generated plans of every target: write → read → write is the same text, and reading it again too', () => {
  let n = 0;
  fc.assert(
    fc.property(planText, (text) => {
      const once = emitJson(readPlan(JSON.parse(text)));
      assert.equal(emitJson(readPlan(JSON.parse(once))), once);
      n++;
      // Every target's schema builds its objects in the lowering's key order, so the first write is the text itself.
      assert.equal(once, text);
    }),
    { numRuns: 60, seed: 3232 },
  );
  assert.ok(n >= 60);
});

/** Keys a plan kind writes on one kind of slot and not the other: where a target's schema alone accepts a key too many. */
const otherKindOnly = (target: PlanKind, kind: SlotKind): string[] => {
  const own = writtenSlotKeys(target, kind);
  return writtenSlotKeys(target, kind === 'param' ? 'implicit' : 'param').filter((k) => !own.includes(k));
};

test('generated plans: any key the writer does not write on a slot of that kind is refused at its path', () => {
  const refused = new Set<string>();
  fc.assert(
    fc.property(planText, fc.nat(), fc.boolean(), fc.nat(), fc.nat(), (text, at, otherKind, ki_, vi) => {
      const json = JSON.parse(text) as Json;
      const slots = json.kernels.flatMap((k: Json, ki: number) => k.args.map((_: Json, ai: number) => [ki, ai]));
      const [ki, ai] = slots[at % slots.length] as [number, number];
      const slot = json.kernels[ki].args[ai] as Json;
      const kind: SlotKind = slotKindOf(slot as { param: unknown });
      // Half the time a key this plan kind writes on the other kind of slot (amd-cl2's and r600's lists differ).
      const foreign = otherKind ? otherKindOnly(json.target as PlanKind, kind) : [];
      const keys = foreign.length ? foreign : ANY_KEY;
      const key = keys[ki_ % keys.length];
      if (writtenSlotKeys(json.target as PlanKind, kind).includes(key)) return;
      const values = [...(VALUES.get(key) ?? []), ...JUNK];
      setKey(slot, key, values[vi % values.length]);
      assert.throws(() => readPlan(json), refusedAt(`kernels[${ki}].args[${ai}].${key}`), `${json.target} ${key}`);
      refused.add(`${json.target} ${kind} ${key}`);
    }),
    { numRuns: 200, seed: 3233 },
  );
  assert.ok(refused.size > 50, `${refused.size} target, slot kind and key combinations refused`);
});

test('a slot turned into the other kind keeps no key of its former kind', () => {
  let n = 0;
  fc.assert(
    fc.property(planText, fc.nat(), (text, at) => {
      const json = JSON.parse(text) as Json;
      const slots = (json.kernels as Json[]).flatMap((k, ki) => (k.args as Json[]).map((s, ai) => ({ s, ki, ai })));
      const { s, ki, ai } = slots[at % slots.length];
      const other: SlotKind = slotKindOf(s as { param: unknown }) === 'param' ? 'implicit' : 'param';
      const foreign = Object.keys(s).find((k) => !writtenSlotKeys(json.target as PlanKind, other).includes(k));
      if (foreign === undefined) return;
      s.param = other === 'param' ? 0 : null;
      assert.throws(() => readPlan(json), refusedAt(`kernels[${ki}].args[${ai}]`));
      n++;
    }),
    { numRuns: 80, seed: 3234 },
  );
  assert.ok(n > 5, `${n} slots with a key of their kind only`);
});

test('random edits of real plans: whatever readPlan accepts is written back as exactly the JSON it read', () => {
  let accepted = 0;
  fc.assert(
    fc.property(
      fc.nat(SAMPLE_PLANS.length - 1),
      fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.constantFrom(...ANY_KEY), fc.nat()), { minLength: 1, maxLength: 3 }),
      (pi, edits) => {
        const json = structuredClone(SAMPLE_PLANS[pi]);
        // An added key: half the time one this plan kind writes on some kind of slot.
        const own = [...new Set(SLOT_KINDS.flatMap((kind) => writtenSlotKeys(json.target as PlanKind, kind)))];
        for (const [at, add, anyKey, vi] of edits) {
          const spots = jsonSpots(json);
          const [o, k] = spots[at % spots.length];
          const into = o[k];
          if (add && typeof into === 'object' && into !== null && !Array.isArray(into)) {
            const key = vi % 2 ? own[(vi >> 1) % own.length] : anyKey;
            const values = [...(VALUES.get(key) ?? []), ...JUNK];
            setKey(into as Json, key, values[vi % values.length]);
          } else {
            const values = [...(VALUES.get(k) ?? []), ...JUNK];
            o[k] = structuredClone(values[vi % values.length]);
          }
        }
        const text = JSON.stringify(json);
        let plan;
        try {
          plan = readPlan(json);
        } catch (e) {
          if (e instanceof PlanError) return;
          throw e;
        }
        accepted++;
        assert.deepEqual(JSON.parse(emitJson(plan)), JSON.parse(text));
      },
    ),
    { numRuns: 400, seed: 3235 },
  );
  assert.ok(accepted > 20, `${accepted} edited plans accepted`);
});

const plan = (target: TargetName, source: string) =>
  JSON.parse(emitJson(lower('k.cl', source, memoryHost({}), { target, format: 'json', std: 'CL2.0' }).plan!)) as Json;
const IMAGE = 'kernel void k(read_only image2d_t img, int n) {}';

test('keys the target schemas accept on the other kind of slot are refused with the writer key list', () => {
  // r600: `image` names the image of an inserted size or format slot; a parameter's slot (here the int) has none.
  const r600 = plan('r600', IMAGE);
  const n = (r600.kernels[0].args as Json[]).findIndex((s) => s.name === 'n');
  r600.kernels[0].args[n].image = 'img';
  assert.throws(
    () => readPlan(r600),
    (e: unknown) =>
      e instanceof PlanError &&
      e.path === `kernels[0].args[${n}].image` &&
      /r600 writes no 'image' on a slot with a param \(its keys: name, param, role/.test(e.problem),
  );
  // amd-cl2: a setup argument (no param) has no layout.
  const cl2 = plan('amd-cl2', 'kernel void k(int n) {}');
  assert.equal(cl2.kernels[0].args[0].param, null);
  cl2.kernels[0].args[0].layout = cl2.kernels[0].args.at(-1).layout;
  assert.throws(
    () => readPlan(cl2),
    (e: unknown) =>
      e instanceof PlanError &&
      e.path === 'kernels[0].args[0].layout' &&
      /amd-cl2 writes no 'layout' on a slot without a param/.test(e.problem),
  );
});

test('a value the writer would write otherwise is refused: a bit field without its bit offset', () => {
  const p = plan('opencl', 'typedef struct { int a; int b; } S;\nkernel void k(S s) {}');
  const field = p.kernels[0].args[0].layout.fields[1];
  field.bitWidth = 3;
  assert.throws(
    () => readPlan(p),
    (e: unknown) =>
      e instanceof PlanError &&
      e.path === 'kernels[0].args[0].layout.fields[1].bitOffset' &&
      /missing: the JSON form of this plan writes 0 here/.test(e.problem),
  );
  field.bitOffset = 0;
  assert.deepEqual(JSON.parse(emitJson(readPlan(p))), p);
});
