// A cuda plan placed again for another architecture: the same parameters, in the same order, with
// the offsets that GPU's driver gives them (param-base.ts), or with the offsets a driver reported
// (cuFuncGetParamInfo) for a GPU the fact table does not list. The CUDA host uses it so a plan made
// for one GPU launches on another without being lowered again.
import type { SlotLiteral } from '../../abi/slot-shape.js';
import { cudaSlot } from './slot.js';
import type { CudaKernelPlan, CudaPlan, CudaSlot, CudaSm } from './plan.js';
import { cudaParamBase, paramOffset } from './param-base.js';
import { placeCudaKernel } from './placement.js';

function unplaced(a: CudaSlot, offset: number): SlotLiteral<CudaSlot> {
  return cudaSlot({ ...a, offset });
}

/** The plan as the driver of `sm` places it (the plan itself where that GPU's base gives the same offsets). */
export function cudaPlanForSm(plan: CudaPlan, sm: CudaSm): CudaPlan {
  if (plan.sm === sm) return plan;
  if (cudaParamBase(plan.sm) === cudaParamBase(sm)) return { ...plan, sm };
  const kernels = plan.kernels.map((k): CudaKernelPlan => {
    let end = 0;
    const args = k.args.map((a) => {
      const at = paramOffset(end, a.align, sm);
      end = at + a.size;
      return unplaced(a, at);
    });
    return placeCudaKernel({ ...k, args, paramBytes: end }, plan.localMemory);
  });
  return { ...plan, sm, kernels };
}

/** One kernel with the offsets a driver reported, parameter by parameter (the caller checked the count and sizes). */
export function cudaKernelWithOffsets(
  k: CudaKernelPlan,
  offsets: readonly number[],
  local: CudaPlan['localMemory'],
): CudaKernelPlan {
  const args = k.args.map((a, i) => unplaced(a, offsets[i]));
  const paramBytes = args.reduce((m, a) => Math.max(m, a.offset + a.size), 0);
  return placeCudaKernel({ ...k, args, paramBytes }, local);
}
