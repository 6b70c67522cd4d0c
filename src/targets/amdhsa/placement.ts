// Where each kernarg slot lives (its segment bytes) and how clang's value kinds are filled:
// explicit arguments from the caller, hidden ones from the launch. Attached by the lowering and by readPlan.
import type { AmdhsaKernelPlan, AmdhsaSlot, Bare } from '../../abi/plan.js';
import type { GeometryField, SlotFill } from '../../layout/placement.js';
import { isPlaced, placeSlot } from '../../abi/placed-once.js';

/** The launch-geometry field behind each hidden value kind that has one. */
const GEOMETRY: readonly [string, GeometryField, 2 | 4 | 8][] = [
  ['hidden_global_offset', 'global-offset', 8], ['hidden_block_count', 'block-count', 4], ['hidden_group_size', 'group-size', 2], ['hidden_remainder', 'remainder', 2],
];

/** `localNames`: the kernel's local arguments (asked for only by hidden_dynamic_lds_size). */
function fillOf(a: Bare<AmdhsaSlot>, localNames: () => readonly string[]): SlotFill {
  const kind = a.valueKind;
  if (a.param !== null) {
    if (kind === 'by_value' && a.layout) return { kind: 'value', param: a.name, layout: a.layout };
    if (kind === 'dynamic_shared_pointer') return { kind: 'lds-offset', param: a.name };
    return { kind: 'address', param: a.name, bytes: 8 };
  }
  const axis = ({ x: 0, y: 1, z: 2 } as const)[kind.slice(-1) as 'x'] ?? 0;
  for (const [prefix, field, bytes] of GEOMETRY) if (kind.startsWith(prefix)) return { kind: 'geometry', field, axis, bytes };
  if (kind === 'hidden_grid_dims') return { kind: 'geometry', field: 'grid-dims', axis: 0, bytes: 2 };
  if (kind === 'hidden_dynamic_lds_size') return { kind: 'lds-size', params: localNames() };
  if (kind === 'hidden_none') return { kind: 'zero' };
  return { kind: 'hidden', key: kind, bytes: 8 };
}

/**
 * A kernel whose slots carry their `where` and `fill`, written onto them in place (plain writes,
 * no closure per slot). Hidden slots are shared by the kernels of a lowering with the same hidden
 * facts and local argument names (what hidden_dynamic_lds_size's fill names): placed once, by the
 * first kernel that has them.
 */
export function placeAmdhsaKernel<K extends Omit<AmdhsaKernelPlan, 'args'> & { readonly args: readonly Bare<AmdhsaSlot>[] }>(k: K): K & AmdhsaKernelPlan {
  const locals = () => k.args.filter((a) => a.param !== null && a.valueKind === 'dynamic_shared_pointer').map((a) => a.name);
  for (const a of k.args) {
    if (a.param === null && isPlaced(a)) continue;
    placeSlot<AmdhsaSlot>(a, { kind: 'segment', offset: a.offset, size: a.size }, fillOf(a, locals));
  }
  return k as K & AmdhsaKernelPlan;
}
