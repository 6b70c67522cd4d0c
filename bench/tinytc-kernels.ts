// tinytc kernels compiled by kernarg, on the device: (a) batched small GEMMs in GFLOP/s, (b) copy
// and axpby bandwidth. Baselines (torch.bmm / cuBLAS and the device's copy) come from
// bench/torch_baseline.py, run side by side on the same GPU (scripts/gpu-run.sh); with
// KERNARG_BASELINE=<its JSON> the ratios are printed too. KERNARG_API=vulkan runs the same kernels
// through kernarg's SPIR-V on Vulkan (KERNARG_VK_DEVICE picks the device); KERNARG_COMPARE=<the
// RESULT JSON of an OpenCL run> then prints Vulkan as a share of OpenCL. Run: npm run bench -- tinytc
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Api, openContext, tinytcKernel } from '../dist/runtime/api.js';
import type { DeviceBuffer } from '../dist/runtime/opencl/host.js';
import {
  type BlasPolicy,
  GEMM_VARIANTS,
  type GemmVariantName,
  gemmVariant,
  isGemmVariant,
  withTensorCores,
} from '../dist/codegen/blas-policy.js';
import { nvidiaComputeCapability } from '../dist/runtime/tinytc.js';
import { parseSpirvKnobs } from '../dist/codegen/spirv-knobs.js';
import { parseOpenclKnobs } from '../dist/codegen/opencl-knobs.js';
import { API_POLICIES } from '../dist/codegen/api-policies.js';
import { batchedGemmIr } from '../dist/frontend/tinytc/batched-gemm-ir.js';
import type { VulkanBuffer } from '../dist/runtime/vulkan/context.js';
import type { Context } from '../dist/runtime/opencl/host.js';
import { openclGemmProfile } from './tinytc-gemm-profile.js';

const api = (process.env.KERNARG_API ?? 'opencl') as Api;
const ctx = openContext(api, api === 'vulkan' ? process.env.KERNARG_VK_DEVICE : process.env.KERNARG_DEVICE);
const small = !/nvidia/i.test(`${ctx.device.platform} ${ctx.device.name}`);
console.log(
  `device (${api}): ${ctx.device.platform} / ${ctx.device.name}${small ? ' (not a GPU: sizes cut down)' : ''}`,
);
const compare = process.env.KERNARG_COMPARE
  ? (JSON.parse(readFileSync(process.env.KERNARG_COMPARE, 'utf8')) as Record<string, number>)
  : {};
const REPS = Number(process.env.REPS ?? 20);
const baseline = process.env.KERNARG_BASELINE
  ? (JSON.parse(readFileSync(process.env.KERNARG_BASELINE, 'utf8')) as Record<string, number>)
  : {};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// Each figure is taken after WARM_MS of wall-clock time spent launching the same kernel (at least
// 3 launches; WARM_MS=0: just those), as torch_baseline.py does for cuBLAS, so that both sides are
// timed under the same sustained load. On the H100 (2026-11-27, nvidia-smi sampled every 250 ms) the
// SM clock was at 1980 MHz within the first sample under either API, and WARM_MS=0 and 250 gave the
// same figures within 0.2%: a guard, not a correction of earlier figures.
const WARM_MS = Number(process.env.WARM_MS ?? 250);

function time(launch: () => { timeMs: number }): number {
  const until = performance.now() + WARM_MS;
  for (let i = 0; i < 3 || performance.now() < until; i++) launch();
  return median(Array.from({ length: REPS }, () => launch().timeMs));
}

const results: Record<string, number> = {};
const ratio = (key: string, v: number) =>
  (baseline[key] ? `  (${((100 * v) / baseline[key]).toFixed(1)}% of baseline ${baseline[key].toFixed(0)})` : '') +
  (compare[key] ? `  (${((100 * v) / compare[key]).toFixed(1)}% of OpenCL ${compare[key].toFixed(0)})` : '');

