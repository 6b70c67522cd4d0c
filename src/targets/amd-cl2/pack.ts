import { amdCl2ByAddress } from './by-address.js';
import type { AmdCl2Plan, AmdCl2Slot } from '../../abi/plan.js';
import { type PackOptions, kernelOf } from '../../runtime/pack/launch.js';
import type { Overflow, PackLayout, SlotFill } from '../../runtime/pack/placement.js';
import { type SegmentPacker, segmentPacker } from '../../runtime/pack/views.js';


function fillOf(a: AmdCl2Slot, bytes: 4 | 8): SlotFill {
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
export function amdCl2Segment(plan: AmdCl2Plan, kernel: string): PackLayout {
  const k = kernelOf(plan, kernel);
  const bytes = plan.bits === 64 ? 8 : 4;
  return { kernel, segmentSize: k.kernargSize, pushConstantSize: 0, names: k.args.filter((a) => a.param !== null).map((a) => a.name), slots: k.args.map((a) => ({ where: { kind: 'segment', offset: a.offset, size: a.size }, fill: fillOf(a, bytes) })) };
}

export function amdCl2Packer(plan: AmdCl2Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(amdCl2Segment(plan, kernel), options);
}
