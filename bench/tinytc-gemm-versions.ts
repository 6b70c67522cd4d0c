// The same batched GEMM written in tinytc v0.3 and in v0.4, compiled by kernarg and run on one device
// side by side: the C each writes must be the same bytes (and equal a JS reference on two batches),
// then both are timed, alternating, with torch.bmm (cuBLAS) as the baseline when KERNARG_BASELINE
// gives bench/torch_baseline.py's JSON of the same GPU. v0.4 has its own calling convention (every
// dynamic shape entry, then every dynamic stride) and syntax; the kernel body kernarg generates is
// the same lowering, so the two should run at the same speed.
// Run: npm run bench -- tinytc-versions   (KERNARG_API=vulkan for Vulkan; KERNARG_DEVICE picks the device)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type Api, openContext, tinytcKernel } from '../dist/runtime/api.js';
import { batchedGemmIr } from '../dist/frontend/tinytc/batched-gemm-ir.js';

type Scalar = 'f32' | 'f64';

/** The v0.4 spelling of batchedGemmIr(t, n): result types after `:`, constants instead of literal operands. */
function batchedGemmIr04(t: Scalar, n: number): string {
  const mt = `memref<${t}x${n}x${n}x?>`;
  const mv = `memref<${t}x${n}x${n}>`;
  return `func @bgemm(%A: ${mt}, %B: ${mt}, %C: ${mt}) {
  %id = group_id.x : index
  %a = subview %A[0:${n},0:${n},%id] : ${mv}
  %b = subview %B[0:${n},0:${n},%id] : ${mv}
  %c = subview %C[0:${n},0:${n},%id] : ${mv}
  %one = constant 1.0 : ${t}
  %zero = constant 0.0 : ${t}
  gemm.n.n %one, %a, %b, %zero, %c
}`;
}

const api = (process.env.KERNARG_API ?? 'opencl') as Api;
const ctx = openContext(api, api === 'vulkan' ? process.env.KERNARG_VK_DEVICE : process.env.KERNARG_DEVICE);
const small = !/nvidia/i.test(`${ctx.device.platform} ${ctx.device.name}`);
console.log(
  `device (${api}): ${ctx.device.platform} / ${ctx.device.name}${small ? ' (not a GPU: sizes cut down)' : ''}`,
);
const baseline = process.env.KERNARG_BASELINE
  ? (JSON.parse(readFileSync(process.env.KERNARG_BASELINE, 'utf8')) as Record<string, number>)
  : {};
const REPS = Number(process.env.REPS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARM_MS = Number(process.env.WARM_MS ?? 250);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function time(launch: () => { timeMs: number }): number {
  const until = performance.now() + WARM_MS;
  for (let i = 0; i < 3 || performance.now() < until; i++) launch();
  return median(Array.from({ length: REPS }, () => launch().timeMs));
}

let failed = false;
for (const [t, n] of [
  ['f32', 32],
  ['f64', 32],
  ['f32', 64],
  ['f64', 64],
] as [Scalar, number][]) {
  const howmany = small ? 64 : n === 32 ? 32768 : 16384;
  const count = n * n * howmany;
  const bytes = t === 'f32' ? 4 : 8;
  const make = (): Float32Array | Float64Array => (t === 'f32' ? new Float32Array(count) : new Float64Array(count));
  // Small integers over 4: every product and sum is exact in f32, so both kernels and JS agree to the bit.
  const fill = (seed: number) => make().map((_, i) => (((i * 7 + seed) % 9) - 4) / 4);
  const [a, b] = [fill(1), fill(5)];
  const [A, B] = [ctx.buffer(a as ArrayBufferView), ctx.buffer(b as ArrayBufferView)];
  const C3 = ctx.buffer(count * bytes);
  const C4 = ctx.buffer(count * bytes);
  const mem = (data: typeof C3) => ({ data, shape: [n, n, howmany] });
  const k3 = tinytcKernel(ctx, batchedGemmIr(t, n), 'bgemm');
  const k4 = tinytcKernel(ctx, batchedGemmIr04(t, n), 'bgemm');
  const run3 = () => k3.launch({ args: { A: mem(A), B: mem(B), C: mem(C3) }, howmany });
  const run4 = () => k4.launch({ args: { A: mem(A), B: mem(B), C: mem(C4) }, howmany });
  run3();
  run4();
  const [c3, c4] = [C3.read(make()), C4.read(make())];
  let same = Buffer.compare(Buffer.from(c3.buffer), Buffer.from(c4.buffer)) === 0;
  for (const batch of [0, howmany - 1]) {
    const o = batch * n * n;
    for (let j = 0; j < n && same; j++)
      for (let i = 0; i < n && same; i++) {
        let s = 0;
        for (let l = 0; l < n; l++) s += a[o + i + n * l] * b[o + l + n * j];
        if (c3[o + i + n * j] !== s) same = false;
      }
  }
  failed ||= !same;
  const t3: number[] = [];
  const t4: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2) (t4.push(time(run4)), t3.push(time(run3)));
    else (t3.push(time(run3)), t4.push(time(run4)));
  }
  const gf = (ms: number) => (2 * n ** 3 * howmany) / (ms * 1e6);
  const key = `bmm_${t}_${n}`;
  const of = (g: number) => (baseline[key] ? ` (${((100 * g) / baseline[key]).toFixed(1)}% of cuBLAS)` : '');
  const [g3, g4] = [gf(median(t3)), gf(median(t4))];
  console.log(
    `gemm ${n}³ ${t} ×${howmany}: results ${same ? 'equal (v0.3 = v0.4 = JS)' : 'DIFFER'}; v0.3 ${g3.toFixed(0)} GFLOP/s${of(g3)}, v0.4 ${g4.toFixed(0)} GFLOP/s${of(g4)}; v0.4/v0.3 ${(g4 / g3).toFixed(3)}`,
  );
  for (const x of [A, B, C3, C4]) x.dispose();
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (host process)`);
ctx.dispose();
if (failed) process.exit(1);
