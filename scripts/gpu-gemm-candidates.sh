#!/usr/bin/env bash
# The GEMM candidates beside the rules, on both APIs, in one call (issue #30 goal 5: every benchmarked
# shape at ≥ 100% of cuBLAS, or ≥ 95% of the copy rate where cuBLAS is there): first the candidates'
# execution tests on the device (Vulkan: test/tinytc-gemm-vector-reads.test.ts, NVIDIA's compiler has
# miscompiled a written-out GEMM before, src/codegen/spirv/gemm.ts says which; OpenCL:
# test/tinytc-gemm-opencl-reads.test.ts), then torch.bmm (cuBLAS, TF32 off) and the device copy, then for
# 32³ and 64³ batched GEMMs of f32 and f64:
# - Vulkan: the rule's kernel (VULKAN_GPU_GEMM) and VK_PAIRS, each a variant and its SPIR-V spelling
#   (spirv-knobs.ts): the rule's spellings unknobbed as controls, and the candidates for more loads in flight
#   (`batch`: a K tile's reads of both operands before its stores; larger and smaller K tiles with it);
# - OpenCL: the rule's kernel (GPU_BLAS_POLICY) and CL_PAIRS, each a variant and its tile reads (opencl-knobs.ts):
#   the rule's spellings as controls, and the candidates `batch`, `index32` (int indices: fewer registers, more
#   work-groups an SM) and `unroll` (#pragma unroll on the product and fill loops), overlap-k8 (half the
#   prefetch registers of overlap-k16) and mma-f64 (f64 on the tensor cores, NVIDIA only; f32 falls back; `async=S`
#   its tiles filled by cp.async, S stages: the rule takes 2 for 32³ and 3 for 64³), and the staged variants'
#   `async=S` (cp.async fills, NVIDIA only: the rule takes staged-all async=2 for 32³ f32, staged-k16 async=5 for
#   64³; test/tinytc-gemm-staged-async.test.ts checks the pairs it times), each
#   row with its registers, spill and shared bytes and occupancy as
#   NVIDIA's ptxas made them (the program's PTX loaded through the CUDA driver, bench/tinytc-gemm-profile.ts;
#   Vulkan gives no such figures here);
# on kernarg's work-group and WG_SWEEP's (none by default: 32x8, 32x4 and 16x16 never won a sweep); an API is
# skipped once BUDGET_S seconds (400) are spent. Prints each table, then per API and shape the rule's figure and the
# fastest row's, as % of cuBLAS and of the copy rate, with the OpenCL rows' registers and occupancy, then per API
# every row's % of cuBLAS on the four shapes side by side. VK_PAIRS / CL_PAIRS ("variant:knobs ...") replace the
# lists; CROSS=1 times VK_VARIANTS × VK_KNOBS and CL_VARIANTS × CL_KNOBS instead (the sweeps before 2026-11-28 evening).
# VK_TESTS / CL_TESTS replace the execution tests (test files, space-separated: those that check the pairs timed),
# GEMM_SHAPES="f64:64" times one shape's rows only (bench/tinytc-kernels.ts). GEMM_SPV_DIR=<dir> (Vulkan) writes each row's
# module there, for the driver's registers and shared memory (bench/vulkan-pipeline-stats.c, built here and carried).
# On the GPU machine (.node/, .gl/ and dist/ carried, as for scripts/gpu-gemm-overlap.sh):
#   scripts/gpu-gemm-candidates.sh        (OUT=<dir> keeps the logs; APIS="vulkan" for one API)
# Elsewhere it runs on PoCL / lavapipe with the benchmark's cut-down sizes (no cuBLAS, no profile there).
set -u
cd "$(dirname "$0")/.."
start=$(date +%s)
. scripts/gpu-gemm-setup.sh
# 150 ms of launches before each figure (the 2026-11-27 Vulkan sweep's), both sides, to stay within 8 minutes.
export WARM_MS=${WARM_MS:-150}
rule='index32,fill=hoisted,unroll=full'
# `default` first: the rule's own row (the API's policy as a user gets it), named "(the rule)".
VK_VARIANTS=${VK_VARIANTS:-staged-k16 vector-k16 overlap-k16 overlap-all}
VK_KNOBS=${VK_KNOBS:-default $rule $rule,vload=2 $rule,vload=4 index32,fill=hoisted,vload=4}
CL_VARIANTS=${CL_VARIANTS:-vector-all staged-k16 staged-all overlap-k16 overlap-all}
CL_KNOBS=${CL_KNOBS:-default aligned vload=2 vload=2,aligned}
# The rule's own spellings first (the controls: each shape's rule row is one of them), then the candidates.
VK_PAIRS=${VK_PAIRS:-"staged-k16:$rule,vload=2 staged-k16:$rule,vload=4 vector-k16:index32,fill=hoisted,vload=4
  staged-k16:$rule,vload=2,batch staged-k16:$rule,vload=4,batch staged-k16:$rule,batch
  vector-k16:index32,fill=hoisted,vload=4,batch vector-k16:$rule,vload=4,batch
  staged-k16:index32,fill=hoisted,vload=2,batch
  staged-k32:$rule,vload=2,batch staged-k32:$rule,vload=4,batch staged-k8:$rule,vload=2,batch
  staged-all:$rule,vload=2,batch overlap-k8:$rule,vload=2"}
CL_PAIRS=${CL_PAIRS:-"vector-all:vload=2 overlap-k16:vload=2,aligned overlap-all:vload=2,aligned staged-all:aligned
  overlap-k16:vload=2,aligned,index32 overlap-k16:vload=2,aligned,unroll overlap-all:vload=2,aligned,index32
  overlap-all:vload=2,aligned,unroll overlap-all:aligned,index32 overlap-k8:vload=2,aligned
  overlap-k8:vload=2,aligned,index32 overlap-k8:vload=2,aligned,index32,unroll
  staged-k16:vload=2,aligned,index32 staged-k16:vload=2,aligned,batch staged-k16:vload=2,aligned,batch,index32
  staged-all:aligned,batch staged-all:aligned,index32
  staged-all:aligned,unroll staged-all:vload=2,aligned,batch,index32
  vector-all:vload=2,batch vector-all:vload=2,index32 vector-all:vload=2,unroll
  mma-f64:vload=2,aligned mma-f64:vload=2,aligned,index32 mma-f64:async=2 mma-f64:async=3 mma-f64:async=6
  staged-all:async=2 staged-k16:async=5 staged-k16:async=4,unroll"}
WG_SWEEP=${WG_SWEEP-}
for api in ${APIS:-vulkan opencl}; do
  if [ "$(($(date +%s) - start))" -gt "${BUDGET_S:-400}" ]; then
    echo "== $api skipped: $(($(date +%s) - start)) s spent of BUDGET_S=${BUDGET_S:-400}"
    continue
  fi
  if [ "$api" = vulkan ]; then
    tests=${VK_TESTS:-test/tinytc-gemm-vector-reads.test.ts} variants=$VK_VARIANTS knobs=$VK_KNOBS pairs=$VK_PAIRS
  else
    # The device's tests only (the names ending [opencl]): tinytc-gemm-mma's host-thread tests want clang-19.
    tests=${CL_TESTS:-'--test-name-pattern=\[opencl\] test/tinytc-gemm-opencl-reads.test.ts test/tinytc-gemm-mma.test.ts
      test/tinytc-gemm-staged-async.test.ts'}
    variants=$CL_VARIANTS knobs=$CL_KNOBS pairs=$CL_PAIRS
  fi
  [ "${CROSS:-}" = 1 ] && pairs=
  echo "== the candidates' execution tests ($api)"
  CI=true $node --import tsx --test $tests 2>&1 |
    tee "$out/candidates-tests-$api.log" | grep -E '^# (pass|fail)|^not ok|error:|func @' | head -80
  echo "== sweep ($api, $(($(date +%s) - start)) s in)"
  # GEMM_PAIRS (one line: the lists above span several) wins over GEMM_VARIANTS × the knobs where it is set.
  KERNARG_API=$api GEMM_PAIRS=$(echo $pairs) GEMM_VARIANTS=$variants SPIRV_KNOBS=$knobs CL_KNOBS=$knobs \
    AXPBY_VECTORS=2 WG_SWEEP=${WG_SWEEP:-} \
    GEMM_PROFILE=1 KERNARG_BASELINE=$baseline BENCH_NO_BUILD=1 $node --import tsx bench/run.ts tinytc \
    > "$out/gemm-candidates-$api.log" 2>&1
  grep -E '^(device|sweep|copy|axpby|gemm|  gemm|kernel)|failed' "$out/gemm-candidates-$api.log"
done
echo "== summary: the rule and the fastest row per API and shape (of cuBLAS, of the copy rate; OpenCL: ptxas's figures)"
for api in ${APIS:-vulkan opencl}; do
  # The sweep's rows: kernel, size, ×howmany, variant [knobs], work-group, ms, rate GFLOP/s, of cuBLAS,
  # vs default, of copy rate[, registers and occupancy].
  awk -v api="$api" '
    /^gemm [0-9]+³ f(32|64) / {
      shape = $2 " " $3
      rate = ""; cublas = "-"; roof = "-"; label = ""; prof = ""
      for (i = 1; i <= NF; i++) if ($i == "GFLOP/s") { rate = $(i - 1); cublas = $(i + 1); roof = $(i + 3) }
      if (rate == "") next
      for (i = 5; i <= NF && $i !~ /^[0-9]+x[0-9]+$/; i++) label = label (label == "" ? "" : " ") $i
      label = label " " $i
      if (match($0, /[0-9]+ regs, .*occ/)) prof = "; " substr($0, RSTART, RLENGTH)
      row = sprintf("%s GFLOP/s, %s of cuBLAS, %s of the copy rate: %s%s", rate, cublas, roof, label, prof)
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
echo "== every row's % of cuBLAS (without a baseline: % of the copy rate) on 32³ f32 / 32³ f64 / 64³ f32 / 64³ f64"
for api in ${APIS:-vulkan opencl}; do
  awk -v api="$api" '
    /^gemm [0-9]+³ f(32|64) / {
      shape = $2 " " $3
      rate = ""; cublas = "-"; roof = "-"
      for (i = 1; i <= NF; i++) if ($i == "GFLOP/s") { rate = $(i - 1); cublas = $(i + 1); roof = $(i + 3) }
      if (rate == "") next
      label = ""
      for (i = 5; i <= NF && $i !~ /^[0-9]+x[0-9]+$/; i++) label = label (label == "" ? "" : " ") $i
      # kernarg'"'"'s work-group (which may differ between shapes) or the swept one; the rule is a kernel per shape.
      label = label ($(i + 1) == "(chosen)" ? "" : " " $i)
      if (label ~ /\(the rule\)/) label = "(the rule)"
      if (!(label in seen)) { seen[label] = 1; order[++n] = label }
      cell[label, shape] = (cublas == "-" ? roof : cublas)
    }
    END {
      split("32³ f32|32³ f64|64³ f32|64³ f64", shapes, "|")
      for (r = 1; r <= n; r++) {
        k = order[r]; line = ""
        for (s = 1; s <= 4; s++) line = line sprintf(" %8s", ((k, shapes[s]) in cell) ? cell[k, shapes[s]] : "-")
        printf "  %-7s%s  %s\n", api, line, k
      }
    }' "$out/gemm-candidates-$api.log"
done
echo "($(($(date +%s) - start)) s in all; logs in $out)"
