// Where this device's driver puts a kernel's parameters: cuFuncGetParamInfo's answers, and the cuda
// plan placed for the device (by the --sm fact table, else by the driver's offsets). The CUDA host
// (host.ts) asks these once per kernel, when it loads one.
import type { CudaPlan } from '../../targets/cuda/plan.js';
import { isCudaSm } from '../../targets/cuda/param-base.js';
import { cudaKernelWithOffsets, cudaPlanForSm } from '../../targets/cuda/place-for-sm.js';
import { RuntimeInputError } from '../../pack/errors.js';
import type { CuHandle, CudaDriver } from './driver.js';
import type { DriverParam } from './launch-images.js';

/**
 * The plan with `name`'s parameters where this device's driver puts them: placed for the device's
 * architecture where the fact table has it; else at the offsets cuFuncGetParamInfo gives (same count
 * and sizes); else as planned where no parameter is aligned above 16 (every base is 16-aligned, so
 * those offsets are the same on every GPU). Refused only where none of the three can say.
 */
export function placedForDevice(
  plan: CudaPlan,
  name: string,
  sm: number,
  driver: readonly DriverParam[] | undefined,
): CudaPlan {
  if (isCudaSm(sm)) return cudaPlanForSm(plan, sm);
  const k = plan.kernels.find((x) => x.name === name)!;
  if (driver && driver.length === k.args.length && driver.every((d, i) => d.size === k.args[i].size)) {
    const placed = cudaKernelWithOffsets(
      k,
      driver.map((d) => d.offset),
      plan.localMemory,
    );
    return { ...plan, kernels: plan.kernels.map((x) => (x === k ? placed : x)) };
  }
  const wide = k.args.find((a) => a.align > 16);
  if (!wide) return plan;
  throw new RuntimeInputError(
    `kernel '${name}': parameter '${wide.name}' is aligned to ${wide.align}, and where this GPU (sm_${sm}) places ` +
      `such parameters is neither in kernarg's table (--sm) nor told by its driver (cuFuncGetParamInfo needs driver ` +
      `12.4 or later)`,
  );
}

/**
 * cuFuncGetParamInfo for every parameter (it answers CUDA_ERROR_INVALID_VALUE past the last), or undefined where the
 * driver lacks it.
 */
export function readParamInfo(cu: CudaDriver, f: CuHandle): DriverParam[] | undefined {
  if (!cu.FuncGetParamInfo) return undefined;
  const offset = new BigUint64Array(1);
  const size = new BigUint64Array(1);
  const out: DriverParam[] = [];
  // CUDA caps parameters at 32,764 bytes, so at most that many one-byte parameters.
  for (let i = 0; i < 32764; i++) {
    if (cu.FuncGetParamInfo(f, i, offset, size) !== 0) break;
    out.push({ offset: Number(offset[0]), size: Number(size[0]) });
  }
  return out;
}
