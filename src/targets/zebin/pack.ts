import type { PackOptions } from '../../runtime/pack/launch.js';
import { type PackLayout, packLayout } from '../../runtime/pack/placement.js';
import { type SegmentPacker, segmentPacker } from '../../runtime/pack/views.js';
import type { ZebinPlan } from './plan.js';

/** A kernel's cross-thread payload as the packer reads it (binding-table entries are the driver's, not bytes here). */
export function zebinPayload(plan: ZebinPlan, kernel: string): PackLayout {
  return packLayout(plan, kernel, (k) => ({ segment: k.payloadSize, pushConstants: 0 }));
}

export function zebinPacker(plan: ZebinPlan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(zebinPayload(plan, kernel), options);
}
