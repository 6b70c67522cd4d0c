// Queued Vulkan launches gathered into one vkQueueSubmit (src/runtime/vulkan/batch.ts), on a real
// driver (lavapipe in CI): a chain of launches, each reading what the one before wrote, with its own
// PODs, over several full batches; buffer writes, sync launches, flush() and releases between
// queued launches; a launch refused mid-batch; the batch option. Each every way: the launches' own command buffers
// submitted as a list, (recordBatch) their commands recorded into the batch's ring of command buffers, and
// (recordBatch 'secondary') their commands recorded once into secondary command buffers the batch executes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VulkanPlan } from '../src/targets/vulkan/lower.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { SPIR } from '../src/layout/data-layout.js';
import { lower } from '../src/lower.js';
import { batchWay } from '../src/runtime/vulkan/batch.js';
import { VulkanContext } from '../src/runtime/vulkan/context.js';
import { VulkanKernel } from '../src/runtime/vulkan/kernel.js';
import { testVulkan } from './support/vulkan-device.js';

/** a[to] = a[from] + v: a launch reads what an earlier one wrote. */
const STEP =
  'func @step(%a: memref<f32x?>, %v: f32, %from: index, %to: index) {\n' +
  '  %x = load %a[%from] : memref<f32x?>\n' +
  '  %y = arith.add %x, %v : f32\n' +
  '  store %y, %a[%to] : memref<f32x?>\n' +
  '}';

function stepKernel(ctx: VulkanContext): { k: VulkanKernel; global: number[] } {
  const r = lower('step.ir', STEP, { readFile: () => undefined }, { target: 'vulkan', format: 'json' });
  assert.ok(r.plan, JSON.stringify(r.diagnostics));
  const plan = r.plan as VulkanPlan;
  const fe = compileTinytc(new SourceFile('step.ir', STEP), { layout: SPIR });
  assert.ok(fe.compiled, JSON.stringify(fe.diagnostics));
  const k = new VulkanKernel(ctx, 'step', plan, emitTinytcSpirv(fe.compiled!, plan));
  return { k, global: [...(plan.kernels[0].reqdWorkGroupSize ?? [1, 1, 1])] };
}

