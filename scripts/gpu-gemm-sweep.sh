#!/usr/bin/env bash
# The tinytc GEMM sweep in one call: every GEMM variant of src/codegen/blas-policy.ts × every
# work-group (kernarg's choice and WG_SWEEP) × every benchmarked shape (32³ and 64³, f32 and f64,
# batched), and the copy and axpby at each vector width, beside torch.bmm (cuBLAS, TF32 off) and
# torch's device copy timed in the same run. Prints one table, each row also as a multiple of
# kernarg's default kernel in the same run, and the fastest per shape (the data for the rule in
# blas-policy.ts). Runs the variants' execution tests on the same device first.
# On the GPU machine (.node/ carried, see scripts/gpu-env.sh) it uses the carried Node and NVIDIA's
# driver; elsewhere the node on PATH and the default OpenCL device (PoCL), with cut-down sizes, and
# without the torch baseline where torch is missing.
# KERNARG_API=vulkan: the same GEMM sweep through kernarg's SPIR-V on Vulkan (NVIDIA's ICD on the GPU
# machine, the default Vulkan device, lavapipe, elsewhere); copy and axpby at the one SPIR-V width.
# There every GEMM also runs under each setting of the SPIR-V knobs (SPIRV_KNOBS, see
# src/codegen/spirv-knobs.ts), with fewer variants and work-groups by default so that the
# whole sweep stays within a few minutes: 4 variants × 2 work-groups (chosen, 32x4) × 6 settings × 4 shapes.
set -u
cd "$(dirname "$0")/.."
. scripts/gpu-gemm-setup.sh
api=${KERNARG_API:-opencl}
export KERNARG_API=$api
echo "== GEMM variants and vector axpby against the reference ($api)"
CI=true $node --import tsx --test --test-name-pattern="\\[$api\\]" test/tinytc-gemm-variants.test.ts 2>&1 | tee "$out/gemm-variants-tests-$api.log" | grep -E '^# (pass|fail)|^not ok|error:' | head -20
echo "== sweep ($api)"
if [ "$api" = vulkan ]; then
  export SPIRV_KNOBS=${SPIRV_KNOBS:-default index32 fill=hoisted unroll=hint index32,unroll=full index32,fill=hoisted,unroll=full}
  GEMM_VARIANTS=${GEMM_VARIANTS:-staged-k16 staged-k32 staged-all direct}
  WG_SWEEP=${WG_SWEEP:-32x4}
fi
GEMM_VARIANTS=${GEMM_VARIANTS:-direct direct-vector staged-k16 staged-all vector-k8 vector-k16 vector-k32 vector-all} \
  AXPBY_VECTORS=${AXPBY_VECTORS:-1 2 4 8} \
  WG_SWEEP=${WG_SWEEP:-16x8 32x4 32x8 64x4} \
  KERNARG_BASELINE=$baseline BENCH_NO_BUILD=1 $node --import tsx bench/run.ts tinytc 2>&1 | tee "$out/gemm-sweep-$api.log"
