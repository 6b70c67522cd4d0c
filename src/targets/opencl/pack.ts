import type { OpenCLPlan } from '../../abi/plan.js';
import type { PackOptions } from '../../runtime/pack/launch.js';
import { type PackLayout, packLayout } from '../../runtime/pack/placement.js';
import { type ArgListPacker, argListPacker } from '../../runtime/pack/views.js';

const NO_BLOCKS = { segment: 0, pushConstants: 0 };

/** A kernel's clSetKernelArg list as the packer reads it (its slots' where and fill). */
export function openclArgList(plan: OpenCLPlan, kernel: string): PackLayout {
  return packLayout(plan, kernel, () => NO_BLOCKS);
}

export function openclPacker(plan: OpenCLPlan, kernel: string, options: PackOptions = {}): ArgListPacker {
  return argListPacker(openclArgList(plan, kernel), options);
}
