import type { ScalarTypeName } from '../frontend/tinytc/ast.js';
import type { OpenclGemmKnobs } from './opencl-knobs.js';
import type { SpirvGemmKnobs } from './spirv-knobs.js';

export { UNROLL_K_STEPS } from './spirv-knobs.js';

/**
 * How the OpenCL C backend emits GEMM and axpby, and the SPIR-V printer GEMM (its vector variants
 * without vector reads: src/codegen/spirv/gemm.ts): data, so that the rule measured on a
 * device (scripts/gpu-gemm-sweep.sh prints the table it comes from) is a one-line change here.
 *
 * GEMM variants (every one computes the same sums in the same order, k = 0, 1, …):
 * - `direct`: each work-item keeps a register tile of C (tiling.ts) and reads A and B from where
 *   they are, once per k.
 * - `direct-vector`: the same with each work-item's rows (columns) of C neighbours, read with one
 *   vload per k where they are neighbours in memory too (op(A) not transposed, op(B) transposed).
 * - `staged-kT`: the work-group copies a (block rows × T) tile of op(A) and a (T × block columns)
 *   tile of op(B) into local memory (vload4 where the contiguous mode has stride 1 and the tile is
 *   whole), waits at a barrier, and the register tiles read from there; T = 4, 8, 16, 32, 64.
 * - `staged-all`: the same with the whole of K in one tile (for a batched 32³ or 64³ GEMM, one
 *   work-group per batch item holds all of A and B) where that fits LOCAL_BYTES, else the largest
 *   power-of-two tile that does.
 * - `vector-kT`, `vector-all`: staged, but each work-item's rows (and columns) of C are neighbours,
 *   so it reads them from the local tiles 2, 4 or 8 at a time (one vector load for its rows of
 *   op(A), one for its columns of op(B) per k) instead of one load per element.
 * - `overlap-kT`, `overlap-all`: staged (the `staged-*` tile layouts), with two tiles of each operand
 *   in local memory: while the work-group multiplies from one, each work-item's share of the next K
 *   tile is already loading into its registers (issued before the products, stored to the other
 *   tile after them), so the global loads overlap the compute and one barrier per K tile suffices
 *   (staged: two, and nothing in flight between them). Two tiles must fit the local memory, so T is
 *   halved where `staged-*` would fit one (`overlap-all`: the largest that does, for a 64³ f64
 *   GEMM on 16 × 8 work-items 16 where `staged-all` stages 32).
 */
const K_TILES = ['k4', 'k8', 'k16', 'k32', 'k64', 'all'] as const;
type KTile = (typeof K_TILES)[number];
export type StagedVariantName = `staged-${KTile}` | `vector-${KTile}` | `overlap-${KTile}`;
/**
 * GEMM variants for one vendor's devices only, never in GEMM_VARIANTS (whose every variant runs on every device):
 * - `mma-f64` (NVIDIA, compute capability 8.0 or later, OpenCL C only; opencl-c/gemm-mma.ts): the `overlap-*`
 *   tiles in local memory, each warp computing its block of C with the FP64 tensor cores (inline PTX
 *   `mma.sync.aligned.m8n8k4.row.col.f64`), its fragments read from the tiles. f64 only; a GEMM it does not cover
 *   (another type, a work-group that is no whole number of warps), and the SPIR-V printer, take the next rule.
 *   Each k4 step is one hardware product of four terms, so sums may differ from the other variants' in the last bits.
 */
export const NVIDIA_GEMM_VARIANTS = ['mma-f64'] as const;
export type NvidiaGemmVariantName = (typeof NVIDIA_GEMM_VARIANTS)[number];
export type GemmVariantName = 'direct' | 'direct-vector' | StagedVariantName | NvidiaGemmVariantName;
export const GEMM_VARIANTS: readonly GemmVariantName[] = [
  'direct',
  'direct-vector',
  ...K_TILES.map((k) => `staged-${k}` as const),
  ...K_TILES.map((k) => `vector-${k}` as const),
  ...K_TILES.map((k) => `overlap-${k}` as const),
];

