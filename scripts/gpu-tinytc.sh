#!/usr/bin/env bash
# tinytc on a machine with an NVIDIA GPU and no Node: the execution tests against the JS reference,
# then the GEMM and bandwidth benchmarks beside torch's baselines on the same GPU.
# Needs what scripts/gpu-run.sh needs (.node/ with node.xz, nm.tar.xz, the ICD loader deb) and python3 with torch.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
python3 bench/torch_baseline.py > "$out/torch.json" 2> "$out/torch.err"; cat "$out/torch.json"
xz -dc .node/node.xz > /tmp/node && chmod +x /tmp/node
tar xJf .node/nm.tar.xz
if ! ldconfig -p | grep -q 'libOpenCL.so.1 '; then
  dpkg -x .node/ocl-icd-libopencl1_*.deb /tmp/ocl
  export LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
mkdir -p /tmp/icd
echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
export KERNARG_DEVICE=${KERNARG_DEVICE:-NVIDIA}
CI=true /tmp/node --import tsx --test test/tinytc-exec.test.ts test/tinytc-pocl.test.ts 2>&1 | tee "$out/tinytc-tests.log" | grep -E '^# (pass|fail)|^not ok|Counterexample|error:' | head -40
KERNARG_BASELINE="$out/torch.json" /tmp/node --import tsx bench/run.ts tinytc 2>&1 | tee "$out/tinytc-bench.log"
