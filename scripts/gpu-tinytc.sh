#!/usr/bin/env bash
# tinytc on a machine with an NVIDIA GPU and no Node: the execution tests against the JS reference,
# then the GEMM and bandwidth benchmarks beside torch's baselines on the same GPU.
# Needs what scripts/gpu-run.sh needs (.node/ with node.xz, nm.tar.xz, the ICD loader deb) and python3 with torch.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
python3 bench/torch_baseline.py > "$out/torch.json" 2> "$out/torch.err"; cat "$out/torch.json"
. scripts/gpu-env.sh
export KERNARG_DEVICE=${KERNARG_DEVICE:-NVIDIA}
CI=true /tmp/node --import tsx --test test/tinytc-exec.test.ts test/tinytc-pocl.test.ts 2>&1 | tee "$out/tinytc-tests.log" | grep -E '^# (pass|fail)|^not ok|Counterexample|error:' | head -40
KERNARG_BASELINE="$out/torch.json" /tmp/node --import tsx bench/run.ts tinytc 2>&1 | tee "$out/tinytc-bench.log"
