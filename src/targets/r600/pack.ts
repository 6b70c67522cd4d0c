import { type PackOptions, kernelOf } from '../../runtime/pack/launch.js';
import type { PackLayout, PlacedSlot, SlotFill } from '../../runtime/pack/placement.js';
import { type SegmentPacker, segmentPacker } from '../../runtime/pack/views.js';
import type { R600Plan, R600Slot } from './lower.js';

/** One input-buffer slot as the packer reads it; the implicit grid_offset is three words, one per axis. */
function slotsOf(a: R600Slot): PlacedSlot[] {
  const at = (fill: SlotFill, offset = a.offset, size = a.size): PlacedSlot => ({ where: { kind: 'segment', offset, size }, fill });
  if (a.role === 'image-size') return [at({ kind: 'image-size', image: a.image! })];
  if (a.role === 'image-format') return [at({ kind: 'image-format', image: a.image! })];
  if (a.param === null && a.name === 'grid_dimension') return [at({ kind: 'geometry', field: 'grid-dims', axis: 0, bytes: 4 })];
  if (a.param === null && a.name === 'grid_offset') return ([0, 1, 2] as const).map((axis) => at({ kind: 'geometry', field: 'global-offset', axis, bytes: 4 }, a.offset + 4 * axis, 4));
  if (a.role === 'image') return [at({ kind: 'image-address', image: a.name })];
  if (a.layout) return [at({ kind: 'value', param: a.name, layout: a.layout })];
  return [at({ kind: 'address', param: a.name, bytes: 4, overflow: { path: a.name, text: "does not fit r600's 32-bit pointers" } })];
}

/** A kernel's input buffer as the packer reads it. */
export function r600Segment(plan: R600Plan, kernel: string): PackLayout {
  const k = kernelOf(plan, kernel);
  const names = k.args.filter((a) => a.param !== null && a.role !== 'image-size' && a.role !== 'image-format').map((a) => a.name);
  return { kernel, segmentSize: k.inputSize, pushConstantSize: 0, names, slots: k.args.flatMap(slotsOf) };
}

export function r600Packer(plan: R600Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(r600Segment(plan, kernel), options);
}
