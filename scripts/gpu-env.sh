# Sourced by the GPU scripts: unpacks the carried Node binary and node_modules (.node/), makes sure
# an OpenCL ICD loader is there, and points it at NVIDIA's driver alone.
xz -dc .node/node.xz > /tmp/node && chmod +x /tmp/node
tar xJf .node/nm.tar.xz
if ! ldconfig -p | grep -q 'libOpenCL.so.1 '; then
  dpkg -x .node/ocl-icd-libopencl1_*.deb /tmp/ocl
  export LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
mkdir -p /tmp/icd
echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd
# The image may list other drivers too (PoCL): name NVIDIA's to the loader directly as well (the Khronos loader and
# newer ocl-icd read OCL_ICD_FILENAMES first).
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1
# Vulkan: the loader and glvnd from the carried .gl/ debs (apt-get download libvulkan1 libglvnd0 …, as the
# device README says) where the machine lacks either (NVIDIA's ICD, libGLX_nvidia.so.0, needs glvnd's
# libGLdispatch), and NVIDIA's driver as the only ICD.
if { ! ldconfig -p | grep -q 'libvulkan.so.1 ' || ! ldconfig -p | grep -q 'libGLdispatch.so.0 '; } &&
  ls .gl/*.deb > /dev/null 2>&1; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
nv_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv_icd" ]; then
  export VK_DRIVER_FILES=$nv_icd VK_ICD_FILENAMES=$nv_icd
fi
