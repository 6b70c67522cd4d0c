import type { AmdCl2Plan } from '../../abi/plan.js';
import type { PackOptions } from '../../runtime/pack/launch.js';
import { type PackLayout, packLayout } from '../../runtime/pack/placement.js';
import { type SegmentPacker, segmentPacker } from '../../runtime/pack/views.js';

/** A kernel's argument buffer as the packer reads it (its slots' where and fill). */
export function amdCl2Segment(plan: AmdCl2Plan, kernel: string): PackLayout {
  return packLayout(plan, kernel, (k) => ({ segment: k.kernargSize, pushConstants: 0 }));
}

export function amdCl2Packer(plan: AmdCl2Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(amdCl2Segment(plan, kernel), options);
}
