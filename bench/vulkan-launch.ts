// Launch overhead and heap growth per launch of one empty tinytc kernel (a buffer and two PODs),
// through Vulkan (kernarg's SPIR-V, VulkanKernel: pack + bind + record + submit + wait + timestamps)
// and through OpenCL (kernarg's OpenCL C, Kernel) on the machine's devices, side by side.
// Run: node --expose-gc --max-semi-space-size=64 --import tsx bench/run.ts vulkan-launch (no scavenge
// inside the timed loop, so the heap growth is what the launches left behind)
import { performance } from 'node:perf_hooks';
import type { VulkanPlan } from '../dist/targets/vulkan/lower.js';
import type { OpenCLPlan } from '../dist/abi/plan.js';
import { emitTinytcOpenCLC } from '../dist/codegen/opencl-c/index.js';
import { emitTinytcSpirv } from '../dist/codegen/spirv/index.js';
import { lower } from '../dist/lower.js';
import { Context, Kernel } from '../dist/runtime/opencl/host.js';
import { VulkanContext } from '../dist/runtime/vulkan/context.js';
import { VulkanKernel } from '../dist/runtime/vulkan/kernel.js';
import { compileTinytc } from '../dist/codegen/compile-tinytc.js';
import { SourceFile } from '../dist/diagnostics/source.js';
import { SPIR, SPIR64 } from '../dist/layout/data-layout.js';
import { lowerOpenCL } from '../dist/targets/opencl/lower.js';

const IR = 'func @empty(%a: memref<f32x?>, %alpha: f32) {}';
const N = Number(process.env.LAUNCHES ?? 5000);
const gc = (globalThis as { gc?: () => void }).gc;

function measure(launch: () => void): { us: number; bytes: number } {
  for (let i = 0; i < 500; i++) launch();
  gc?.();
  const h0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) launch();
  const us = ((performance.now() - t0) / N) * 1000;
  const bytes = (process.memoryUsage().heapUsed - h0) / N;
  return { us, bytes };
}

const results: string[] = [];
{
  const ctx = VulkanContext.open(process.env.KERNARG_VK_DEVICE);
  const r = lower('empty.ir', IR, { readFile: () => undefined }, { target: 'vulkan', format: 'json' });
  const fe = compileTinytc(new SourceFile('empty.ir', IR), { layout: SPIR });
  const plan = r.plan as VulkanPlan;
  const k = new VulkanKernel(ctx, 'empty', plan, emitTinytcSpirv(fe.compiled!, plan));
  const a = ctx.buffer(1024);
  const local = plan.kernels[0].reqdWorkGroupSize ?? [1, 1, 1];
  const args = { args: { a, a_shape0: 256, alpha: 2 }, global: [local[0], local[1], local[2]] };
  const m = measure(() => k.launch(args));
  results.push(`Vulkan ${ctx.device.name}: ${m.us.toFixed(2)} us/launch, heap ${m.bytes.toFixed(1)} B/launch${gc ? '' : ' (run with --expose-gc for a steadier figure)'}`);
  k.dispose();
  a.dispose();
  ctx.dispose();
}
{
  const ctx = Context.open(process.env.KERNARG_DEVICE);
  const fe = compileTinytc(new SourceFile('empty.ir', IR), { layout: SPIR64 });
  const plan = lowerOpenCL(fe.module!) as OpenCLPlan;
  const k = new Kernel(ctx, 'empty', plan, emitTinytcOpenCLC(fe.compiled!, {}), '-cl-std=CL1.2');
  const a = ctx.buffer(1024);
  const local = plan.kernels[0].reqdWorkGroupSize ?? [1, 1, 1];
  const args = { args: { a, a_shape0: 256, alpha: 2 }, global: [...local], local: [...local] };
  const m = measure(() => k.launch(args));
  results.push(`OpenCL ${ctx.device.platform} / ${ctx.device.name}: ${m.us.toFixed(2)} us/launch, heap ${m.bytes.toFixed(1)} B/launch`);
  k.dispose();
  a.dispose();
  ctx.dispose();
}
console.log(`${N} launches of an empty kernel (one buffer, two PODs), after 500 warm-up launches`);
for (const line of results) console.log(line);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
