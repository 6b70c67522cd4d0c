// Every slot of every target carries where it lives and how it is filled; the JSON form leaves both
// out and readPlan attaches the same again; an llvm plan's slots are IR parameters no packer packs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlanBase } from '../src/abi/plan.js';
import { readPlan } from '../src/plan-json/read-plan.js';
import { emitJson } from '../src/emit/json.js';
import { lower } from '../src/lower.js';
import { PackError, planPacker } from '../src/pack/index.js';
import { packLayout } from '../src/pack/placement.js';
import { TARGET_RECORDS } from '../src/targets/index.js';

const SOURCE = [
  'typedef struct { int a; float b[2]; } pair;',
  'kernel void k(global float* out, float f, pair p, local int* tile, image2d_t img, sampler_t s, int n) {}',
  'kernel void two(global int* a, int b) {}',
  '',
].join('\n');

/** Where and fill of every slot, kernel by kernel (JSON-comparable: layouts are plain data). */
const placements = (plan: {
  readonly kernels: readonly { readonly args: readonly { readonly where: unknown; readonly fill: unknown }[] }[];
}) =>
  plan.kernels.map((k) => k.args.map((a) => JSON.parse(JSON.stringify({ where: a.where, fill: a.fill })) as unknown));

for (const target of TARGET_RECORDS) {
  test(`every ${target.name} slot carries where and fill, which the JSON leaves out and readPlan attaches again`, () => {
    const r = lower('k.cl', SOURCE, { readFile: () => undefined }, { target: target.name, format: 'json' });
    assert.ok(r.plan, JSON.stringify(r.diagnostics.map((d) => d.message)));
    const plan = r.plan;
    for (const k of plan.kernels) {
      assert.ok(k.args.length > 0);
      for (const a of k.args) {
        assert.equal(typeof a.where?.kind, 'string', `${k.name}.${a.name} has no where`);
        assert.equal(typeof a.fill?.kind, 'string', `${k.name}.${a.name} has no fill`);
      }
    }
    assert.doesNotMatch(emitJson(plan), /"(where|fill)"/);
    const back = readPlan(JSON.parse(emitJson(plan)));
    assert.deepEqual(placements(back), placements(plan));
  });
}

test('an llvm plan places its slots as IR parameters by index, which the packer refuses naming kernel and argument', () => {
  const r = lower('k.cl', SOURCE, { readFile: () => undefined }, { target: 'llvm', format: 'json' });
  const k = r.plan!.kernels[0];
  assert.deepEqual(
    k.args.map((a) => a.where),
    k.args.map((_, index) => ({ kind: 'ir-param', index })),
  );
  assert.deepEqual(
    k.args.map((a) => a.fill),
    k.args.map((a) => ({ kind: 'ir-value', param: a.name })),
  );
  const plan: PlanBase = r.plan!;
  const layout = packLayout(plan, 'k', () => ({ segment: 0, pushConstants: 0 }));
  assert.throws(
    () => planPacker(layout),
    (e: unknown) => e instanceof PackError && e.kernel === 'k' && e.arg === 'out' && /an IR parameter/.test(e.message),
  );
});
