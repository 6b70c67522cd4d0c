import type { Parameter } from '../model/kernel-module.js';
import type { SlotRole } from './plan.js';

/** What a host fills a derived argument with: which logical argument and which part of it. */
export interface HostRule {
  readonly arg: string;
  readonly take: 'data' | 'shape' | 'stride' | 'offset' | 'value';
  readonly dim?: number;
  /** A group: a table with one entry per member. */
  readonly perMember?: boolean;
}

/**
 * The source parameter, role and host rule of a slot. For calling conventions that derive
 * arguments (tinytc), the source parameter is the logical argument they come from.
 */
export function originFields(p: Parameter, role: SlotRole): { param: number; role: SlotRole; dim?: number; host?: HostRule } {
  const o = p.origin;
  if (!o) return { param: p.index, role };
  const derivedRole: SlotRole = o.role === 'data' ? role : o.role;
  return {
    param: o.argIndex,
    role: derivedRole,
    ...(o.dim !== undefined ? { dim: o.dim } : {}),
    host: { arg: o.arg, take: o.role, ...(o.dim !== undefined ? { dim: o.dim } : {}), ...(o.perMember ? { perMember: true } : {}) },
  };
}