// The sweep (scripts/gpu-gemm-sweep.sh): GEMM_VARIANTS="direct staged-k16 …" times each GEMM with
// those variants of blas-policy.ts as well, AXPBY_VECTORS="4 8" the copy and axpby with those
// vector widths, WG_SWEEP="32x4 16x8" each GEMM with those explicit work_group_size attributes.
// Every figure also prints as a multiple of kernarg's default kernel timed in the same run.
const words = (v: string | undefined) => (v ?? '').split(/\s+/).filter(Boolean);
const variants = words(process.env.GEMM_VARIANTS).map((v) => {
  if (!isGemmVariant(v)) throw new Error(`GEMM_VARIANTS: ${v} is none of ${GEMM_VARIANTS.join(', ')}`);
  return v;
});
const vectors = words(process.env.AXPBY_VECTORS).map((v) => {
  if (!['1', '2', '4', '8', '16'].includes(v)) throw new Error(`AXPBY_VECTORS: ${v} is not 1, 2, 4, 8 or 16`);
  return Number(v) as BlasPolicy['axpbyVector'];
});
const sweep = words(process.env.WG_SWEEP).map((w) => w.split('x').map(Number) as [number, number]);
// SPIRV_KNOBS="default index32 unroll=full index32,fill=hoisted": each GEMM (variant × work-group)
// under each setting of the SPIR-V knobs (spirv-knobs.ts), Vulkan only; `default` is the printer's spelling.
// CL_KNOBS="default vload=2 aligned": the same for the OpenCL C printer's tile reads (opencl-knobs.ts), OpenCL only.
const knobText = words(api === 'vulkan' ? process.env.SPIRV_KNOBS : process.env.CL_KNOBS);
const knobSettings: { name: string; blas: Partial<BlasPolicy> }[] = knobText.length
  ? knobText.map((k) => ({
      name: k,
      blas: api === 'vulkan' ? { spirv: parseSpirvKnobs(k) } : { opencl: parseOpenclKnobs(k) },
    }))
  : [{ name: 'default', blas: {} }];
// GEMM_PAIRS="staged-k16:vload=2,batch overlap-k8:index32": each GEMM under those (variant, knobs) pairs only,
// after the rule's own row, instead of GEMM_VARIANTS × the knobs (scripts/gpu-gemm-candidates.sh: candidates
// that each apply to some variants, timed without the rows a whole cross product would add).
const pairs = process.env.GEMM_PAIRS
  ? words(process.env.GEMM_PAIRS).map((p) => {
      const [v, k = 'default'] = p.split(':');
      if (!isGemmVariant(v)) throw new Error(`GEMM_PAIRS: ${v} is none of ${GEMM_VARIANTS.join(', ')}`);
      const blas = api === 'vulkan' ? { spirv: parseSpirvKnobs(k) } : { opencl: parseOpenclKnobs(k) };
      return [v, { name: k, blas }] as const;
    })
  : null;
/** The rule's own row under GEMM_PAIRS. */
const knobSettings0 = { name: 'default', blas: {} };
/** GEMM_VARIANTS (the API's rule first) × the knob settings. */
const crossed = (rule: GemmVariantName) =>
  policies(variants, rule).flatMap((v) => knobSettings.map((k) => [v, k] as const));
/** The GEMM rule the API's printer follows by default on a GPU (api-policies.ts). */
// On OpenCL the runtime puts NVIDIA's tensor-core rules first where the driver has them (blas-policy.ts): the rule's
// row names the variant the device gets.
const gpuBlas = API_POLICIES[api].gpu.blas;
const tensorGemm =
  api === 'opencl' && /nvidia/i.test(ctx.device.platform)
    ? withTensorCores(gpuBlas.gemm, nvidiaComputeCapability(ctx as Context))
    : gpuBlas.gemm;
