// The keys a plan's JSON form holds on each kind of slot, read from the writer's own declaration
// (emit/json-key-order.ts): the reader refuses any other, so that a slot cannot carry a key the
// writer would drop (r600's `image` on a slot with a param was one, found by the plan-json fuzz target).
import { JSON_KEY_ORDER, type JsonKeyOrder, type PlanKind } from '../emit/json-key-order.js';
import { PlanError } from '../abi/plan-schema.js';

/**
 * The kinds of slot the JSON writer tells apart: a source parameter's (`param` a number), or one without
 * (`param: null`: setup, hidden, implicit), which amd-cl2 and r600 write with keys of their own.
 */
export type SlotKind = 'param' | 'implicit';

export const slotKindOf = (slot: { readonly param: unknown }): SlotKind => (slot.param === null ? 'implicit' : 'param');

/** Where the writer's declaration lists each kind of slot's keys. */
const WRITTEN_SLOT_KEYS = {
  param: 'slot',
  implicit: 'implicitSlot',
} as const satisfies Record<SlotKind, keyof JsonKeyOrder>;

/** Words for each kind of slot, for the reader's messages. */
const SLOT_KIND_WORDS = {
  param: 'a slot with a param',
  implicit: 'a slot without a param (param: null)',
} as const satisfies Record<SlotKind, string>;

/** The keys the writer writes on a slot of `kind` in a plan of `target`, in its order. */
export function writtenSlotKeys(target: PlanKind, kind: SlotKind): readonly string[] {
  return JSON_KEY_ORDER[target][WRITTEN_SLOT_KEYS[kind]];
}

/** The key lists as sets, made once per plan kind and slot kind. */
const sets = new Map<readonly string[], ReadonlySet<string>>();
const setOf = (keys: readonly string[]) => sets.get(keys) ?? sets.set(keys, new Set(keys)).get(keys)!;

/**
 * Refuses a slot key the writer does not write for that kind of slot, naming its JSON path. `kernels` is the JSON
 * form's `kernels`, already read by the target's schema (so kernels, slots and params have their shapes).
 */
export function checkSlotKeys(target: PlanKind, kernels: readonly { readonly args: readonly object[] }[]): void {
  for (let ki = 0; ki < kernels.length; ki++) {
    const args = kernels[ki].args;
    for (let ai = 0; ai < args.length; ai++) {
      const slot = args[ai] as { readonly param: unknown };
      const kind = slotKindOf(slot);
      const keys = writtenSlotKeys(target, kind);
      const allowed = setOf(keys);
      for (const k of Object.keys(slot))
        if (!allowed.has(k))
          throw new PlanError(
            `kernels[${ki}].args[${ai}].${k}`,
            `${target} writes no '${k}' on ${SLOT_KIND_WORDS[kind]} (its keys: ${keys.join(', ')})`,
          );
    }
  }
}
