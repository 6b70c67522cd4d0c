import { amdCl2ByAddress } from './by-address.js';
import type { AmdCl2Plan, AmdCl2Slot } from '../../abi/plan.js';
import { type PackOptions, kernelOf } from '../../runtime/pack/launch.js';
import { type Overflow, type SegmentFill, type SegmentLayout, type SegmentPacker, segmentPacker } from '../../runtime/pack/segment.js';


function fillOf(a: AmdCl2Slot, bytes: 4 | 8): SegmentFill {
  const overflow: Overflow | undefined = bytes === 4 ? { path: '(address)', text: 'does not fit 32 bits' } : undefined;
  if (a.param === null) {
    // The six setup arguments: the global offset per axis, then pointers the runtime supplies.
    if (a.name.startsWith('_.global_offset')) return { kind: 'geometry', field: 'global-offset', axis: Number(a.name.slice(-1)) as 0 | 1 | 2, bytes, overflow };
    return { kind: 'hidden', key: a.name, bytes, overflow };
  }
  if (amdCl2ByAddress(a.argType) || !a.layout) return { kind: 'address', param: a.name, bytes, overflow };
  return { kind: 'value', param: a.name, layout: a.layout };
}

/** A kernel's argument buffer as the packer reads it. */
export function amdCl2Segment(plan: AmdCl2Plan, kernel: string): SegmentLayout {
  const k = kernelOf(plan, kernel);
  const bytes = plan.bits === 64 ? 8 : 4;
  return { kernel, size: k.kernargSize, names: k.args.filter((a) => a.param !== null).map((a) => a.name), slots: k.args.map((a) => ({ offset: a.offset, fill: fillOf(a, bytes) })) };
}

export function amdCl2Packer(plan: AmdCl2Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(amdCl2Segment(plan, kernel), options);
}
