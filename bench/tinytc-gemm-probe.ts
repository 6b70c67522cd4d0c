// A device experiment, not a benchmark: the 32×48×32 f64 GEMM `g_whole` of
// test/tinytc-gemm-variants.test.ts (same IR, same data) on one device under GEMM variants × SPIR-V
// knob settings × work-groups, each launched PROBE_REPS times on the same inputs, with every element
// compared with the JS reference (not only the first wrong one, as the test stops at) and with the
// same device's result under the printer's default spelling. It separates what could make
// `vector-all` with `unroll=full` give one wrong element on NVIDIA's Vulkan driver:
// - a race or a missing barrier (ours or the driver's): wrong elements that change between repeats
//   or with the work-group;
// - the driver's compiler on the long unrolled block: the same element(s) every repeat, gone under
//   a knob that changes only the spelling (index32, fill=hoisted);
// - floating-point contraction (a*b+c as one FMA, which SPIR-V allows without NoContraction):
//   differences from the default spelling of about 1e-16 relative, far below the test's 1e-5.
// Found (2026-11-27, H100 and H200): the fault is NVIDIA's compiler on the 64-bit spelling written
// out — whole columns wrong, the same at every launch, on both work-groups; the byte-identical module
// is right on lavapipe. Since then `unroll=full` writes loops out only with 32-bit indices
// (src/codegen/spirv/gemm.ts), so `unroll=full` alone no longer emits that spelling here.
// Run from the repository root (imports src/ and the tests' data through tsx):
//   KERNARG_API=vulkan KERNARG_VK_DEVICE=NVIDIA node --import tsx bench/tinytc-gemm-probe.ts
// PROBE_VARIANTS (default "vector-all staged-all"), PROBE_SETTINGS (knob settings; default the
// four with unroll=full and default), PROBE_WGS (default "chosen 32x4 8x8"), PROBE_REPS (default 20),
// PROBE_DUMP=<dir> writes the SPIR-V of every setting that gave a wrong element there.
import { mkdirSync, writeFileSync } from 'node:fs';
import { type Api, openContext, tinytcKernel } from '../src/runtime/api.js';
import { isGemmVariant } from '../src/codegen/blas-policy.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { randomFloats } from '../test/support/tinytc-exec.js';
import { runReference } from '../test/support/tinytc-reference.js';

const words = (s: string | undefined, fallback: string) => (s ?? fallback).split(/\s+/).filter(Boolean);
const api = (process.env.KERNARG_API ?? 'vulkan') as Api;
const variants = words(process.env.PROBE_VARIANTS, 'vector-all staged-all');
const settings = words(
  process.env.PROBE_SETTINGS,
  'default unroll=full index32,unroll=full fill=hoisted,unroll=full index32,fill=hoisted,unroll=full',
);
const wgs = words(process.env.PROBE_WGS, 'chosen 32x4 8x8');
const reps = Number(process.env.PROBE_REPS ?? 20);
const dump = process.env.PROBE_DUMP;
for (const v of variants) if (!isGemmVariant(v)) throw new Error(`PROBE_VARIANTS: ${v} is no GEMM variant`);

const T = 'memref<f64x32x48>';
const U = 'memref<f64x48x32>';
const V = 'memref<f64x32x32>';
const irOf = (wg: string) =>
  `func @g_whole(%A: ${T}, %B: ${U}, %C: ${V})${wg === 'chosen' ? '' : ` work_group_size(${wg.replace('x', ', ')})`} {
  gemm.n.n 2.0, %A, %B, -1.0, %C : f64, ${T}, ${U}, f64, ${V}
}`;
// The test's data (mat('f64', …, seed, { random: true }) with seeds 7, 8, 9).
const args = () => ({
  A: { data: randomFloats(Float64Array, 32 * 48, 7), shape: [32, 48] },
  B: { data: randomFloats(Float64Array, 48 * 32, 8), shape: [48, 32] },
  C: { data: randomFloats(Float64Array, 32 * 32, 9), shape: [32, 32] },
});
const reference = args();
runReference(compileTinytc(new SourceFile('g.ir', irOf('chosen')), { layout: SPIR64 }).program!.funcs[0], reference);
const ref = reference.C.data;

const ctx = openContext(api, api === 'vulkan' ? process.env.KERNARG_VK_DEVICE : process.env.KERNARG_DEVICE);
console.log(`device (${api}): ${ctx.device.platform} / ${ctx.device.name}; ${reps} launches per row`);
try {
  for (const wg of wgs) {
    for (const variant of variants) {
      let baseline: Float64Array | undefined;
      for (const setting of settings) {
        const k = tinytcKernel(ctx, irOf(wg), 'g_whole', {
          blas: { gemm: [{ variant: variant as 'direct' }], spirv: parseSpirvKnobs(setting) },
        });
        const wrong = new Map<number, { device: Set<number>; times: number }>();
        let first: Float64Array | undefined;
        let unstable = 0;
        try {
          for (let r = 0; r < reps; r++) {
            const a = args();
            k.launch({ args: a });
            const c = a.C.data;
            if (!first) first = c.slice();
            else if (c.some((x, i) => !Object.is(x, first![i]))) unstable++;
            c.forEach((x, i) => {
              if (Math.abs(x - ref[i]) <= 1e-5 * Math.max(1, Math.abs(ref[i]))) return;
              const w = wrong.get(i) ?? { device: new Set<number>(), times: 0 };
              w.device.add(x);
              w.times++;
              wrong.set(i, w);
            });
          }
          if (setting === 'default') baseline = first;
          // Bitwise differences from the default spelling (contraction shows here, well within tolerance).
          let differ = 0;
          let maxRel = 0;
          if (baseline && first) {
            first.forEach((x, i) => {
              if (Object.is(x, baseline![i])) return;
              differ++;
              maxRel = Math.max(maxRel, Math.abs(x - baseline![i]) / Math.max(1, Math.abs(baseline![i])));
            });
          }
          const local = (k as { local?: readonly number[] }).local?.slice(0, 2).join('x') ?? wg;
          const cells = [...wrong].map(
            ([i, w]) =>
              `C[${i % 32},${Math.floor(i / 32)}] ${w.times}/${reps}× ${[...w.device].map((x) => x.toPrecision(17)).join('|')} vs ${ref[i].toPrecision(17)}`,
          );
          console.log(
            `${variant} ${setting} wg ${local}: ${wrong.size ? `WRONG ${cells.join('; ')}` : 'all match'}; repeats differing from the first: ${unstable}; vs default: ${differ} elements differ, max rel ${maxRel.toExponential(2)}`,
          );
          const spirv = (k as { spirv?: Uint32Array }).spirv;
          if (dump && wrong.size && spirv) {
            mkdirSync(dump, { recursive: true });
            writeFileSync(
              `${dump}/g_whole-${variant}-${setting.replace(/[,=]/g, '_')}-${local}.spv`,
              new Uint8Array(spirv.buffer, spirv.byteOffset, spirv.byteLength),
            );
          }
        } finally {
          (k as { dispose?: () => void }).dispose?.();
        }
      }
    }
  }
} finally {
  ctx.dispose();
}