/** The first rule whose conditions all hold picks the variant; absent conditions hold. */
export interface GemmRule {
  readonly element?: ScalarTypeName;
  /** The static row (M) and column (N) counts of C, both at most this. */
  readonly maxSize?: number;
  readonly variant: GemmVariantName;
  /**
   * How the SPIR-V printer spells this rule's GEMMs (measured with its variant; the OpenCL C
   * printer ignores it). A caller's BlasPolicy.spirv overrides each knob it sets.
   */
  readonly spirv?: SpirvGemmKnobs;
  /** How the OpenCL C printer reads this rule's tiles (the SPIR-V printer ignores it); BlasPolicy.opencl overrides. */
  readonly opencl?: OpenclGemmKnobs;
}

export interface BlasPolicy {
  readonly gemm: readonly GemmRule[];
  /** Elements per vload/vstore in a non-atomic f32/f64 axpby of vectors whose stride is 1 (1: scalar). */
  readonly axpbyVector: 1 | 2 | 4 | 8 | 16;
  /**
   * Whether vloadN/vstoreN may be used (default true). The OpenCL C printer turns them off in a
   * program built as OpenCL C 2.0 (pointer group tables): PoCL's 2.0 mode declares no vload or vstore
   * for any address space ("no matching function for call to '_cl_vload2'"), so those programs read
   * element by element; local tiles are still read as vectors through pointer casts.
   */
  readonly vectorBuiltins?: boolean;
  /** Local (work-group) memory one staged GEMM may take: LOCAL_BYTES unless a device has less (the Vulkan runtime sets it). */
  readonly localBytes?: number;
  /** How the SPIR-V printer spells a GEMM's indices and loops (all off when absent). */
  readonly spirv?: SpirvGemmKnobs;
  /** How the OpenCL C printer reads a GEMM's tiles (vload4, no alignment test, when absent). */
  readonly opencl?: OpenclGemmKnobs;
}

