import type { Parameter } from '../model/kernel-module.js';
import type { HostRule, SlotRole } from './plan.js';

export type { HostRule };

/** The origin fields a slot carries, writable while the slot is built. */
export interface OriginDraft {
  param: number | null;
  role: SlotRole;
  dim?: number;
  host?: HostRule;
}

/** A slot under construction: every field writable (plans are read-only once built). */
export type Draft<T> = { -readonly [K in keyof T]: T[K] };

const hostRules = new WeakMap<object, HostRule>();

/** The host rule of a derived parameter, one object per origin (plans share it; it is read-only). */
function hostRule(o: NonNullable<Parameter['origin']>): HostRule {
  let h = hostRules.get(o);
  if (!h) {
    const rule: Draft<HostRule> = { arg: o.arg, take: o.role };
    if (o.dim !== undefined) rule.dim = o.dim;
    if (o.perMember) rule.perMember = true;
    hostRules.set(o, (h = rule));
  }
  return h;
}

/**
 * Writes the source parameter, role and host rule of a slot onto the slot being built: `param`
 * (in place when the slot already has the key), then `role`, then `dim` and `host` for calling
 * conventions that derive arguments (tinytc), where the source parameter is the logical argument
 * they come from. Plain property writes, no object spread (src/abi/slot-shape.ts says why).
 */
export function setOrigin(slot: OriginDraft, p: Parameter, role: SlotRole): void {
  slot.param = originParam(p);
  slot.role = originRole(p, role);
  const o = p.origin;
  if (!o) return;
  if (o.dim !== undefined) slot.dim = o.dim;
  slot.host = hostRule(o);
}

/**
 * The `param` a slot of this parameter carries: the logical argument's index for derived parameters (as `setOrigin`
 * writes it).
 */
export function originParam(p: Parameter): number {
  return p.origin ? p.origin.argIndex : p.index;
}

/** The `role` a slot of this parameter carries, `role` being its own (as `setOrigin` writes it). */
export function originRole(p: Parameter, role: SlotRole): SlotRole {
  const o = p.origin;
  return o && o.role !== 'data' ? o.role : role;
}

/**
 * A slot a lowering built as one object literal (param and role from `originParam` and
 * `originRole`; src/abi/slot-shape.ts says why one literal) with what `setOrigin` would add: for a
 * derived parameter (tinytc), a copy with `dim` and `host` right after `role`, in setOrigin's order.
 * Other parameters' slots are returned as they are.
 */
export function withOriginDetail<S extends object>(slot: S, p: Parameter): S {
  const o = p.origin;
  if (!o) return slot;
  const src = slot as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k in src) {
    out[k] = src[k];
    if (k !== 'role') continue;
    if (o.dim !== undefined) out.dim = o.dim;
    out.host = hostRule(o);
  }
  return out as S;
}