for (const recordBatch of [false, true, 'secondary'] as const) {
  const how = recordBatch === 'secondary' ? ' [recordBatch secondary]' : recordBatch ? ' [recordBatch]' : '';

  test(`a chain of queued launches, each with its own PODs, reads what the one before wrote, across full batches${how}`, (t) => {
    const ctx = testVulkan(t, { batch: 8, recordBatch });
    if (!ctx) return;
    try {
      const { k, global } = stepKernel(ctx);
      const n = 40;
      const a = ctx.buffer(new Float32Array(n + 1).fill(0));
      // Launch j: a[j + 1] = a[j] + (j + 1), so a[j] is the sum 1 + ... + j only where every launch ran
      // in order and saw the write before it.
      for (let j = 0; j < n; j++) k.enqueue({ args: { a, a_shape0: n + 1, v: j + 1, from: j, to: j + 1 }, global });
      const got = a.read(new Float32Array(n + 1));
      for (let j = 0; j <= n; j++) assert.equal(got[j], (j * (j + 1)) / 2, `a[${j}]`);
      // One state repeated: one recording queued 100 times (12 full batches of 8 and 4 queued), a[0] += 1 each.
      const inc = { args: { a, a_shape0: n + 1, v: 1, from: 0, to: 0 }, global };
      for (let j = 0; j < 100; j++) k.enqueue(inc);
      assert.equal(ctx.queuedLaunches(), 4);
      assert.equal(a.read(new Float32Array(1))[0], 100);
      assert.equal(ctx.queuedLaunches(), 0);
      k.dispose();
      a.dispose();
    } finally {
      ctx.dispose();
    }
  });

  test(`what must see the queued launches submits them first: a buffer write, a sync launch, flush(), a release${how}`, (t) => {
    const ctx = testVulkan(t, { recordBatch });
    if (!ctx) return;
    try {
      const { k, global } = stepKernel(ctx);
      const a = ctx.buffer(new Float32Array(4).fill(0));
      const inc = { args: { a, a_shape0: 4, v: 1, from: 0, to: 0 }, global };
      // A write after five queued launches lands after them (the batch is submitted and waited for),
      // so the five after it add to 100: 105 (110 had the write gone first).
      for (let j = 0; j < 5; j++) k.enqueue(inc);
      assert.equal(ctx.queuedLaunches(), 5);
      a.write(new Float32Array([100]));
      assert.equal(ctx.queuedLaunches(), 0);
      for (let j = 0; j < 5; j++) k.enqueue(inc);
      // A sync launch runs after the queued ones: a[1] = a[0] + 0.5 sees 105.
      assert.equal(k.launch({ args: { a, a_shape0: 4, v: 0.5, from: 0, to: 1 }, global }).timeMs, 0);
      assert.equal(ctx.queuedLaunches(), 0);
      assert.deepEqual([...a.read(new Float32Array(2))], [105, 105.5]);
      // flush() submits without a wait; finish() waits.
      for (let j = 0; j < 3; j++) k.enqueue(inc);
      ctx.flush();
      assert.equal(ctx.queuedLaunches(), 0);
      ctx.finish();
      assert.equal(a.read(new Float32Array(1))[0], 108);
      // A kernel released while its launches are queued submits them and waits before it frees their command buffers.
      for (let j = 0; j < 2; j++) k.enqueue(inc);
      k.dispose();
      assert.equal(ctx.queuedLaunches(), 0);
      assert.equal(a.read(new Float32Array(1))[0], 110);
      a.dispose();
      assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
    } finally {
      ctx.dispose();
    }
  });

  test(`a launch refused mid-batch names its kernel and argument and leaves the queued ones queued${how}`, (t) => {
    const ctx = testVulkan(t, { recordBatch });
    if (!ctx) return;
    try {
      const { k, global } = stepKernel(ctx);
      const a = ctx.buffer(new Float32Array(4).fill(0));
      const gone = ctx.buffer(16);
      gone.dispose();
      const inc = { args: { a, a_shape0: 4, v: 1, from: 0, to: 0 }, global };
      for (let j = 0; j < 3; j++) k.enqueue(inc);
      assert.throws(() => k.enqueue({ args: { ...inc.args, a: gone }, global }), /step.*'a'.*disposed/);
      assert.throws(() => k.enqueue({ args: { ...inc.args, v: 'x' }, global }), /step.*'v'/);
      assert.equal(ctx.queuedLaunches(), 3);
      for (let j = 0; j < 2; j++) k.enqueue(inc);
      assert.equal(a.read(new Float32Array(1))[0], 5);
      // A context disposed with launches queued drops them and releases everything.
      k.enqueue(inc);
      k.dispose();
      a.dispose();
    } finally {
      ctx.dispose();
    }
  });

  test(`launches queued at a context dispose are dropped; the batch option takes 1 to 4096 launches${how}`, (t) => {
    const ctx = testVulkan(t, { batch: 1, recordBatch });
    if (!ctx) return;
    try {
      const { k, global } = stepKernel(ctx);
      const a = ctx.buffer(new Float32Array(4).fill(0));
      // batch: 1 submits each launch as it is queued.
      k.enqueue({ args: { a, a_shape0: 4, v: 2, from: 0, to: 0 }, global });
      assert.equal(ctx.queuedLaunches(), 0);
      assert.equal(a.read(new Float32Array(1))[0], 2);
    } finally {
      ctx.dispose();
    }
    const queued = testVulkan(t, { recordBatch })!;
    const { k, global } = stepKernel(queued);
    const a = queued.buffer(new Float32Array(4).fill(0));
    for (let j = 0; j < 3; j++) k.enqueue({ args: { a, a_shape0: 4, v: 1, from: 0, to: 0 }, global });
    queued.dispose();
    assert.equal(queued.liveObjects(), 0);
    assert.throws(() => queued.flush(), /disposed/);
    for (const batch of [0, 4097, 1.5, NaN])
      assert.throws(
        () => VulkanContext.open(process.env.KERNARG_VK_DEVICE, { batch }),
        new RegExp(`batch must be a whole number of launches from 1 to 4096, not ${batch}`),
      );
  });
}

test("recordBatch takes true, false or 'secondary'", (t) => {
  const probe = testVulkan(t);
  if (!probe) return;
  probe.dispose();
  for (const recordBatch of ['inline', 1, null])
    assert.throws(
      () => VulkanContext.open(process.env.KERNARG_VK_DEVICE, { recordBatch: recordBatch as never }),
      new RegExp(`recordBatch must be true, false or 'secondary', not ${String(recordBatch)}`),
    );
});

test('recordBatch left out: the secondaries on a CPU device, the recorded batch on a GPU', () => {
  assert.equal(batchWay(undefined, 'CPU'), 'secondary');
  for (const type of ['discrete GPU', 'integrated GPU', 'virtual GPU', 'other'])
    assert.equal(batchWay(undefined, type), 'record');
  for (const type of ['CPU', 'discrete GPU']) {
    assert.equal(batchWay(true, type), 'record');
    assert.equal(batchWay(false, type), 'list');
    assert.equal(batchWay('secondary', type), 'secondary');
  }
});
