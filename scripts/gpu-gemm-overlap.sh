#!/usr/bin/env bash
# The overlapped GEMM (overlap-kT / overlap-all, src/codegen/blas-policy.ts) beside the variants it
# is to replace, on both APIs, in one call: for 32³ and 64³ batched GEMMs of f32 and f64, the rule's
# kernel (OpenCL: vector-all / staged-k16 / staged-all; Vulkan: staged-k16 spelled with the SPIR-V
# knobs), staged-k16, staged-k32 and staged-all against overlap-k8, overlap-k16, overlap-k32 and
# overlap-all, on the rule's 16x8 work-group and 32x4, beside torch.bmm (cuBLAS, TF32 off) and the
# device copy timed in the same run (scripts/gpu-gemm-sweep.sh does the timing, the execution tests
# of every variant first). Prints each sweep's table, the fastest per shape, and a summary per API:
# the best staged and the best overlapped kernel of each shape as % of cuBLAS and of the copy rate.
# On the H100 (.node/ and .gl/ carried as for scripts/gpu-gemm-sweep.sh):
#   scripts/gpu-gemm-overlap.sh        (OUT=<dir> keeps the logs; APIS="opencl" for one API)
# Elsewhere it runs on PoCL / lavapipe with the benchmark's cut-down sizes (no cuBLAS there).
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
variants=${OVERLAP_VARIANTS:-staged-k16 staged-k32 staged-all overlap-k8 overlap-k16 overlap-k32 overlap-all}
for api in ${APIS:-opencl vulkan}; do
  # Vulkan: each variant unspelled and with the knobs of Vulkan's GPU rule (VULKAN_GPU_GEMM).
  knobs=
  [ "$api" = vulkan ] && knobs=${OVERLAP_KNOBS:-default index32,fill=hoisted,unroll=full}
  OUT=$out KERNARG_API=$api GEMM_VARIANTS=$variants WG_SWEEP=${WG_SWEEP:-32x4} SPIRV_KNOBS=$knobs AXPBY_VECTORS=2 \
    scripts/gpu-gemm-sweep.sh > "$out/gemm-overlap-$api.log" 2>&1
  echo "== $api: best staged-* / overlap-* per shape (of cuBLAS, of the copy rate; the full table in $out/gemm-sweep-$api.log)"
  # The sweep's rows: kernel, size, variant [knobs], work-group, ms, rate, of cuBLAS, vs default, of copy rate.
  awk '
    /^gemm [0-9]+³ f(32|64) / {
      shape = $2 " " $3
      family = ""
      for (i = 1; i <= NF; i++) if ($i ~ /^(staged|overlap|vector|direct)-/) { family = $i; sub(/-.*/, "", family); break }
      if (family != "staged" && family != "overlap") next
      rate = ""; cublas = "-"; roof = "-"
      for (i = 1; i <= NF; i++) {
        if ($i == "GFLOP/s") { rate = $(i - 1); cublas = $(i + 1); roof = $(i + 3) }
      }
      if (rate == "") next
      k = shape " " family
      if (!(k in best) || rate + 0 > best[k] + 0) { best[k] = rate; what[k] = $0; cb[k] = cublas; rf[k] = roof }
    }
    END {
      n = split("32³ f32|32³ f64|64³ f32|64³ f64", shapes, "|")
      for (s = 1; s <= n; s++) for (f = 1; f <= 2; f++) {
        fam = f == 1 ? "staged" : "overlap"; k = shapes[s] " " fam
        if (k in best) printf "  best %s: %s GFLOP/s, %s of cuBLAS, %s of the copy rate  (%s)\n", fam, best[k], cb[k], rf[k], what[k]
      }
    }' "$out/gemm-sweep-$api.log"
done
