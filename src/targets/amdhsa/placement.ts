// Where each kernarg slot lives (its segment bytes) and how clang's value kinds are filled:
// explicit arguments from the caller, hidden ones from the launch. Attached by the lowering and by readPlan.
import type { AmdhsaKernelPlan, AmdhsaSlot, Bare } from '../../abi/plan.js';
import type { SlotFill } from '../../layout/placement.js';
import { assertNever } from '../../assert-never.js';
import { HIDDEN_ARGS, isHiddenKind } from './hidden-args.js';
import { isPlaced, placeSlot } from '../../abi/slot-shape.js';

/** `localNames`: the kernel's local arguments (asked for only by hidden_dynamic_lds_size). */
function fillOf(a: Bare<AmdhsaSlot>, localNames: () => readonly string[]): SlotFill {
  const kind = a.valueKind;
  if (a.param !== null) {
    if (kind === 'by_value' && a.layout) return { kind: 'value', param: a.name, layout: a.layout };
    if (kind === 'dynamic_shared_pointer') return { kind: 'lds-offset', param: a.name };
    return { kind: 'address', param: a.name, bytes: 8 };
  }
  if (!isHiddenKind(kind)) return { kind: 'hidden', key: kind, bytes: 8 };
  const row = HIDDEN_ARGS[kind];
  const fill = row.fill;
  switch (fill.kind) {
    case 'geometry':
      return { kind: 'geometry', field: fill.field, axis: fill.axis, bytes: row.bytes };
    case 'lds-size':
      return { kind: 'lds-size', params: localNames() };
    case 'zero':
      return { kind: 'zero' };
    case 'runtime':
      // Every runtime-supplied hidden argument is a 64-bit pointer or handle.
      return { kind: 'hidden', key: kind, bytes: 8 };
    default:
      return assertNever(fill);
  }
}

/**
 * A kernel whose slots carry their `where` and `fill`, written onto them in place (plain writes,
 * no closure per slot). Hidden slots are shared by the kernels of a lowering with the same hidden
 * facts and local argument names (what hidden_dynamic_lds_size's fill names): placed once, by the
 * first kernel that has them.
 */
export function placeAmdhsaKernel<
  K extends Omit<AmdhsaKernelPlan, 'args'> & { readonly args: readonly Bare<AmdhsaSlot>[] },
>(k: K): K & AmdhsaKernelPlan {
  const locals = () =>
    k.args.filter((a) => a.param !== null && a.valueKind === 'dynamic_shared_pointer').map((a) => a.name);
  for (const a of k.args) {
    if (a.param === null && isPlaced(a)) continue;
    placeSlot<AmdhsaSlot>(a, { kind: 'segment', offset: a.offset, size: a.size }, fillOf(a, locals));
  }
  return k as K & AmdhsaKernelPlan;
}
