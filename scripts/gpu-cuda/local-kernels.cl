// Local (shared-memory) pointer arguments for scripts/gpu-cuda-launch.ts (nvidia convention: the
// `.ptr .shared` parameters clang's nvcl backend declares, and a static local array, so the dynamic
// area starts after static shared memory). Each work-group writes its blocks, waits, and reads them
// back reversed: a block placed where the kernel does not read it, or overlapping another, shows.
// local-kernels.ptx is this file through clang-16: node --import tsx scripts/gpu-cuda-launch.ts --make-ptx
kernel void locals(global int *out, local char *a, local double *b, int n, local float4 *c) {
  local int fixed[5];
  size_t i = get_local_id(0);
  size_t l = get_local_size(0);
  if (i < 5) fixed[i] = 1000000 * (int)(i + 1);
  a[i] = (char)(i + 1);
  b[i] = 0.5 * (double)i;
  c[i] = (float4)((float)i, (float)n, 0.0f, 0.0f);
  __nvvm_bar_sync(0); // barrier(CLK_LOCAL_MEM_FENCE) as NVPTX spells it (no libclc here)
  size_t j = l - 1 - i;
  out[get_global_id(0)] = a[j] + 100 * (int)(b[j] * 2.0) + 10000 * (int)c[j].y + fixed[j % 5];
}
