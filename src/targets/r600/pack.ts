import type { PackOptions } from '../../runtime/pack/launch.js';
import { type PackLayout, packLayout } from '../../runtime/pack/placement.js';
import { type SegmentPacker, segmentPacker } from '../../runtime/pack/views.js';
import type { R600Plan } from './lower.js';

/** A kernel's input buffer as the packer reads it (its slots' where and fill). */
export function r600Segment(plan: R600Plan, kernel: string): PackLayout {
  return packLayout(plan, kernel, (k) => ({ segment: k.inputSize, pushConstants: 0 }));
}

export function r600Packer(plan: R600Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(r600Segment(plan, kernel), options);
}
