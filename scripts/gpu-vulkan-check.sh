#!/usr/bin/env bash
# Why the Vulkan loader finds (or does not find) NVIDIA's driver on a GPU machine: which loader is
# installed, which ICD manifests exist and what library each names, whether that library and its
# own dependencies load, and what the loader says when kernarg asks for its devices (its driver
# messages, VK_LOADER_DEBUG=driver). Sourced environment as the GPU scripts use it
# (scripts/gpu-env.sh: the carried Node, the loader from .gl/ where the machine has none).
# Prints everything to stdout; run it first in a call that needs Vulkan.
set -u
cd "$(dirname "$0")/.."
. scripts/gpu-env.sh
echo "== loader"
ldconfig -p | grep -E 'libvulkan|libGLX_nvidia|libEGL_nvidia|libnvidia-glcore' || echo "(none of them in ldconfig)"
echo "== ICD manifests"
for d in /usr/local/nvidia/share/vulkan/icd.d /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/share/vulkan/icd.d; do
  for f in "$d"/*.json; do
    [ -f "$f" ] || continue
    echo "-- $f"
    cat "$f"
  done
done
echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-} VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-}"
echo "== driver libraries"
for lib in libGLX_nvidia.so.0 libEGL_nvidia.so.0 libnvidia-glcore.so libnvidia-gpucomp.so; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 ~ "^"l {print $NF; exit}')
  [ -z "$path" ] && path=$(find / -xdev -name "$lib*" 2> /dev/null | head -1)
  echo "-- $lib: ${path:-not found}"
  [ -n "$path" ] && ldd "$path" 2> /dev/null | grep -E 'not found' || true
done
echo "== kernarg's device list with the loader's driver messages"
VK_LOADER_DEBUG=error,warn,driver /tmp/node --import tsx -e "import('./src/runtime/vulkan/context.ts').then((m) => console.log('vulkan devices:', JSON.stringify(m.listVulkanDevices())))" 2>&1 | tail -40
