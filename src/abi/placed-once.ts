import type { PlacedSlot } from '../layout/placement.js';
import type { Bare, SlotBase } from './plan.js';

/**
 * `slot` with its where and fill written onto it: the slot is the one its lowering (or readPlan)
 * just built, so the two fields are added in place (plain property writes: on Node 20's V8 a copy
 * by object spread costs a few microseconds per slot, more than the rest of a slot's lowering).
 * A slot its target shares between kernels (hidden and setup slots, made once per lowering;
 * `shared` says the fill depends on the slot alone) is placed the first time only, so the kernels
 * still share one object (the JSON emitter renders each shared slot once). A slot whose fill
 * depends on its kernel must not be shared between kernels.
 */
/** Whether a slot carries its where and fill already (a shared slot another kernel placed). */
export const isPlaced = (slot: object): boolean => (slot as { where?: unknown }).where !== undefined;

export function withPlacement<S extends SlotBase>(slot: Bare<S>, placed: () => PlacedSlot, shared: boolean): S {
  const s = slot as { where?: PlacedSlot['where']; fill?: PlacedSlot['fill'] };
  if (shared && isPlaced(slot)) return slot as unknown as S;
  const p = placed();
  s.where = p.where;
  s.fill = p.fill;
  return slot as unknown as S;
}
