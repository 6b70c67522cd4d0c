import type { PlacedSlot } from '../layout/placement.js';
import type { Bare, SlotBase } from './plan.js';

/**
 * `slot` with its where and fill written onto it: the slot is the one its lowering (or readPlan)
 * just built, so the two fields are added in place (plain property writes: on Node 20's V8 a copy
 * by object spread costs a few microseconds per slot, more than the rest of a slot's lowering).
 * A slot its target shares between kernels (hidden and setup slots, made once per lowering; its
 * fill depends on the slot alone) is placed by the first kernel only: callers skip a shared slot
 * that `isPlaced` already, so the kernels still share one object (the JSON emitter renders each
 * shared slot once). A slot whose fill depends on its kernel must not be shared between kernels.
 */
export function placeSlot<S extends SlotBase>(slot: Bare<S>, where: PlacedSlot['where'], fill: PlacedSlot['fill']): S {
  const s = slot as { where?: PlacedSlot['where']; fill?: PlacedSlot['fill'] };
  s.where = where;
  s.fill = fill;
  return slot as unknown as S;
}

/** Whether a slot carries its where and fill already (a shared slot another kernel placed). */
export const isPlaced = (slot: object): boolean => (slot as { where?: unknown }).where !== undefined;