/**
 * The GEMM rule of Vulkan's GPU policy (api-policies.ts), from the Vulkan sweeps on an NVIDIA H100
 * (scripts/gpu-gemm-sweep.sh with KERNARG_API=vulkan, beside torch.bmm with TF32 off in the same run).
 * 2026-11-23 (direct, staged-k16, staged-k32, staged-all, vector-all × work-groups 16x8/8x8/16x4/32x4):
 * staged-k16 was the fastest variant for every shape, while the OpenCL winners above ran at 17–27%
 * of cuBLAS for 64³. 2026-11-27 (staged-k16, staged-all, vector-k16, vector-all × 16x8/32x4 × the
 * SPIR-V knobs default, index32, index32+unroll=full, index32+fill=hoisted+unroll=full; WARM_MS 150):
 * staged-k16 on the chosen 16x8 spelled with all three knobs ran 32³ f32 / 32³ f64 / 64³ f32 / 64³ f64
 * at 108.5 / 99.9 / 94.6 / 80.7% of cuBLAS against 88.3 / 82.2 / 56.6 / 45.2% unspelled (1.23 / 1.22 /
 * 1.67 / 1.79×); the fastest of all for 32³ f32 (vector-k16, 113.4%) was within 5% and is not worth
 * a rule of its own. The knobs belong to this rule only: `direct` with index32+unroll=full ran 64³ at
 * 0.10–0.34× its loops (a first sweep of the same day, whose figures varied up to 4× run to run).
 * Vulkan's 32x4 work-group is a rule beside this one (VULKAN_GPU_GEMM_WORK_GROUPS in
 * api-policies.ts); with the knobs, 16x8 beat it for every shape in the second sweep.
 * 2026-11-28, an H200 (scripts/gpu-gemm-candidates.sh, two runs, beside torch.bmm with TF32 off): the tile fills'
 * global reads as vectors (`vload`, 32-bit spelling) raised every shape; the rule before against this one,
 * run 1 / run 2, % of cuBLAS: 32³ f32 101.9 / 103.4 → vector-k16 vload=4 with its loops kept 122.0 (run 2; written
 * out 119.3 / 120.9), 32³ f64 84.6 / 84.5 → 85.6 / 85.3 (vload=2), 64³ f32 86.2 / 86.1 → 92.8 / 92.9 (vload=4),
 * 64³ f64 63.4 / 64.3 → 65.8 / 66.6 (vload=2; 64.4% of the copy rate). Work-groups 32x4, 32x8 and 16x16 and
 * staged-k32/all lost to 16x8 staged-k16 on every shape; fused products (`fma`) changed nothing (NVIDIA contracts).
 * Taken 2026-11-28 once each fill branched on the alignment around its reads (the GEMM printed once) and vector reads
 * kept plain loops where `full` falls back (lavapipe then compiles tinytc-policy.test.ts's modules in seconds): the
 * H200 run of scripts/gpu-gemm-candidates.sh gave the rule before → this one, % of cuBLAS: 32³ f32 100.0 → 117.9,
 * 32³ f64 83.9 → 84.8, 64³ f32 86.3 → 92.7, 64³ f64 63.0 → 65.2 (64.2% of the copy rate).
 * 2026-11-29, three H200 runs for 64³ f64 (docs/benchmarks.md): the rule 68.7 / 70.2 / 69.2% of cuBLAS (64.9 / 64.8 /
 * 65.8% of the copy rate); the `tile` knob lost everywhere: 2x4, 4x4, 2x8 on 16x8 48–49%, the rule's spelling on
 * 16x16 64.9% and on 32x8 62.2%, tile=8x8 on 8x16 65.7% and on 8x8 57.5%.
 * 2026-11-29, one H200 call of three passes (the second in reverse order; cuBLAS 13.84 / 12.67 / 13.20, 9.91 / 9.60 /
 * 10.63, 28.16 / 25.55 / 28.14, 20.76 / 20.35 / 21.96 TFLOP/s for 32³ f32, 32³ f64, 64³ f32, 64³ f64): staged-k16 with
 * B's tile unpadded (`pad=0`, column stride 16: a work-item's 4 or 2 neighbouring k of a column one aligned 16-byte
 * vector, which NVIDIA's compiler reads and stores whole; T + 1 splits them), the rule before → this one, % of cuBLAS:
 * 32³ f32 119.5 / 130.9 / 125.4 → 130.1 / 141.7 / 135.9 (staged-k16 `vload=4,pad=0` written out, in place of
 * vector-k16: one rule for f32 up to 64), 64³ f32 92.8 / 102.2 / 92.4 → 100.5 / 110.6 / 100.4 (`vload=4,pad=0`),
 * 64³ f64 69.6 / 71.0 / 65.9 → 80.5 / 81.9 / 76.0 (`vload=2,pad=0`; 74.4–75.8% of the copy rate); 32³ f64 keeps its
 * spelling: `pad=0` gained 1.5 / 1.7 / 1.6 points there, under the 2 a change takes. `lvec` (vector-* tiles read as
 * vectors) lost everywhere (64³ f32 69–74% of cuBLAS).
 * 2026-11-29, f64 (docs/benchmarks.md; registers from bench/vulkan-pipeline-stats.c): up to 32, staged-k8 with B unpadded
 * and the K-tile loop kept (`pad=0,kloop`), on the 8x4 work-group Vulkan's GPU entry now chooses for it
 * (VULKAN_GPU_WORK_GROUPS in api-policies.ts): 32³ f64 96.4 / 97.0 / 96.4% of cuBLAS against the rule before (staged-k16
 * `vload=2` on 16x8) 84.7 / 85.3 / 84.8 in three passes of one H200 call. 64³ f64 keeps its spelling: `kloop` (146
 * registers against 165, still 3 work-groups an SM) gained 0.3–0.8 points, `apad` and the overlapped variants with
 * `pad=0` lost (up to 255 registers), and every smaller work-group lost.
 */
