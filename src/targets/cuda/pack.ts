import type { PackOptions } from '../../runtime/pack/launch.js';
import { type PackLayout, packLayout } from '../../runtime/pack/placement.js';
import { type SegmentPacker, segmentPacker } from '../../runtime/pack/views.js';
import type { CudaPlan } from './plan.js';

/** A kernel's packed parameter buffer (CU_LAUNCH_PARAM_BUFFER_POINTER) as the packer reads it. */
export function cudaParamBuffer(plan: CudaPlan, kernel: string): PackLayout {
  return packLayout(plan, kernel, (k) => ({ segment: k.paramBytes, pushConstants: 0 }));
}

export function cudaPacker(plan: CudaPlan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(cudaParamBuffer(plan, kernel), options);
}
