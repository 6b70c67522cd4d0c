// Local (shared-memory) pointer arguments on the CUDA host: every `local` block of a launch lives in
// the launch's dynamic shared memory (cuLaunchKernel's sharedMemBytes), one after another in
// argument order, each at its pointee's alignment, and each local parameter receives its block's
// place. What it receives depends on who compiled the kernel (the plan's localMemory):
// - `pocl`: pocl's CUDA driver (pocl-cuda.c, the submit path) packs the blocks from offset 0, each
//   padded to its argument's alignment, passes each block's offset as a 32-bit integer, and the kernel
//   adds the address of its one extern shared array (pocl-ptx-gen rewrote local pointers so);
// - `nvidia`: NVIDIA's OpenCL and clang's nvcl convention declare `.ptr .shared` parameters, which
//   the kernel dereferences as shared-window addresses: the host passes the dynamic area's own
//   address in the window (where it starts after the kernel's static shared memory) plus the offset.
// Pure functions of the plan and the sizes: CI checks the images; the GPU check launches them.
import { alignTo } from '../../layout/align.js';
import type { CudaKernelPlan, CudaLocalMemory } from '../../targets/cuda/plan.js';
import { PackError } from '../../pack/errors.js';

/**
 * Where a launch's local blocks go: per local parameter (in `dynamicShared` order), the value it receives; and the
 * bytes to ask for.
 */
export interface SharedLayout {
  readonly values: number[];
  readonly sharedMemBytes: number;
}

/**
 * The alignment of the dynamic shared area after a kernel's static shared memory (nvcc declares `extern __shared__`
 * arrays `.align 16` and the driver starts the area so).
 */
export const DYNAMIC_SHARED_ALIGN = 16;

/**
 * The blocks of one launch: `sizes[i]` bytes for the i-th name of `k.dynamicShared`; `window` the
 * shared-window address of the dynamic area (nvidia only; pocl's offsets count from the area).
 */
export function sharedLayout(
  k: CudaKernelPlan,
  local: CudaLocalMemory,
  sizes: readonly number[],
  window: number,
  out?: SharedLayout,
): SharedLayout {
  const values = out?.values ?? new Array<number>(k.dynamicShared.length);
  let end = 0;
  for (let i = 0; i < k.dynamicShared.length; i++) {
    const name = k.dynamicShared[i];
    const size = sizes[i];
    if (!Number.isSafeInteger(size) || size <= 0)
      throw new PackError(
        k.name,
        name,
        `a local argument takes {local: <bytes>}, a positive whole number of bytes, not ${String(size)}`,
      );
    const slot = k.args.find((a) => a.name === name);
    const align = slot?.pointeeAlign ?? 1;
    const at = alignTo(end, align);
    values[i] = local === 'pocl' ? at : window + at;
    end = at + size;
  }
  return { values, sharedMemBytes: end };
}

/** Where a kernel's dynamic shared area starts in the shared window: after its static shared memory, aligned. */
export function dynamicSharedWindow(windowStart: number, staticBytes: number): number {
  return windowStart + alignTo(staticBytes, DYNAMIC_SHARED_ALIGN);
}
