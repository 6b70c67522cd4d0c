# Sourced by the GEMM sweeps (scripts/gpu-gemm-sweep.sh, scripts/gpu-gemm-candidates.sh): the logs' folder ($out,
# OUT or /tmp/out), the Node to run ($node: on the GPU machine the carried one, .node/ through scripts/gpu-env.sh,
# with NVIDIA's OpenCL and Vulkan drivers picked; elsewhere the node on PATH), and torch.bmm's cuBLAS figures and
# the device copy timed now ($baseline: their JSON, empty where torch is missing).
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
baseline=
if python3 -c 'import torch' 2> /dev/null; then
  python3 bench/torch_baseline.py > "$out/torch.json" 2> "$out/setup.log" && baseline="$out/torch.json"
  cat "$out/torch.json"
else
  echo "no torch here: no cuBLAS baseline, ratios against kernarg's default kernels only"
fi
