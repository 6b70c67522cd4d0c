import type { AmdhsaPlan } from '../../abi/plan.js';
import type { PackOptions } from '../../runtime/pack/launch.js';
import { type PackLayout, packLayout } from '../../runtime/pack/placement.js';
import { type SegmentPacker, segmentPacker } from '../../runtime/pack/views.js';

/** A kernel's kernarg segment as the packer reads it (its slots' where and fill). */
export function amdhsaSegment(plan: AmdhsaPlan, kernel: string): PackLayout {
  return packLayout(plan, kernel, (k) => ({ segment: k.kernargSegmentSize, pushConstants: 0 }));
}

export function amdhsaPacker(plan: AmdhsaPlan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(amdhsaSegment(plan, kernel), options);
}