export const VULKAN_GPU_GEMM: readonly GemmRule[] = [
  {
    element: 'f32',
    maxSize: 64,
    variant: 'staged-k16',
    spirv: { index32: true, fill: 'hoisted', unroll: 'full', vload: 4, pad: 0 },
  },
  {
    element: 'f64',
    maxSize: 32,
    variant: 'staged-k8',
    spirv: { index32: true, fill: 'hoisted', unroll: 'full', vload: 2, pad: 0, kloop: true },
  },
  { maxSize: 32, variant: 'staged-k16', spirv: { index32: true, fill: 'hoisted', unroll: 'full', vload: 2 } },
  {
    element: 'f64',
    maxSize: 64,
    variant: 'staged-k16',
    spirv: { index32: true, fill: 'hoisted', unroll: 'full', vload: 2, pad: 0 },
  },
  { maxSize: 64, variant: 'staged-k16', spirv: { index32: true, fill: 'hoisted', unroll: 'full', vload: 2 } },
  { variant: 'direct' },
];

/**
 * The rule for GPUs under OpenCL (api-policies.ts), from the sweep on an NVIDIA H100 (scripts/gpu-gemm-sweep.sh, 2026-11-23: every
 * variant × work-group 16x8/32x4/32x8/64x4 × 32³/64³ f32/f64 batched, beside torch.bmm): the
 * fastest per shape was vector-all for 32³ f32 (110.7% of cuBLAS), staged-k16 for 32³ f64 (97.1%),
 * staged-all for 64³ f32 (98.3%) and 64³ f64 (83.6%, at 16x8: work-group-size.ts's 256 accumulator
 * bytes); copy and axpby were fastest at 2 elements per access (98.7% / 101.1% of the device copy;
 * 4 was within 1%, 8 lost a third). Shapes the sweep did not cover (larger or dynamic) keep direct.
 * 2026-11-28 (scripts/gpu-gemm-overlap.sh, H100, staged-k16/k32/all and overlap-k8/k16/k32/all × 16x8/32x4):
 * f64 moved to the overlapped tiles — 32³ overlap-k16 105.1% of cuBLAS (staged-k16 100.7%), 64³ overlap-all
 * 96.5% (staged-all 90.0%, 90.5% of the copy rate); f32 kept its variants (overlap within 1% or behind).
 * 2026-11-28, an H200 (scripts/gpu-gemm-candidates.sh, the tile reads' knobs, opencl-knobs.ts, beside torch.bmm with
 * TF32 off), % of cuBLAS, the variants unknobbed (vload4) → with the knobs below: 32³ f32 103.4 → 115.8 (vload=2),
 * 32³ f64 73.8 → 92.3 (vload=2, aligned), 64³ f32 84.2 → 96.3 (aligned), 64³ f64 62.2 → 74.8 (vload=2, aligned;
 * 73.6% of the copy rate). ptxas's registers and occupancy did not change with the knobs (64³ f64: 164 registers,
 * 3 work-groups an SM, 19%): the reads issue fewer, wider loads.
 * 2026-11-28 evening, two H200 runs of the candidates (issue #30 goal 5; one GPU alone, and one GPU of four while the
 * host's 64 cores fuzzed), the rule before → with the knob, % of cuBLAS: 32³ f64 with `index32` 97.0 → 99.2 and 99.6
 * → 100.8 (64 registers either way), 64³ f32 with `batch` 100.9 → 103.4 and 99.4 → 102.0 (96 registers against 80, 5
 * work-groups an SM against 6: the loads in flight win). Neither helped another shape (first run: 64³ f64 `index32`
 * 74.0 against 74.8; `overlap-k8`, 126 registers and 4 work-groups an SM, 73.5); `unroll` lost up to 5 points but on
 * overlap-all at 64³ f32 (88.2 → 102.9, one run; staged-all batched is the rule there).
 * 2026-11-29, three H200 runs of the candidates for 64³ f64 (the `tile` knob, tiling.ts; docs/benchmarks.md has the
 * table): the rule ran 78.3 / 80.6 / 78.8% of cuBLAS, 74.0 / 74.5 / 74.9% of the copy rate (164 registers, 3
 * work-groups an SM, 19% occupancy). Smaller tiles a work-item raised occupancy and lost: tile=4x4 66.4 / 68.5% (124
 * registers, 25%), 2x4 49.8 / 51.3% (25%; with index32 94 registers, 31%), staged-k16 batch 2x4 51.0% (48 registers,
 * 63%); 16x16 work-items (4 × 4 each) 67.7%, 32x8 (2 × 8) 64.7%. So not latency at low occupancy: the products a
 * work-item makes per local read. A larger tile on fewer work-items, overlap-k8 tile=8x8 on 8x8, ran 80.5% (76.5% of
 * the copy rate, +2.1% over the rule in run 3; 238 registers, 13%): one run, and it needs a work-group rule by
 * element type (OpenCL's choice gives every 64³ GEMM 16x8), so the rule stays until a run confirms it.
 * 2026-11-29, the FP64 tensor cores: on NVIDIA devices of compute capability 8.0 or later NVIDIA_TENSOR_GEMM (below)
 * goes before these rules (the runtime asks the driver): `mma-f64` ran 64³ f64 at 96.0% of cuBLAS where these ran 77.0.
 * 2026-11-29, cp.async: on the same devices NVIDIA_CP_ASYNC_GEMM (below) goes before the f32 rules: 64³ f32 with
 * `staged-k16 async=5` 115.5 / 120.0% of cuBLAS where `staged-all aligned,batch` ran 98.3 / 101.3 in the same run.
 */
