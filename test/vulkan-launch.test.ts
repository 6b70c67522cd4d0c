// VulkanKernel's recorded launches on a real driver (lavapipe in CI): queued launches with other
// buffers and PODs than the recordings hold each run with their own; a new buffer that gets a freed
// one's handle is bound anew; a disposed buffer is refused; a warm launch allocates nothing (every way of batching).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import type { VulkanPlan } from '../src/targets/vulkan/lower.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { SPIR } from '../src/layout/data-layout.js';
import { lower } from '../src/lower.js';
import type { VulkanBuffer, VulkanContext } from '../src/runtime/vulkan/context.js';
import { VulkanKernel } from '../src/runtime/vulkan/kernel.js';
import { testVulkan } from './support/vulkan-device.js';

/** out[i] = v: where each launch writes, and what, come from its PODs. */
const PUT = 'func @put(%out: memref<f32x?>, %v: f32, %i: index) { store %v, %out[%i] : memref<f32x?> }';

function putKernel(ctx: VulkanContext): { k: VulkanKernel; global: number[] } {
  const r = lower('put.ir', PUT, { readFile: () => undefined }, { target: 'vulkan', format: 'json' });
  assert.ok(r.plan, JSON.stringify(r.diagnostics));
  const plan = r.plan as VulkanPlan;
  const fe = compileTinytc(new SourceFile('put.ir', PUT), { layout: SPIR });
  const k = new VulkanKernel(ctx, 'put', plan, emitTinytcSpirv(fe.compiled!, plan));
  return { k, global: [...(plan.kernels[0].reqdWorkGroupSize ?? [1, 1, 1])] };
}

for (const recordBatch of [true, 'secondary'] as const)
  test(`queued launches each run with their own buffers and PODs, past the recordings a kernel keeps; reads wait for them${recordBatch === 'secondary' ? ' [recordBatch secondary]' : ''}`, (t) => {
    const ctx = testVulkan(t, { recordBatch });
    if (!ctx) return;
    try {
      const { k, global } = putKernel(ctx);
      const n = 48;
      const buffers = Array.from({ length: 5 }, () => ctx.buffer(new Float32Array(n).fill(-1)));
      // Launch j writes j + 0.5 at index j of buffer j % 5: five buffer states and a new POD block
      // every launch, all queued (a sync launch among them), against four recordings.
      for (let j = 0; j < n; j++) {
        const o = { args: { out: buffers[j % 5], out_shape0: n, v: j + 0.5, i: j }, global };
        if (j === 20) assert.equal(k.launch({ ...o, timed: false }).timeMs, 0);
        else k.enqueue(o);
      }
      buffers.forEach((b, which) => {
        const got = b.read(new Float32Array(n));
        for (let j = 0; j < n; j++) assert.equal(got[j], j % 5 === which ? j + 0.5 : -1, `buffer ${which}[${j}]`);
      });
      // The same state again: the recordings are resubmitted, and a timed launch reads its timestamps.
      const again = { args: { out: buffers[0], out_shape0: n, v: 7, i: 1 }, global };
      for (let j = 0; j < 3; j++) k.enqueue(again);
      assert.ok(k.launch({ ...again, timed: true }).timeMs >= 0);
      assert.equal(buffers[0].read(new Float32Array(n))[1], 7);
      // One arguments object changed between queued launches: a launch repeats the last one's state
      // only where every value is the same, so each writes its own.
      const fresh = ctx.buffer(new Float32Array(n).fill(-1));
      const shared = { out: fresh, out_shape0: n, v: 0, i: 0 };
      for (let j = 0; j < 6; j++) {
        shared.v = j + 100;
        k.enqueue({ args: shared, global });
        shared.i = j + 1;
      }
      assert.deepEqual([...fresh.read(new Float32Array(n)).subarray(0, 7)], [100, 101, 102, 103, 104, 105, -1]);
      fresh.dispose();
      for (const b of buffers) b.dispose();
      k.dispose();
      assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
    } finally {
      ctx.dispose();
    }
  });

test("a new buffer with a freed buffer's handle is bound anew (bindings are keyed by buffer id); a disposed buffer is refused", (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const { k, global } = putKernel(ctx);
    const handles = new Set<bigint>();
    let reused = 0;
    for (let i = 0; i < 12; i++) {
      const b: VulkanBuffer = ctx.buffer(new Float32Array(4).fill(-1));
      if (handles.has(b.handle)) reused++;
      handles.add(b.handle);
      k.launch({ args: { out: b, out_shape0: 4, v: i, i: i % 4 }, global });
      assert.deepEqual(
        [...b.read(new Float32Array(4))],
        [0, 1, 2, 3].map((x) => (x === i % 4 ? i : -1)),
        `launch ${i}`,
      );
      b.dispose();
      if (i === 11)
        assert.throws(() => k.launch({ args: { out: b, out_shape0: 4, v: 1, i: 0 }, global }), /put.*'out'.*disposed/);
    }
    // Where the driver hands out no freed handle again, the case is not exercised: say so.
    if (reused === 0) t.diagnostic('the driver reused no buffer handle');
    k.dispose();
  } finally {
    ctx.dispose();
  }
});

/**
 * Runs test/support/vulkan-launch-alloc-probe.ts in a process of its own for `modes` (1,500 warm launches, then 2,000
 * counted) with a young generation that holds every launch's garbage: no collection runs (gcs 0), so the heap's
 * growth is what the launches allocated. `batching` 'list': queued launches submitted as a list of their own buffers; 'secondary': the batches execute their
 * secondary command buffers.
 */
function allocProbe(
  modes: readonly string[],
  batching?: 'list' | 'secondary',
): { mode: string; gcs: number; bytesPerCall: number }[] {
  const probe = 'test/support/vulkan-launch-alloc-probe.ts';
  const args = ['--max-semi-space-size=64', '--import', 'tsx', probe, modes.join(','), '1500', '2000'];
  const r = spawnSync(process.execPath, batching ? [...args, batching] : args, { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { mode: string; gcs: number; bytesPerCall: number });
}

test('a warm Vulkan launch allocates nothing: sync, timed and queued; a launch that makes its arguments object is seen to', (t) => {
  const probe = testVulkan(t);
  if (!probe) return;
  probe.dispose();
  const rows = allocProbe(['launch', 'timed', 'enqueue', 'control']);
  assert.equal(rows.length, 4);
  for (const row of rows.slice(0, 3)) assert.equal(row.gcs, 0, JSON.stringify(row));
  for (const row of rows.slice(0, 3)) assert.ok(row.bytesPerCall < 8, JSON.stringify(row));
  // The control allocates on every launch: its growth shows it, or (on a loaded machine, where V8 may
  // collect early) the collection its garbage set off does (one full run saw gcs 1, growth negative).
  assert.ok(rows[3].gcs > 0 || rows[3].bytesPerCall > 64, JSON.stringify(rows[3]));
});

for (const batching of ['list', 'secondary'] as const)
  test(`a warm queued launch allocates nothing with recordBatch ${batching === 'list' ? 'false' : "'secondary'"} too`, (t) => {
    const probe = testVulkan(t);
    if (!probe) return;
    probe.dispose();
    const rows = allocProbe(['enqueue', 'control'], batching);
    assert.equal(rows.length, 2);
    assert.equal(rows[0].gcs, 0, JSON.stringify(rows[0]));
    assert.ok(rows[0].bytesPerCall < 8, JSON.stringify(rows[0]));
    assert.ok(rows[1].gcs > 0 || rows[1].bytesPerCall > 64, JSON.stringify(rows[1]));
  });