const defaultGemm = (t: 'f32' | 'f64', n: number) => gemmVariant({ ...gpuBlas, gemm: tensorGemm }, t, n, n);
/** The axpby vector width the API's printer takes by default on a GPU (api-policies.ts): both printers follow it. */
const defaultVector = API_POLICIES[api].gpu.blas.axpbyVector;
/** The default first, then the swept ones. */
const policies = <T>(extra: readonly T[], fallback: T) => [fallback, ...extra.filter((x) => x !== fallback)];
const rows: string[][] = [];
// GEMM_PROFILE=1 (OpenCL on NVIDIA): each GEMM row also says its registers and occupancy (tinytc-gemm-profile.ts).
const profile = api === 'opencl' && !small && process.env.GEMM_PROFILE === '1';

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
  const first: Record<string, number> = {};
  for (const v of policies(vectors, defaultVector)) {
    const options = { blas: { axpbyVector: v } };
    const copy = tinytcKernel(ctx, ir, 'copy', options);
    const axpby = tinytcKernel(ctx, ir, 'axpby', options);
    const tc = time(() => copy.launch({ args: { A: mem(A), B: mem(B) }, howmany }));
    const ta = time(() => axpby.launch({ args: { alpha: 2, A: mem(A), B: mem(B) }, howmany }));
    const suffix = v === defaultVector ? '' : `@v${v}`;
    const rates = { copy_GBps: (2 * bytes) / (tc * 1e6), axpby_GBps: (3 * bytes) / (ta * 1e6) };
    for (const [key, rate] of Object.entries(rates)) {
      first[key] ??= rate;
      results[key + suffix] = rate;
      const ms = key === 'copy_GBps' ? tc : ta;
      const base = baseline.copy_GBps ? `${((100 * rate) / baseline.copy_GBps).toFixed(1)}%` : '-';
      rows.push([
        key === 'copy_GBps' ? 'copy' : 'axpby',
        `${(bytes / 2 ** 20).toFixed(0)} MiB`,
        `vector ${v}`,
        '-',
        ms.toFixed(3),
        `${rate.toFixed(0)} GB/s`,
        base,
        `${(rate / first[key]).toFixed(2)}×`,
        '-',
      ]);
    }
    if (v === defaultVector) {
      console.log(
        `copy (axpby beta 0) ${(bytes / 2 ** 20).toFixed(0)} MiB: ${tc.toFixed(3)} ms, ${rates.copy_GBps.toFixed(0)} GB/s read+write${ratio('copy_GBps', rates.copy_GBps)}`,
      );
      console.log(
        `axpby (beta 1) ${(bytes / 2 ** 20).toFixed(0)} MiB: ${ta.toFixed(3)} ms, ${rates.axpby_GBps.toFixed(0)} GB/s read+write${ratio('copy_GBps', rates.axpby_GBps)}`,
      );
    }
  }
  A.dispose();
  B.dispose();
}
const copyRate = baseline.copy_GBps ?? results.copy_GBps;

