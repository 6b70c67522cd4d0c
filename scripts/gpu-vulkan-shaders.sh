#!/usr/bin/env bash
# kernarg's own GLSL compute shaders (test/shaders: buffers, std140 uniforms, push constants, several
# sets, spec constants, a spec-sized work group, std430 structs, 64-bit types, an image the host
# refuses) on NVIDIA's Vulkan driver, each launch compared with its JS reference: PASS or FAIL per
# shader (scripts/vulkan-shaders-run.ts; the same cases test/vulkan-shaders.test.ts runs on lavapipe).
# The GPU machine has no glslang: compile the shaders first where it is, then carry them:
#   npx tsx scripts/vulkan-shaders-run.ts --compile-only      # fills test/.tmp/shader-spv/
#   device run, carry [".node", ".gl", "test/.tmp/shader-spv"]: bash scripts/gpu-vulkan-shaders.sh
# Needs .node/ (scripts/gpu-env.sh: node.xz, nm.tar.xz) and .gl/ with the libvulkan1 deb.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
mkdir -p "$out"
. scripts/gpu-env.sh
export KERNARG_VK_DEVICE=${KERNARG_VK_DEVICE:-NVIDIA}
/tmp/node --import tsx scripts/vulkan-shaders-run.ts 2>&1 | tee "$out/vulkan-shaders.log"
exit "${PIPESTATUS[0]}"
