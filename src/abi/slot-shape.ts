// How slots are built, and why in this form (the one place that says so; the lowerings follow it
// without repeating it).
//
// Meaning: a lowering builds each slot, then its target's placement attaches `where` and `fill`
// (readPlan does the same for a plan read back from JSON). A slot its target shares between the
// kernels of one lowering (amdhsa's hidden slots, amd-cl2's setup slots: their fill depends on the
// slot alone) is placed by the first kernel that has it, so the kernels keep sharing one object and
// the JSON emitter renders it once. A slot whose fill depends on its kernel is never shared.
//
// Tuning, for Node 20's V8 (plans have a slot per argument, and files of thousands of kernels are
// lowered in the benches): every slot of a target whose placement writes onto the slot (placeSlot) is
// made by ONE factory (`amdhsaSlot`, `amdCl2Slot`, `vulkanSlot`, `cudaSlot`, in each target's
// slot.ts), whose one object literal holds every key
// the slot will ever have, in one order, `where: undefined` and `fill: undefined` included. So all of
// a target's slots share one hidden class that never changes: placement writes the two fields in
// place, and the code that reads slots sees one shape per target. The factories are the only place
// that spells the placeholders; lowerings pass their fields and never build a slot literal. Every
// property added to an object after its literal, or after an object spread, takes V8's slow path
// (about a microsecond each, more than the rest of a slot's lowering), and copying a slot into a
// placed one by spread costs a few microseconds. The JSON form does not depend on any of this: the
// emitter's key orders are declared in src/emit/json-key-order.ts.
import type { SlotFill, SlotWhere } from '../layout/placement.js';
import type { Bare, SlotBase } from './plan.js';

/**
 * A slot before placement: its lowering's fields, read-only, and `where` and `fill`, the two fields
 * placement writes. A lowering's literal carries them as `undefined` (see above); a slot read back
 * from JSON has neither key.
 */
export type UnplacedSlot<S extends SlotBase> = Bare<S> & { where?: SlotWhere; fill?: SlotFill };

/** A slot as its target's factory makes it: every key it will have, `where` and `fill` undefined until placement. */
export type SlotLiteral<S extends SlotBase> = Bare<S> & { where: undefined; fill: undefined };

/**
 * What a lowering passes its target's slot factory: the slot's own fields. The factories hold `dim` and `host` right
 * after `role`, where withOriginDetail (src/abi/origin.ts) writes them for a slot derived from a logical argument.
 */
export type SlotFields<S extends SlotBase> = Bare<S>;

/** `slot`, placed: `where` and `fill` written onto it, the slot returned as its target's placed type. */
export function placeSlot<S extends SlotBase>(slot: UnplacedSlot<S>, where: SlotWhere, fill: SlotFill): S {
  slot.where = where;
  slot.fill = fill;
  return slot as S;
}

/** Whether a slot carries its where and fill already (a shared slot another kernel placed). */
export const isPlaced = <S extends SlotBase>(slot: UnplacedSlot<S>): boolean => slot.where !== undefined;
