import type { Parameter } from '../model/kernel-module.js';
import type { HostRule, SlotRole } from './plan.js';

export type { HostRule };

/** A slot under construction: every field writable (plans are read-only once built). */
export type Draft<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The host rule of a derived parameter: a fresh object per slot. (A WeakMap from each origin to one shared rule cost
 * more than the rest of a slot's lowering at tinytc's tens of thousands of derived parameters, issue 32: each entry
 * is an ephemeron every collection walks.)
 */
function hostRule(o: NonNullable<Parameter['origin']>): HostRule {
  if (o.perMember)
    return o.dim === undefined
      ? { arg: o.arg, take: o.role, perMember: true }
      : { arg: o.arg, take: o.role, dim: o.dim, perMember: true };
  return o.dim === undefined ? { arg: o.arg, take: o.role } : { arg: o.arg, take: o.role, dim: o.dim };
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
 * src/abi/slot-shape.ts says why) with its origin's detail: for a derived parameter (tinytc), `dim`
 * (where the origin has one) and `host` right after `role`. A factory's slot holds both keys there
 * already (undefined): they are written in place, its hidden class kept; any other slot is copied
 * with them inserted. Other parameters' slots are returned as they are.
 */
export function withOriginDetail<S extends object>(slot: S, p: Parameter): S {
  const o = p.origin;
  if (!o) return slot;
  const src = slot as Record<string, unknown>;
  if (Object.hasOwn(src, 'host')) {
    src.dim = o.dim;
    src.host = hostRule(o);
    return slot;
  }
  const out: Record<string, unknown> = {};
  for (const k in src) {
    if (k === 'dim') continue;
    out[k] = src[k];
    if (k !== 'role') continue;
    if (o.dim !== undefined) out.dim = o.dim;
    out.host = hostRule(o);
  }
  return out as S;
}
