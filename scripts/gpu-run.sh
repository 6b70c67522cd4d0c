#!/usr/bin/env bash
# Runs the OpenCL tests and the launch/pack benchmarks on a machine with an NVIDIA GPU and no Node.
# Needs, beside the checkout: .node/node.xz (a Node binary), .node/nm.tar.xz (node_modules),
# .node/c-host (the benchmark's C host, prebuilt), .node/ocl-icd-libopencl1_*.deb, and dist/.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
. scripts/gpu-env.sh
nvidia-smi -L 2>&1 | tee "$out/gpu.txt"
/tmp/node -e "import('./dist/runtime/opencl/host.js').then(m => console.log(m.listDevices().map(d => d.platform + ' / ' + d.name + ' / ' + d.version).join('\n')))" 2>&1 | tee "$out/devices.txt"
export KERNARG_DEVICE=${KERNARG_DEVICE:-NVIDIA}
CI=true /tmp/node --import tsx --test test/opencl-pocl.test.ts test/tinytc-pocl.test.ts 2>&1 | tee "$out/tests.log" | grep -E '^# (pass|fail)|^not ok'
KERNARG_C_HOST=.node/c-host /tmp/node --import tsx bench/run.ts launch 2>&1 | tee "$out/launch.log"
/tmp/node --import tsx bench/run.ts pack 2>&1 | tee "$out/pack.log"
