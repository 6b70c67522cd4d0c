import type { Parameter } from '../model/kernel-module.js';
import type { HostRule, SlotRole } from './plan.js';

export type { HostRule };

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
 * The `param` a slot of this parameter carries: for a parameter a calling convention derives (tinytc), the index of
 * the logical argument it comes from.
 */
export function originParam(p: Parameter): number {
  return p.origin ? p.origin.argIndex : p.index;
}

/** The `role` a slot of this parameter carries, `role` being its own: a derived parameter's role wins over `data`. */
export function originRole(p: Parameter, role: SlotRole): SlotRole {
  const o = p.origin;
  return o && o.role !== 'data' ? o.role : role;
}

/**
 * A slot a lowering built in one piece (param and role from `originParam` and `originRole`;
 * src/abi/slot-shape.ts says why) with its origin's detail: for a derived parameter (tinytc), a copy
 * with `dim` (where the origin has one) and `host` right after `role`. Other parameters' slots are
 * returned as they are.
 */
export function withOriginDetail<S extends object>(slot: S, p: Parameter): S {
  const o = p.origin;
  if (!o) return slot;
  const src = slot as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k in src) {
    // A factory's slot holds `dim` and `host` (undefined) after `role`: they are written there, below.
    if (k === 'dim' || k === 'host') continue;
    out[k] = src[k];
    if (k !== 'role') continue;
    if (o.dim !== undefined) out.dim = o.dim;
    out.host = hostRule(o);
  }
  return out as S;
}
