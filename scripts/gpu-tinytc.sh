#!/usr/bin/env bash
# tinytc on a machine with an NVIDIA GPU and no Node: the execution tests and every GEMM variant
# against the JS reference through OpenCL and through Vulkan (SPIR-V), then the GEMM and bandwidth benchmarks through both
# APIs beside torch's baselines (cuBLAS) on the same GPU, with the ratios, and the launch overhead of both.
# Needs what scripts/gpu-run.sh needs (.node/ with node.xz, nm.tar.xz, the ICD loader deb), .gl/ with
# the libvulkan1 deb (carried; see scripts/gpu-env.sh), and python3 with torch.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
# At most 8 files come back from $OUT: everything else goes to setup.log or /tmp.
python3 bench/torch_baseline.py > "$out/torch.json" 2> "$out/setup.log"; cat "$out/torch.json"
. scripts/gpu-env.sh
export KERNARG_DEVICE=${KERNARG_DEVICE:-NVIDIA} KERNARG_VK_DEVICE=${KERNARG_VK_DEVICE:-NVIDIA}
/tmp/node --import tsx -e "import('./src/runtime/vulkan/context.ts').then((m) => console.log('vulkan devices:', JSON.stringify(m.listVulkanDevices())))" 2>&1 | tee -a "$out/setup.log"
for api in opencl vulkan; do
  echo "== tinytc execution tests, $api"
  # The GEMM variants file too (every staged variant on both APIs), its tests of this API only.
  CI=true KERNARG_SPIRV_VAL=0 KERNARG_API=$api /tmp/node --import tsx --test --test-name-pattern="\\[$api\\]" test/tinytc-exec.test.ts test/tinytc-gemm-variants.test.ts 2>&1 | tee "$out/tinytc-tests-$api.log" | grep -E '^# (pass|fail)|^not ok|Counterexample|error:' | head -40
done
CI=true /tmp/node --import tsx --test test/tinytc-pocl.test.ts test/vulkan-cli.test.ts 2>&1 | tee "$out/tinytc-cli-tests.log" | grep -E '^# (pass|fail)|^not ok|error:' | head -20
KERNARG_BASELINE="$out/torch.json" BENCH_NO_BUILD=1 /tmp/node --import tsx bench/run.ts tinytc 2>&1 | tee "$out/tinytc-bench.log"
grep '^RESULT ' "$out/tinytc-bench.log" | sed 's/^RESULT //' > /tmp/opencl-result.json
KERNARG_API=vulkan KERNARG_BASELINE="$out/torch.json" KERNARG_COMPARE=/tmp/opencl-result.json BENCH_NO_BUILD=1 /tmp/node --import tsx bench/run.ts tinytc 2>&1 | tee "$out/tinytc-vulkan-bench.log"
BENCH_NO_BUILD=1 /tmp/node --expose-gc --max-semi-space-size=64 --import tsx bench/run.ts vulkan-launch 2>&1 | tee "$out/vulkan-launch.log"
