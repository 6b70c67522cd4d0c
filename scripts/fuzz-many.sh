#!/usr/bin/env bash
# Runs the fuzz campaign on many cores at once: JOBS processes per target (`npm run fuzz` each, with
# its own seed), sharing .fuzz/corpus and .fuzz/findings, then prints each job's summary line and
# the total inputs per target. Used on a many-core machine (the device machine's 16 cores).
#   FUZZ_SECONDS=480 FUZZ_JOBS="opencl-c:13 tinytc:3" bash scripts/fuzz-many.sh
# FUZZ_HANG_MS: how long a silent worker may take before it is a hang (default 20000; more on a loaded machine).
# Targets: opencl-c, tinytc, tinytc-codegen, args-json, args-json-cuda, plan-json, binary-readers, readers-ptx,
# readers-spirv, emit-ptx, emit-ze-info (self-contained); opencl-c-clang (needs clang-16) and
# tinytc-pocl (needs an OpenCL device) compare with their oracle per batch (README: fuzz targets).
set -uo pipefail
cd "$(dirname "$0")/.."
NODE=${NODE:-node}
SECONDS_EACH=${FUZZ_SECONDS:-300}
LOGS=${FUZZ_LOGS:-.fuzz/logs}
mkdir -p "$LOGS"
# The workers run src/ and test/ compiled to JavaScript (test/fuzz/compile-js.ts): made once here, not by every job.
"$NODE" --import tsx test/fuzz/compile-js.ts > /dev/null || exit 1
pids=()
for spec in ${FUZZ_JOBS:-opencl-c:2 tinytc:1}; do
  target=${spec%%:*}
  n=${spec##*:}
  for i in $(seq 1 "$n"); do
    seed=$(( (RANDOM << 15) ^ RANDOM ^ (i * 7919) ))
    "$NODE" --import tsx test/fuzz/main.ts --seconds "$SECONDS_EACH" --seed "$seed" ${FUZZ_HANG_MS:+--hang-ms "$FUZZ_HANG_MS"} \
      "$target" > "$LOGS/$target-$i.log" 2>&1 &
    pids+=($!)
  done
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
for f in "$LOGS"/*.log; do grep -E '^[a-z-]+: [0-9]+ inputs in' "$f" || { echo "$f: no summary"; tail -5 "$f"; }; done
echo "total:"
cat "$LOGS"/*.log | grep -E '^[a-z-]+: [0-9]+ inputs in' | awk '{ n[$1] += $2 } END { for (t in n) print "  " t, n[t], "inputs" }'
grep -h -E ': (crash|slow|hang|worker-died):' "$LOGS"/*.log | sort -u
exit $status
