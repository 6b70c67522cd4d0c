#!/usr/bin/env bash
# The GEMM candidates beside the rules, on both APIs, in one call (issue #30 goal 5: every benchmarked
# shape at ≥ 100% of cuBLAS, or ≥ 95% of the copy rate where cuBLAS is there): first the candidates'
# execution tests on the device (test/tinytc-gemm-vector-reads.test.ts on Vulkan: NVIDIA's compiler
# has miscompiled a written-out GEMM before, src/codegen/spirv/gemm.ts says which), then torch.bmm
# (cuBLAS, TF32 off) and the device copy, then for 32³ and 64³ batched GEMMs of f32 and f64:
# - Vulkan: the rule's kernel (VULKAN_GPU_GEMM) and VK_VARIANTS × VK_KNOBS (the SPIR-V spellings:
#   unspelled, the rule's knobs, and with them the tile fills' global reads as vec2 / vec4, `vload`, with
#   the loops written out or kept; the products as fused multiply-adds, `fma`, gained nothing on an H200);
# - OpenCL: the rule's kernel (GPU_BLAS_POLICY) and CL_VARIANTS, the control of the same run;
# on kernarg's work-group and WG_SWEEP's (32x4 32x8 16x16; WG_SWEEP= for none); an API is skipped once
# BUDGET_S seconds (400) are spent. Prints each table, then per API and shape the rule's figure and the fastest
# row's, as % of cuBLAS and of the copy rate.
# On the GPU machine (.node/, .gl/ and dist/ carried, as for scripts/gpu-gemm-overlap.sh):
#   scripts/gpu-gemm-candidates.sh        (OUT=<dir> keeps the logs; APIS="vulkan" for one API)
# Elsewhere it runs on PoCL / lavapipe with the benchmark's cut-down sizes (no cuBLAS there).
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
node=node
if [ -f .node/node.xz ]; then
  . scripts/gpu-env.sh
  node=/tmp/node
  export KERNARG_DEVICE=${KERNARG_DEVICE:-NVIDIA} KERNARG_VK_DEVICE=${KERNARG_VK_DEVICE:-NVIDIA}
  # No spirv-tools there: the modules are validated by the tests on CI, not here.
  export KERNARG_SPIRV_VAL=0
fi
start=$(date +%s)
# 150 ms of launches before each figure (the 2026-11-27 Vulkan sweep's), both sides, to stay within 8 minutes.
export WARM_MS=${WARM_MS:-150}
baseline=
if python3 -c 'import torch' 2> /dev/null; then
  python3 bench/torch_baseline.py > "$out/torch.json" 2> "$out/setup.log" && baseline="$out/torch.json"
  cat "$out/torch.json"
else
  echo "no torch here: no cuBLAS baseline, ratios against kernarg's default kernels only"
fi
rule='index32,fill=hoisted,unroll=full'
# `default` first: the rule's own row (the API's policy as a user gets it), named "(the rule)".
VK_VARIANTS=${VK_VARIANTS:-staged-k16 staged-k32 staged-all vector-k16}
loops='index32,fill=hoisted,unroll=hint,vload=2 index32,fill=hoisted,vload=4'
VK_KNOBS=${VK_KNOBS:-default $rule $rule,vload=2 $rule,vload=4 $loops}
CL_VARIANTS=${CL_VARIANTS:-vector-all staged-k16 staged-all overlap-k16 overlap-all}
WG_SWEEP=${WG_SWEEP-32x4 32x8 16x16}
for api in ${APIS:-vulkan opencl}; do
  if [ "$(($(date +%s) - start))" -gt "${BUDGET_S:-400}" ]; then
    echo "== $api skipped: $(($(date +%s) - start)) s spent of BUDGET_S=${BUDGET_S:-400}"
    continue
  fi
  if [ "$api" = vulkan ]; then
    echo "== the candidates' execution tests (vulkan)"
    CI=true $node --import tsx --test test/tinytc-gemm-vector-reads.test.ts 2>&1 |
      tee "$out/candidates-tests-$api.log" | grep -E '^# (pass|fail)|^not ok|error:|func @' | head -80
    variants=$VK_VARIANTS knobs=$VK_KNOBS
  else
    variants=$CL_VARIANTS knobs=
  fi
  echo "== sweep ($api, $(($(date +%s) - start)) s in)"
  KERNARG_API=$api GEMM_VARIANTS=$variants SPIRV_KNOBS=$knobs AXPBY_VECTORS=2 WG_SWEEP=${WG_SWEEP:-} \
    KERNARG_BASELINE=$baseline BENCH_NO_BUILD=1 $node --import tsx bench/run.ts tinytc \
    > "$out/gemm-candidates-$api.log" 2>&1
  grep -E '^(device|sweep|copy|axpby|gemm|  gemm|kernel)|failed' "$out/gemm-candidates-$api.log"
done
echo "== summary: the rule and the fastest row per API and shape (of cuBLAS, of the copy rate)"
for api in ${APIS:-vulkan opencl}; do
  # The sweep's rows: kernel, size, ×howmany, variant [knobs], work-group, ms, rate GFLOP/s, of cuBLAS,
  # vs default, of copy rate.
  awk -v api="$api" '
    /^gemm [0-9]+³ f(32|64) / {
      shape = $2 " " $3
      rate = ""; cublas = "-"; roof = "-"; label = ""
      for (i = 1; i <= NF; i++) if ($i == "GFLOP/s") { rate = $(i - 1); cublas = $(i + 1); roof = $(i + 3) }
      if (rate == "") next
      for (i = 5; i <= NF && $i !~ /^[0-9]+x[0-9]+$/; i++) label = label (label == "" ? "" : " ") $i
      label = label " " $i
      row = sprintf("%s GFLOP/s, %s of cuBLAS, %s of the copy rate: %s", rate, cublas, roof, label)
      if (label ~ /\(the rule\)/) rule[shape] = row
      if (!(shape in best) || rate + 0 > best[shape] + 0) { best[shape] = rate; top[shape] = row }
    }
    END {
      n = split("32³ f32|32³ f64|64³ f32|64³ f64", shapes, "|")
      for (s = 1; s <= n; s++) {
        k = shapes[s]
        printf "  %s %s rule:    %s\n", api, k, (k in rule) ? rule[k] : "-"
        printf "  %s %s fastest: %s\n", api, k, (k in top) ? top[k] : "-"
      }
    }' "$out/gemm-candidates-$api.log"
done
echo "($(($(date +%s) - start)) s in all; logs in $out)"
