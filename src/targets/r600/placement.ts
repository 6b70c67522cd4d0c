// Where each input-buffer slot lives (its segment bytes) and how it is filled: clover's implicit
// grid words from the launch, image properties from the image, the rest from the caller. Attached
// by the lowering and by readPlan.
import type { Bare } from '../../abi/plan.js';
import type { SlotFill } from '../../layout/placement.js';
import { isPlaced, placeSlot } from '../../abi/slot-shape.js';
import type { R600KernelPlan, R600Slot } from './plan.js';

function fillOf(a: Bare<R600Slot>): SlotFill {
  if (a.role === 'image-size') return { kind: 'image-size', image: a.image! };
  if (a.role === 'image-format') return { kind: 'image-format', image: a.image! };
  if (a.param === null && a.name === 'grid_dimension')
    return { kind: 'geometry', field: 'grid-dims', axis: 0, bytes: 4 };
  // The implicit grid_offset is three words, one per axis.
  if (a.param === null && a.name === 'grid_offset')
    return { kind: 'geometry', field: 'global-offset', axis: 0, axes: 3, bytes: 4 };
  if (a.role === 'image') return { kind: 'image-address', image: a.name };
  if (a.layout) return { kind: 'value', param: a.name, layout: a.layout };
  return {
    kind: 'address',
    param: a.name,
    bytes: 4,
    overflow: { path: a.name, text: "does not fit r600's 32-bit pointers" },
  };
}

/** A kernel whose slots carry their `where` and `fill`. */
export function placeR600Kernel<K extends Omit<R600KernelPlan, 'args'> & { readonly args: readonly Bare<R600Slot>[] }>(
  k: K,
): K & R600KernelPlan {
  for (const a of k.args) {
    if (a.param === null && isPlaced(a)) continue;
    placeSlot<R600Slot>(a, { kind: 'segment', offset: a.offset, size: a.size }, fillOf(a));
  }
  return k as K & R600KernelPlan;
}
