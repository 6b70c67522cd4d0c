import type { PlacedSlot } from '../layout/placement.js';
import type { Bare, SlotBase } from './plan.js';

const placedSlots = new WeakMap<object, object>();

/**
 * `slot` with its where and fill. A slot its target shares between kernels (hidden and setup
 * slots, made once per lowering) is placed once, so the kernels still share one object (the JSON
 * emitter renders each shared slot once); `shared` says the fill depends on the slot alone.
 */
export function withPlacement<S extends SlotBase>(slot: Bare<S>, placed: () => PlacedSlot, shared: boolean): S {
  if (!shared) return { ...slot, ...placed() } as unknown as S;
  let s = placedSlots.get(slot) as S | undefined;
  if (!s) placedSlots.set(slot, (s = { ...slot, ...placed() } as unknown as S));
  return s;
}