export const GPU_BLAS_POLICY: BlasPolicy = {
  gemm: [
    { element: 'f32', maxSize: 32, variant: 'vector-all', opencl: { vload: 2 } },
    { element: 'f64', maxSize: 32, variant: 'overlap-k16', opencl: { vload: 2, aligned: true, index32: true } },
    { element: 'f64', maxSize: 64, variant: 'overlap-all', opencl: { vload: 2, aligned: true } },
    { element: 'f32', maxSize: 64, variant: 'staged-all', opencl: { aligned: true, batch: true } },
    { maxSize: 64, variant: 'staged-all', opencl: { aligned: true } },
    { variant: 'direct' },
  ],
  axpbyVector: 2,
};

/**
 * The rules OpenCL's GPU policy puts first on an NVIDIA device of compute capability 8.0 or later (the OpenCL runtime
 * asks the driver: CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV): f64 GEMMs up to 64 × 64 on the FP64 tensor cores
 * (`mma-f64`, opencl-c/gemm-mma.ts). Never for another device: PoCL and the rest cannot build its inline PTX.
 * 2026-11-29, an H200 (scripts/gpu-gemm-candidates.sh, GEMM_SHAPES="f64:32 f64:64", one run beside torch.bmm with
 * TF32 off: cuBLAS 10.31 / 21.52 TFLOP/s, torch's copy 4,158 GB/s; the variant's device test passed first), % of
 * cuBLAS, the rule above → `mma-f64 vload=2,aligned`: 32³ f64 96.7 → 106.7 (99.3% of the copy rate), 64³ f64 77.0
 * → 96.0 (74.7 → 93.2% of the copy rate, 20.7 TFLOP/s; ptxas 168 registers, 3 work-groups an SM, as the rule's 164).
 * `index32` and `unroll` on it were within a point (107.0 / 107.4 and 95.2 / 95.9); without the read knobs 85.4 and
 * 80.5. Fewer products a local read no longer limit it: the 64³ kernel moves its bytes at 93% of the copy rate.
 * 2026-11-29, the `async` knob (cp.async fills, opencl-c/gemm-mma-async.ts), three H200 runs of the candidates
 * (GEMM_SHAPES="f64:64 f64:32", the second in reverse order; cuBLAS 21.8 / 22.1 / 20.1 TFLOP/s for 64³, torch's copy
 * 4,038 / 4,172 / 4,054 GB/s), the rule then (`vload=2,aligned`) → `async=3` for 64³ f64: 20.64 / 20.58 / 20.57 →
 * 22.10 / 22.12 / 22.05 TFLOP/s (1.07× in each run; 95.8 / 92.5 / 95.1 → 102.6 / 99.4 / 102.0% of the copy rate; 168
 * → 128 registers, 3 → 4 work-groups an SM); async=2 1.04×, async=6 and 9 (K tiles of 4) 1.06×. For 32³ f64 `async=2`
 * (one K tile of 32, no registers for the copy): 11.04 / 11.08 / 10.93 → 11.32 / 11.42 / 11.31 TFLOP/s (1.03×);
 * async=3 there 0.90× (K tiles of 16).
 */
