// tinytc kernels compiled by kernarg, on the device: (a) batched small GEMMs in GFLOP/s, (b) copy
// and axpby bandwidth. Baselines (torch.bmm / cuBLAS and the device's copy) come from
// bench/torch_baseline.py, run side by side on the same GPU (scripts/gpu-run.sh); with
// KERNARG_BASELINE=<its JSON> the ratios are printed too. KERNARG_API=vulkan runs the same kernels
// through kernarg's SPIR-V on Vulkan (KERNARG_VK_DEVICE picks the device); KERNARG_COMPARE=<the
// RESULT JSON of an OpenCL run> then prints Vulkan as a share of OpenCL. Run: npm run bench -- tinytc
import { readFileSync } from 'node:fs';
import { type Api, openContext, tinytcKernel } from '../src/runtime/api.js';
import type { DeviceBuffer } from '../src/runtime/opencl/host.js';
import type { VulkanBuffer } from '../src/runtime/vulkan/context.js';

const api = (process.env.KERNARG_API ?? 'opencl') as Api;
const ctx = openContext(api, api === 'vulkan' ? process.env.KERNARG_VK_DEVICE : process.env.KERNARG_DEVICE);
const small = !/nvidia/i.test(`${ctx.device.platform} ${ctx.device.name}`);
console.log(`device (${api}): ${ctx.device.platform} / ${ctx.device.name}${small ? ' (not a GPU: sizes cut down)' : ''}`);
const compare = process.env.KERNARG_COMPARE ? (JSON.parse(readFileSync(process.env.KERNARG_COMPARE, 'utf8')) as Record<string, number>) : {};
const REPS = Number(process.env.REPS ?? 20);
const baseline = process.env.KERNARG_BASELINE ? (JSON.parse(readFileSync(process.env.KERNARG_BASELINE, 'utf8')) as Record<string, number>) : {};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(launch: () => { timeMs: number }): number {
  for (let i = 0; i < 3; i++) launch();
  return median(Array.from({ length: REPS }, () => launch().timeMs));
}

const results: Record<string, number> = {};
const ratio = (key: string, v: number) =>
  (baseline[key] ? `  (${((100 * v) / baseline[key]).toFixed(1)}% of baseline ${baseline[key].toFixed(0)})` : '') +
  (compare[key] ? `  (${((100 * v) / compare[key]).toFixed(1)}% of OpenCL ${compare[key].toFixed(0)})` : '');

// Bandwidth first: the copy rate is the GEMMs' roofline below.
{
  const len = small ? 4096 : 8192;
  const howmany = small ? 256 : 32768;
  const mt = 'memref<f32x?x?>';
  const ir = `func @copy(%A: ${mt}, %B: ${mt}) {
  %id = group_id
  %a = subview %A[:, %id] : ${mt}
  %b = subview %B[:, %id] : ${mt}
  axpby.n 1.0, %a, 0.0, %b : f32, memref<f32x?>, f32, memref<f32x?>
}
func @axpby(%alpha: f32, %A: ${mt}, %B: ${mt}) {
  %id = group_id
  %a = subview %A[:, %id] : ${mt}
  %b = subview %B[:, %id] : ${mt}
  axpby.n %alpha, %a, 1.0, %b : f32, memref<f32x?>, f32, memref<f32x?>
}`;
  const bytes = len * howmany * 4;
  const [A, B] = [ctx.buffer(new Float32Array(len * howmany).fill(1)), ctx.buffer(bytes)];
  const mem = (data: DeviceBuffer | VulkanBuffer) => ({ data, shape: [len, howmany] });
  const copy = tinytcKernel(ctx, ir, 'copy');
  const axpby = tinytcKernel(ctx, ir, 'axpby');
  const tc = time(() => copy.launch({ args: { A: mem(A), B: mem(B) }, howmany }));
  const ta = time(() => axpby.launch({ args: { alpha: 2, A: mem(A), B: mem(B) }, howmany }));
  results.copy_GBps = (2 * bytes) / (tc * 1e6);
  results.axpby_GBps = (3 * bytes) / (ta * 1e6);
  console.log(`copy (axpby beta 0) ${(bytes / 2 ** 20).toFixed(0)} MiB: ${tc.toFixed(3)} ms, ${results.copy_GBps.toFixed(0)} GB/s read+write${ratio('copy_GBps', results.copy_GBps)}`);
  console.log(`axpby (beta 1) ${(bytes / 2 ** 20).toFixed(0)} MiB: ${ta.toFixed(3)} ms, ${results.axpby_GBps.toFixed(0)} GB/s read+write${ratio('copy_GBps', results.axpby_GBps)}`);
  A.dispose();
  B.dispose();
}
const copyRate = baseline.copy_GBps ?? results.copy_GBps;

