#!/usr/bin/env bash
# Runs the OpenCL tests and the launch (sync and async), build-cache and pack benchmarks on a
# machine with an NVIDIA GPU and no Node. Needs, beside the checkout: .node/node.xz (a Node
# binary), .node/nm.tar.xz (node_modules), .node/c-host (the launch benchmark's C host, prebuilt:
# `KERNARG_KEEP_C_HOST=.node/c-host npm run bench -- launch` here), .node/ocl-icd-libopencl1_*.deb, and dist/.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
. scripts/gpu-env.sh
export KERNARG_CACHE_DIR=${KERNARG_CACHE_DIR:-/tmp/kernarg-cache}
nvidia-smi -L 2>&1 | tee "$out/gpu.txt"
/tmp/node -e "import('./dist/runtime/opencl/host.js').then(m => console.log(m.listDevices().map(d => d.platform + ' / ' + d.name + ' / ' + d.version).join('\n')))" 2>&1 | tee "$out/devices.txt"
/tmp/node bin/kernarg.js devices 2>&1 | tee "$out/devices-full.txt" | head -30
export KERNARG_DEVICE=${KERNARG_DEVICE:-NVIDIA}
CI=true /tmp/node --import tsx --test test/opencl-pocl.test.ts test/tinytc-pocl.test.ts test/host-async.test.ts test/build-cache.test.ts test/host-cli.test.ts test/gen-ts.test.ts 2>&1 | tee "$out/tests.log" | grep -E '^# (pass|fail)|^not ok|# build'
KERNARG_C_HOST=.node/c-host BENCH_NO_BUILD=1 /tmp/node --import tsx bench/run.ts launch 2>&1 | tee "$out/launch.log"
BENCH_NO_BUILD=1 /tmp/node --import tsx bench/run.ts cache 2>&1 | tee "$out/cache.log"
BENCH_NO_BUILD=1 /tmp/node --import tsx bench/run.ts pack 2>&1 | tee "$out/pack.log"