export const NVIDIA_TENSOR_GEMM: readonly GemmRule[] = [
  { element: 'f64', maxSize: 32, variant: 'mma-f64', opencl: { async: 2 } },
  { element: 'f64', maxSize: 64, variant: 'mma-f64', opencl: { async: 3 } },
];

/**
 * The rules OpenCL's GPU policy puts next on the same devices (NVIDIA, compute capability 8.0 or later: PTX's
 * `cp.async`): f32 GEMMs up to 64 × 64 on the CUDA cores (TF32 would change the sums), their staged tiles filled by
 * cp.async (`async=S`, opencl-c/cp-async.ts) in S stages, no registers holding the copy. Never for another device
 * (PoCL and the rest cannot build the PTX), nor for SPIR-V (portableGemmRule passes them over: the rules above).
 * 2026-11-29, an H200 (scripts/gpu-gemm-candidates.sh, GEMM_SHAPES="f32:64 f32:32", two passes in one call, the
 * second in reverse order, beside torch.bmm with TF32 off: cuBLAS 13.84 / 13.10 TFLOP/s at 32³ and 28.18 / 27.07 at
 * 64³, torch's copy 4,185 / 4,132 GB/s; test/tinytc-gemm-staged-async.test.ts passed on the device first with every
 * pair timed), % of cuBLAS, the rule above → these: 64³ f32 `staged-all aligned,batch` 98.3 / 101.3 → `staged-k16
 * async=5` 115.5 / 120.0 (K tiles of 16, all four issued before the K loop: 40 KiB, 90 registers against 96, 5
 * work-groups an SM either way); 32³ f32 `vector-all vload=2` 115.6 / 123.7 → `staged-all async=2` 137.2 / 147.8
 * (one K tile of 32; 40 registers, 12 work-groups an SM against 16). Fewer stages at 64³ copied the next tile inside
 * the loop and took 127 registers, 4 work-groups an SM: async=2, 3, 4 ran 97.2–102.0% (async=4 with unroll 112.3 /
 * 116.8 at 168 registers); K tiles of 8 95.1–101.1%; K 32 (async=2) 84–87% at 254 registers; the vector variants
 * under async lost (57.8–77.4% at 64³, 114.3–121.9% at 32³). A second call after the change (two passes, cuBLAS
 * 13.06 / 13.62 TFLOP/s at 32³ and 26.54 / 27.85 at 64³; the rule's device test passed first): the rule as the
 * runtime builds it 146.3 / 141.9% of cuBLAS at 32³ (19.1 / 19.3 TFLOP/s) and 121.6 / 116.6% at 64³ (32.3 / 32.5
 * TFLOP/s, 73.6 / 72.9% of the copy rate) against the old spellings' 123.2 / 118.6 and 103.8 / 99.4 in the same passes.
 */
export const NVIDIA_CP_ASYNC_GEMM: readonly GemmRule[] = [
  { element: 'f32', maxSize: 32, variant: 'staged-all', opencl: { async: 2 } },
  { element: 'f32', maxSize: 64, variant: 'staged-k16', opencl: { async: 5 } },
];

/**
 * `gemm` with NVIDIA_TENSOR_GEMM and NVIDIA_CP_ASYNC_GEMM first where a device's compute capability (its major
 * number) is 8 or more.
 */
export function withTensorCores(gemm: readonly GemmRule[], computeCapability: number | null): readonly GemmRule[] {
  return computeCapability !== null && computeCapability >= 8
    ? [...NVIDIA_TENSOR_GEMM, ...NVIDIA_CP_ASYNC_GEMM, ...gemm]
    : gemm;
}

