// Bytes the JS heap grows by over many warm Vulkan launches of one kernel, with no collection in
// between (a young generation large enough for all of them, and v8.GCProfiler to show that none
// ran): the heap's growth is then what the launches allocated. Prints one JSON line per mode:
// { mode, calls, gcs, bytesPerCall } (the least of three windows of `calls` launches). argv: modes, comma-separated, of
// 'launch' (sync, no timestamps) | 'timed' (launch with
// timed: true) | 'enqueue' (queued, one finish) | 'control' (sync, a new arguments object per launch:
// the detector is seen to work) | 'ffi' (the three calls of a sync submit straight through the
// bindings: what koffi itself leaves per launch). argv[5] 'list': the context submits its batches as lists;
// 'secondary': its batches execute the launches' secondary command buffers.
import { GCProfiler } from 'node:v8';
import type { VulkanPlan } from '../../src/targets/vulkan/lower.js';
import { compileTinytc } from '../../src/codegen/compile-tinytc.js';
import { emitTinytcSpirv } from '../../src/codegen/spirv/index.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { SPIR } from '../../src/layout/data-layout.js';
import { lower } from '../../src/lower.js';
import { VulkanContext } from '../../src/runtime/vulkan/context.js';
import { VulkanKernel } from '../../src/runtime/vulkan/kernel.js';

const modes = (process.argv[2] ?? 'launch').split(',');
const calls = Number(process.argv[3] ?? 4000);
const WARM = Number(process.argv[4] ?? 3000);
const IR = 'func @empty(%a: memref<f32x?>, %alpha: f32) {}';
const r = lower('empty.ir', IR, { readFile: () => undefined }, { target: 'vulkan', format: 'json' });
const plan = r.plan as VulkanPlan;
const fe = compileTinytc(new SourceFile('empty.ir', IR), { layout: SPIR });
// argv[5] 'list': queued launches' own command buffers submitted as a list (VulkanOpenOptions.recordBatch false);
// 'secondary': recordBatch 'secondary'.
const way = process.argv[5];
const ctx = VulkanContext.open(process.env.KERNARG_VK_DEVICE, {
  recordBatch: way === 'list' ? false : way === 'secondary' ? 'secondary' : true,
});
const k = new VulkanKernel(ctx, 'empty', plan, emitTinytcSpirv(fe.compiled!, plan));
const a = ctx.buffer(1024);
const o = { args: { a, a_shape0: 256, alpha: 2 }, global: [1], timed: false };
const timed = { ...o, timed: true };
// The ffi floor: a second kernel's recorded submit info, reached as kernel.ts reaches it.
const fence = ctx.createFence();
const slot = new BigUint64Array([fence]);
k.launch(o);
const submitInfo = (k as unknown as { recordings: { submitInfo: bigint }[] }).recordings[0].submitInfo;
const steps: Record<string, () => void> = {
  launch: () => void k.launch(o),
  timed: () => void k.launch(timed),
  enqueue: () => k.enqueue(o),
  control: () => void k.launch({ args: { a, a_shape0: 256, alpha: 2 }, global: [1], timed: false }),
  ffi: () => {
    ctx.vk.QueueSubmit(ctx.queue, 1, submitInfo, fence);
    ctx.vk.WaitForFences(ctx.vkDevice, 1, slot as never, 1, 0xffffffffffffffffn);
    ctx.vk.ResetFences(ctx.vkDevice, 1, slot as never);
  },
};
const runner = (mode: string) => {
  const step = steps[mode];
  if (!step) throw new Error(`unknown mode ${mode}`);
  return (n: number) => {
    for (let i = 0; i < n; i++) step();
    ctx.finish();
  };
};
// Every mode warm before any is measured: the optimizing compiler's work on code they share lands in the heap too.
for (const mode of modes) runner(mode)(WARM);
// Three windows per mode, the least growth kept: a launch that allocates grows the heap in every
// window, while the optimizing compiler's own work (a function recompiled after another mode's
// feedback, its code and feedback on the heap) lands in one window or another.
for (const mode of modes) {
  const run = runner(mode);
  let least = Infinity;
  let gcs = 0;
  for (let w = 0; w < 3; w++) {
    const profiler = new GCProfiler();
    profiler.start();
    const before = process.memoryUsage().heapUsed;
    run(calls);
    const after = process.memoryUsage().heapUsed;
    gcs += (profiler.stop()?.statistics ?? []).length;
    least = Math.min(least, (after - before) / calls);
  }
  console.log(JSON.stringify({ mode, calls, gcs, bytesPerCall: least }));
}
ctx.vk.DestroyFence(ctx.vkDevice, fence, null);
k.dispose();
a.dispose();
ctx.dispose();
