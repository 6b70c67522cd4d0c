import { type BlasPolicy, CPU_BLAS_POLICY, GPU_BLAS_POLICY, VULKAN_GPU_GEMM } from './blas-policy.js';
import { DIRECT_ACCUMULATOR_BYTES, type ChoiceTuning, type GemmWorkGroupRule } from './work-group-size.js';

/** The APIs a tinytc kernel is printed for: OpenCL C (src/codegen/opencl-c) and SPIR-V for Vulkan (src/codegen/spirv). */
export const TINYTC_APIS = ['opencl', 'vulkan'] as const;
export type TinytcApi = (typeof TINYTC_APIS)[number];

/** The classes of device a policy is measured on: GPUs (an H100), and CPUs (PoCL for OpenCL, lavapipe for Vulkan). */
export type DeviceKind = 'gpu' | 'cpu';

/** What one API's code generator does on one class of device: its BLAS rule and, where it differs from the tuned one, its work-group rule. */
export interface ApiPolicy {
  readonly blas: BlasPolicy;
  /** The work-group choice's figures where the API's measurements differ (work-group-size.ts). */
  readonly tuning?: Partial<ChoiceTuning>;
}

/**
 * Vulkan's work-group for a GEMM of static C up to 64 × 64, from the same H100 Vulkan sweep as
 * VULKAN_GPU_GEMM (scripts/gpu-gemm-sweep.sh with KERNARG_API=vulkan, 2026-11-23): staged-k16 ran
 * 64³ f32 at 56.2% of cuBLAS and 64³ f64 at 50.8% on 32x4, 47.9% and 46.2% on the 16x8 the tuned rule
 * chooses. Not in the Vulkan GPU entry: with the SPIR-V spelling VULKAN_GPU_GEMM now carries, the
 * chosen 16x8 beat 32x4 for every shape, best variant against best variant (sweep of 2026-11-27:
 * 64³ f32 94.6% against 74.7%, 64³ f64 80.7% against 60.2% of cuBLAS). Under load, lavapipe once computed one wrong element of a 64³
 * staged-k16 GEMM on 32x4 (issue #19's notes), not explained. Ruled out: that run was one work-group
 * (no cross-group hazard possible), and test/tinytc-gemm-dispatch.test.ts executes every variant on
 * 32x4 and 16x8 as whole dispatches without finding any overlap, unordered access or uninitialised
 * read; 4000 repeats on lavapipe under load did not reproduce it (scripts/vulkan-gemm-repeat.ts).
 */
export const VULKAN_GPU_GEMM_WORK_GROUPS: readonly GemmWorkGroupRule[] = [
  { maxSize: 32 },
  { maxSize: 64, size: [32, 4] },
];

/**
 * Vulkan's GPU work-groups by measurement (issue #30 goal 5): f64 GEMMs of C up to 32 × 32 on one warp (8 × 4 work-items,
 * 4 × 8 of C each), where VULKAN_GPU_GEMM gives them `staged-k8` with the K-tile loop kept. Three H200 passes in one call
 * (2026-11-29, beside torch.bmm with TF32 off), 32³ f64, % of cuBLAS: `staged-k8 pad=0,kloop` on 8 × 4 96.4 / 97.0 /
 * 96.4 against the rule then (staged-k16 on 16 × 8) 84.7 / 85.3 / 84.8; on 16 × 4 and 8 × 8 (64 work-items) the best ran
 * 93.3–94.1, on 4 × 8 75.1; the same kernel on 16 × 8 83.2–83.9 (docs/benchmarks.md). Larger f64 GEMMs and f32 keep the
 * choice (64³ f64 lost 9–36 points on every smaller work-group).
 */
export const VULKAN_GPU_WORK_GROUPS: readonly GemmWorkGroupRule[] = [
  { element: 'f64', minSize: 17, maxSize: 32, size: [8, 4] },
];

/**
 * The policy of each API on each class of device: data, each entry from the sweep its comment in
 * blas-policy.ts names (scripts/gpu-gemm-sweep.sh on an H100, KERNARG_API=opencl|vulkan). A
 * printer reads its own API's entry; the work-group comes from the API a kernel is compiled for
 * (compileTinytc's `api`). CPU devices emulate local memory and barriers under both APIs, so both
 * take the direct GEMM and its accumulator figure.
 */
export const API_POLICIES: Readonly<Record<TinytcApi, Readonly<Record<DeviceKind, ApiPolicy>>>> = {
  opencl: {
    gpu: { blas: GPU_BLAS_POLICY },
    cpu: { blas: CPU_BLAS_POLICY, tuning: { accumulatorBytes: DIRECT_ACCUMULATOR_BYTES } },
  },
  vulkan: {
    // axpbyVector 2 measured on Vulkan too (H100, 2026-11-27, AXPBY_VECTORS="1 2 4"): copy 84.6 / 97.5 / 97.5%
    // of the device copy, axpby 94.9 / 99.2 / 99.4%; 2 and 4 are within run-to-run spread.
    gpu: {
      blas: { ...GPU_BLAS_POLICY, gemm: VULKAN_GPU_GEMM, axpbyVector: 2 },
      tuning: { gemmWorkGroups: VULKAN_GPU_WORK_GROUPS },
    },
    cpu: { blas: CPU_BLAS_POLICY, tuning: { accumulatorBytes: DIRECT_ACCUMULATOR_BYTES } },
  },
};