/**
 * The rule for CPU devices (PoCL): local memory and barriers are emulated there, so the staged and
 * vector variants ran at 0.03–0.75× direct in the same sweep on PoCL; wide vectors copy best
 * (8 elements: copy 10.3×, axpby 5.9× scalar).
 */
export const CPU_BLAS_POLICY: BlasPolicy = { gemm: [{ variant: 'direct' }], axpbyVector: 8 };

/** OpenCL's GPU rule: what a caller without a device or an API gets. */
export const DEFAULT_BLAS_POLICY: BlasPolicy = GPU_BLAS_POLICY;

/**
 * Local memory one staged GEMM may take: 40 KiB of the 48 KiB NVIDIA's OpenCL gives (the least of
 * the GPUs kernarg runs on), leaving 8 KiB for the kernel's own allocas. A 64³ f64 GEMM on 32 × 8
 * work-items (blocks of 64 × 64) then stages K by 32.
 */
export const LOCAL_BYTES = 40 * 1024;

export function isGemmVariant(s: string): s is GemmVariantName {
  return (GEMM_VARIANTS as readonly string[]).includes(s) || isNvidiaGemmVariant(s);
}

export function isNvidiaGemmVariant(s: string): s is NvidiaGemmVariantName {
  return (NVIDIA_GEMM_VARIANTS as readonly string[]).includes(s);
}

/** The rule the policy applies to a GEMM of C's type and static (or dynamic) M × N; none: `direct`, unspelled. */
export function gemmRule(policy: BlasPolicy, element: ScalarTypeName, m: unknown, n: unknown): GemmRule | undefined {
  const size = typeof m === 'number' && typeof n === 'number' ? Math.max(m, n) : null;
  return policy.gemm.find(
    (r) =>
      (r.element === undefined || r.element === element) &&
      (r.maxSize === undefined || (size !== null && size <= r.maxSize)),
  );
}

/**
 * gemmRule without the vendor-only rules (an NVIDIA variant, or the `async` knob's cp.async): what a printer or
 * device they do not apply to takes instead.
 */
export function portableGemmRule(
  policy: BlasPolicy,
  element: ScalarTypeName,
  m: unknown,
  n: unknown,
): PortableGemmRule | undefined {
  const gemm = policy.gemm.filter(
    (r): r is PortableGemmRule => !isNvidiaGemmVariant(r.variant) && r.opencl?.async === undefined,
  );
  return gemmRule({ ...policy, gemm }, element, m, n) as PortableGemmRule | undefined;
}

/** A rule whose variant runs on every device. */
export type PortableGemmRule = GemmRule & { readonly variant: Exclude<GemmVariantName, NvidiaGemmVariantName> };

/** The variant the policy gives a GEMM of C's type. */
export function gemmVariant(policy: BlasPolicy, element: ScalarTypeName, m: unknown, n: unknown): GemmVariantName {
  return gemmRule(policy, element, m, n)?.variant ?? 'direct';
}

/** Whether a staged variant keeps two tiles of each operand and loads the next while multiplying from one. */
export const isOverlapped = (variant: StagedVariantName): boolean => variant.startsWith('overlap-');

/**
 * The K tile of a staged variant for blocks of mb × nb elements of `bytes` each: what the variant
 * names (the whole static K for `*-all`, 64 when K is dynamic), halved until both tiles (twice
 * both for `overlap-*`) fit `localBytes` (LOCAL_BYTES by default).
 */
export function stagedKTile(
  variant: StagedVariantName,
  K: unknown,
  mb: number,
  nb: number,
  bytes: number,
  localBytes = LOCAL_BYTES,
): number {
  const tile = variant.slice(variant.indexOf('-') + 1) as KTile;
  let t = tile === 'all' ? (typeof K === 'number' ? Math.max(1, K) : 64) : Number(tile.slice(1));
  // The B tile is padded: one element per column, or up to 8 per row for the vector variants (gemm.ts).
  const copies = isOverlapped(variant) ? 2 : 1;
  while (t > 1 && copies * (mb * t + (nb + 8) * (t + 1)) * bytes > localBytes) t = Math.ceil(t / 2);
  return t;
}
