// Where each argument-buffer slot lives (its segment bytes) and how it is filled: the six setup
// arguments from the launch, the kernel's from the caller. Attached by the lowering and by readPlan.
import { amdCl2ByAddress } from './by-address.js';
import type { AmdCl2KernelPlan, AmdCl2Slot, Bare } from '../../abi/plan.js';
import type { Overflow, SlotFill } from '../../layout/placement.js';
import { isPlaced, placeSlot } from '../../abi/slot-shape.js';

const OVERFLOW_32: Overflow = { path: '(address)', text: 'does not fit 32 bits' };

function fillOf(a: Bare<AmdCl2Slot>, bytes: 4 | 8): SlotFill {
  const overflow: Overflow | undefined = bytes === 4 ? OVERFLOW_32 : undefined;
  if (a.param === null) {
    // The six setup arguments: the global offset per axis, then pointers the runtime supplies.
    if (a.name.startsWith('_.global_offset'))
      return { kind: 'geometry', field: 'global-offset', axis: Number(a.name.slice(-1)) as 0 | 1 | 2, bytes, overflow };
    return { kind: 'hidden', key: a.name, bytes, overflow };
  }
  if (amdCl2ByAddress(a.argType) || !a.layout) return { kind: 'address', param: a.name, bytes, overflow };
  return { kind: 'value', param: a.name, layout: a.layout };
}

/** A kernel whose slots carry their `where` and `fill`; `bits` is the plan's address width. */
export function placeAmdCl2Kernel<
  K extends Omit<AmdCl2KernelPlan, 'args'> & { readonly args: readonly Bare<AmdCl2Slot>[] },
>(k: K, bits: 32 | 64): K & AmdCl2KernelPlan {
  const bytes = bits === 64 ? 8 : 4;
  for (const a of k.args) {
    if (a.param === null && isPlaced(a)) continue;
    placeSlot<AmdCl2Slot>(a, { kind: 'segment', offset: a.offset, size: a.size }, fillOf(a, bytes));
  }
  return k as K & AmdCl2KernelPlan;
}