// GEMM_SHAPES="f64:64" times only those of the four GEMMs (a candidates run for one shape's rule; all by default).
const shapes = words(process.env.GEMM_SHAPES);
const spvDir = api === 'vulkan' ? process.env.GEMM_SPV_DIR : undefined;
for (const [t, n] of (
  [
    ['f32', 32],
    ['f64', 32],
    ['f32', 64],
    ['f64', 64],
  ] as ['f32' | 'f64', number][]
).filter(([t, n]) => !shapes.length || shapes.includes(`${t}:${n}`))) {
  const howmany = small ? 256 : n === 32 ? 32768 : 16384;
  const bytes = t === 'f32' ? 4 : 8;
  const size = n * n * howmany * bytes;
  const init = t === 'f32' ? new Float32Array(n * n * howmany).fill(0.5) : new Float64Array(n * n * howmany).fill(0.5);
  const [A, B, C] = [ctx.buffer(init), ctx.buffer(init), ctx.buffer(size)];
  const mem = (data: DeviceBuffer | VulkanBuffer) => ({ data, shape: [n, n, howmany] });
  const args = { A: mem(A), B: mem(B), C: mem(C) };
  const key = `bmm_${t}_${n}`;
  let first = 0;
  for (const wg of [null, ...sweep]) {
    const rule = defaultGemm(t, n);
    for (const [variant, knob] of pairs ? [[rule, knobSettings0] as const, ...pairs] : crossed(rule)) {
      const ir = batchedGemmIr(t, n, wg);
      // kernarg's default kernel is the API's own policy, as a user gets it (its rule's variant and the
      // SPIR-V spelling the rule carries); every other row names its variant and knobs, unspelled otherwise.
      const shipped = !wg && variant === defaultGemm(t, n) && knob.name === 'default';
      const label = [
        `gemm ${n}³ ${t}`,
        `×${howmany}`,
        shipped ? `${variant} (the rule)` : knob.name === 'default' ? variant : `${variant} ${knob.name}`,
        wg ? wg.join('x') : 'chosen',
      ];
      let ms: number;
      let local: readonly number[];
      let spirv: Uint32Array | undefined;
      try {
        const k = tinytcKernel(ctx, ir, 'bgemm', shipped ? {} : { blas: { gemm: [{ variant }], ...knob.blas } });
        local = k.local;
        if ('spirv' in k) spirv = k.spirv;
        ms = time(() => k.launch({ args, howmany }));
      } catch (e) {
        rows.push([...label, `failed: ${String((e as Error).message).split('\n')[0]}`]);
        continue;
      }
      const gflops = (2 * n ** 3 * howmany) / (ms * 1e6);
      first ||= gflops;
      const sweepKey = `${key}@${variant}@${local.slice(0, 2).join('x')}${wg ? '' : '-chosen'}${knob.name === 'default' ? '' : `@${knob.name}`}`;
      results[sweepKey] = gflops;
      // GEMM_SPV_DIR (Vulkan): each row's module, named by its key, for bench/vulkan-pipeline-stats.c (registers).
      if (spvDir && spirv) writeFileSync(join(spvDir, `${sweepKey.replace(/[^\w.-]/g, '_')}.spv`), spirv);
      // Roofline: A and B read, C written once (beta 0), at the device's measured copy rate (torch's
      // device copy when the baseline is given, else kernarg's copy kernel above).
      const moved = 3 * size;
      const gbps = moved / (ms * 1e6);
      const roof = (2 * n ** 3 * howmany) / (moved / (copyRate * 1e9)) / 1e9;
      label[3] = `${local.slice(0, 2).join('x')}${wg ? '' : ' (chosen)'}`;
      rows.push([
        ...label,
        ms.toFixed(3),
        `${gflops.toFixed(0)} GFLOP/s`,
        baseline[key] ? `${((100 * gflops) / baseline[key]).toFixed(1)}%` : '-',
        `${(gflops / first).toFixed(2)}×`,
        `${((100 * gbps) / copyRate).toFixed(1)}%`,
        ...(profile
          ? [
              openclGemmProfile(
                ctx as Context,
                ir,
                'bgemm',
                shipped ? undefined : { gemm: [{ variant }], ...knob.blas },
                local[0] * local[1],
              ),
            ]
          : []),
      ]);
      if (shipped) {
        results[key] = gflops;
        console.log(
          `gemm ${n}x${n}x${n} ${t} × ${howmany}: ${ms.toFixed(3)} ms, ${gflops.toFixed(0)} GFLOP/s, work-group ${local.slice(0, 2).join('x')}${ratio(key, gflops)}; moved ${(moved / 2 ** 20).toFixed(0)} MiB at ${gbps.toFixed(0)} GB/s = ${((100 * gbps) / copyRate).toFixed(1)}% of the copy rate ${copyRate.toFixed(0)} GB/s (memory roofline ${roof.toFixed(0)} GFLOP/s)`,
        );
      }
    }
  }
  for (const b of [A, B, C]) b.dispose();
}

// A sweep (any of its lists given, or the default rows of more than one shape's kernels): its table.
if (rows.length > 8 || pairs || variants.length || sweep.length || knobText.length || vectors.length) {
  // The sweep's table: "vs default" is the first row of its kind (kernarg's default kernel) in this run.
  const head = [
    'kernel',
    'size',
    'variant',
    'work-group',
    'ms',
    'rate',
    'of cuBLAS/copy',
    'vs default',
    'of copy rate',
    ...(profile ? ['registers, occupancy (ptxas)'] : []),
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  console.log(
    `\nsweep (${api}, REPS ${REPS}, WARM_MS ${WARM_MS}, copy rate ${copyRate.toFixed(0)} GB/s${baseline.copy_GBps ? ' from torch' : ' from kernarg'}):`,
  );
  for (const r of [head, ...rows])
    console.log(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  '));
  // The fastest per kernel and shape: the data for blas-policy.ts and the work-group rule.
  const best = new Map<string, string[]>();
  for (const r of rows) {
    const k = `${r[0]} ${r[1]}`;
    const rate = Number.parseFloat(r[5]);
    if (Number.isFinite(rate) && !(Number.parseFloat(best.get(k)?.[5] ?? '0') >= rate)) best.set(k, r);
  }
  console.log('\nfastest:');
  for (const [k, r] of best)
    console.log(
      `  ${k}: ${r[2]}, work-group ${r[3]}: ${r[5]}, ${r[7]} the default${r[6] !== '-' ? `, ${r[6]} of ${r[0].startsWith('gemm') ? 'cuBLAS' : 'the device copy'}` : ''}`,
    );
}

console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (host process)`);
console.log(`RESULT ${JSON.stringify(results)}`);
ctx.dispose();
