import { type PackOptions, kernelOf } from '../../runtime/pack/launch.js';
import type { SegmentLayout, SegmentPacker, SegmentSlot } from '../../runtime/pack/segment.js';
import { segmentPacker } from '../../runtime/pack/segment.js';
import type { R600Plan, R600Slot } from './lower.js';

/** One input-buffer slot as the packer reads it; the implicit grid_offset is three words, one per axis. */
function slotsOf(a: R600Slot): SegmentSlot[] {
  const o = a.offset;
  if (a.role === 'image-size') return [{ offset: o, fill: { kind: 'image-size', image: a.image! } }];
  if (a.role === 'image-format') return [{ offset: o, fill: { kind: 'image-format', image: a.image! } }];
  if (a.param === null && a.name === 'grid_dimension') return [{ offset: o, fill: { kind: 'geometry', field: 'grid-dims', axis: 0, bytes: 4 } }];
  if (a.param === null && a.name === 'grid_offset') return ([0, 1, 2] as const).map((axis) => ({ offset: o + 4 * axis, fill: { kind: 'geometry', field: 'global-offset', axis, bytes: 4 } }));
  if (a.role === 'image') return [{ offset: o, fill: { kind: 'image-address', image: a.name } }];
  if (a.layout) return [{ offset: o, fill: { kind: 'value', param: a.name, layout: a.layout } }];
  return [{ offset: o, fill: { kind: 'address', param: a.name, bytes: 4, overflow: { path: a.name, text: "does not fit r600's 32-bit pointers" } } }];
}

/** A kernel's input buffer as the packer reads it. */
export function r600Segment(plan: R600Plan, kernel: string): SegmentLayout {
  const k = kernelOf(plan, kernel);
  const names = k.args.filter((a) => a.param !== null && a.role !== 'image-size' && a.role !== 'image-format').map((a) => a.name);
  return { kernel, size: k.inputSize, names, slots: k.args.flatMap(slotsOf) };
}

export function r600Packer(plan: R600Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(r600Segment(plan, kernel), options);
}