// WG_SWEEP="32x4 16x8" also times each GEMM with those explicit work_group_size attributes.
const sweep = (process.env.WG_SWEEP ?? '').split(/\s+/).filter(Boolean).map((w) => w.split('x').map(Number) as [number, number]);
for (const [t, n, wg] of [['f32', 32], ['f64', 32], ['f32', 64], ['f64', 64]].flatMap(([t, n]) => [[t, n, null], ...sweep.map((w) => [t, n, w])]) as ['f32' | 'f64', number, [number, number] | null][]) {
  const howmany = small ? 256 : n === 32 ? 32768 : 16384;
  const bytes = t === 'f32' ? 4 : 8;
  const mt = `memref<${t}x${n}x${n}x?>`;
  const mv = `memref<${t}x${n}x${n}>`;
  const ir = `func @bgemm(%A: ${mt}, %B: ${mt}, %C: ${mt})${wg ? ` work_group_size(${wg[0]}, ${wg[1]})` : ''} {
  %id = group_id
  %a = subview %A[:, :, %id] : ${mt}
  %b = subview %B[:, :, %id] : ${mt}
  %c = subview %C[:, :, %id] : ${mt}
  gemm.n.n 1.0, %a, %b, 0.0, %c : ${t}, ${mv}, ${mv}, ${t}, ${mv}
}`;
  const k = tinytcKernel(ctx, ir, 'bgemm');
  const size = n * n * howmany * bytes;
  const init = t === 'f32' ? new Float32Array(n * n * howmany).fill(0.5) : new Float64Array(n * n * howmany).fill(0.5);
  const [A, B, C] = [ctx.buffer(init), ctx.buffer(init), ctx.buffer(size)];
  const mem = (data: DeviceBuffer | VulkanBuffer) => ({ data, shape: [n, n, howmany] });
  const args = { A: mem(A), B: mem(B), C: mem(C) };
  const ms = time(() => k.launch({ args, howmany }));
  const gflops = (2 * n ** 3 * howmany) / (ms * 1e6);
  const key = `bmm_${t}_${n}`;
  if (!wg) results[key] = gflops;
  // Roofline: A and B read, C written once (beta 0), at the device's measured copy rate (torch's
  // device copy when the baseline is given, else kernarg's copy kernel above).
  const moved = 3 * size;
  const gbps = moved / (ms * 1e6);
  const roof = (2 * n ** 3 * howmany) / (moved / (copyRate * 1e9)) / 1e9;
  console.log(`gemm ${n}x${n}x${n} ${t} × ${howmany}: ${ms.toFixed(3)} ms, ${gflops.toFixed(0)} GFLOP/s, work-group ${k.local.slice(0, 2).join('x')}${ratio(key, gflops)}; moved ${(moved / 2 ** 20).toFixed(0)} MiB at ${gbps.toFixed(0)} GB/s = ${((100 * gbps) / copyRate).toFixed(1)}% of the copy rate ${copyRate.toFixed(0)} GB/s (memory roofline ${roof.toFixed(0)} GFLOP/s)`);
  for (const b of [A, B, C]) b.dispose();
}

console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (host process)`);
console.log(`RESULT ${JSON.stringify(results)}`);
ctx.dispose();
