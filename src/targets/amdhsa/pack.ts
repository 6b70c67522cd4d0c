import type { AmdhsaPlan, AmdhsaSlot } from '../../abi/plan.js';
import { type PackOptions, kernelOf } from '../../runtime/pack/launch.js';
import type { GeometryField, PackLayout, SlotFill } from '../../runtime/pack/placement.js';
import { type SegmentPacker, segmentPacker } from '../../runtime/pack/views.js';

/** The launch-geometry field behind each hidden value kind that has one. */
const GEOMETRY: readonly [string, GeometryField, 2 | 4 | 8][] = [
  ['hidden_global_offset', 'global-offset', 8], ['hidden_block_count', 'block-count', 4], ['hidden_group_size', 'group-size', 2], ['hidden_remainder', 'remainder', 2],
];

/** How clang's value kinds are filled: explicit arguments from the caller, hidden ones from the launch. */
function fillOf(a: AmdhsaSlot, localNames: readonly string[]): SlotFill {
  const kind = a.valueKind;
  if (a.param !== null) {
    if (kind === 'by_value' && a.layout) return { kind: 'value', param: a.name, layout: a.layout };
    if (kind === 'dynamic_shared_pointer') return { kind: 'lds-offset', param: a.name };
    return { kind: 'address', param: a.name, bytes: 8 };
  }
  const axis = ({ x: 0, y: 1, z: 2 } as const)[kind.slice(-1) as 'x'] ?? 0;
  for (const [prefix, field, bytes] of GEOMETRY) if (kind.startsWith(prefix)) return { kind: 'geometry', field, axis, bytes };
  if (kind === 'hidden_grid_dims') return { kind: 'geometry', field: 'grid-dims', axis: 0, bytes: 2 };
  if (kind === 'hidden_dynamic_lds_size') return { kind: 'lds-size', params: localNames };
  if (kind === 'hidden_none') return { kind: 'zero' };
  return { kind: 'hidden', key: kind, bytes: 8 };
}

/** A kernel's kernarg segment as the packer reads it. */
export function amdhsaSegment(plan: AmdhsaPlan, kernel: string): PackLayout {
  const k = kernelOf(plan, kernel);
  const explicit = k.args.filter((a) => a.param !== null);
  const locals = explicit.filter((a) => a.valueKind === 'dynamic_shared_pointer').map((a) => a.name);
  return { kernel, segmentSize: k.kernargSegmentSize, pushConstantSize: 0, names: explicit.map((a) => a.name), slots: k.args.map((a) => ({ where: { kind: 'segment', offset: a.offset, size: a.size }, fill: fillOf(a, locals) })) };
}

export function amdhsaPacker(plan: AmdhsaPlan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(amdhsaSegment(plan, kernel), options);
}
