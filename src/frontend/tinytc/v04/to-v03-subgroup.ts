// tinytc v0.4's subgroup reductions and scans and its explicit barrier, as the v0.3 tree's instructions
// (to-v03.ts calls these): `subgroup_<group>_<fn>` splits into its group operation and combination.
import type { Span } from '../../../diagnostics/source.js';
import {
  type Inst,
  type Operand,
  SUBGROUP_COMBINES,
  SUBGROUP_GROUP_OPERATIONS,
  type SubgroupCombine,
  type SubgroupGroupOperation,
  type TypedSpan,
} from '../ast.js';
import { SUBGROUP_OPS } from './instructions.js';
import { NotLowered } from './to-v03-spmd.js';

/**
 * The types kernarg's printers do not reduce over a subgroup: OpenCL C's sub_group_* functions take
 * 32- and 64-bit numbers only (8- and 16-bit integers need cl_khr_subgroup_extended_types), and a
 * bf16 would be computed in float and rounded back, which no printer does for these yet.
 */
const NOT_REDUCED = new Set(['i8', 'i16', 'bf16']);

type SubgroupOperationInst = Omit<Extract<Inst, { op: 'subgroup_operation' }>, 'results' | 'span'>;

export const isSubgroupOperation = (op: string): boolean => (SUBGROUP_OPS as readonly string[]).includes(op);

/** `subgroup_inclusive_scan_add %a : t` as the v0.3 tree's subgroup_operation (the caller adds results and span). */
export function subgroupOperation04(op: string, operand: Operand, type: TypedSpan, span: Span): SubgroupOperationInst {
  const rest = op.slice('subgroup_'.length);
  const group = SUBGROUP_GROUP_OPERATIONS.find((g) => rest.startsWith(`${g}_`));
  const fn = group && SUBGROUP_COMBINES.find((f) => rest === `${group}_${f}`);
  if (!group || !fn) throw new NotLowered(op, span);
  const t = type.type;
  if (t.kind !== 'scalar' || NOT_REDUCED.has(t.name))
    throw new NotLowered(`${op} of ${t.kind === 'scalar' ? t.name : t.kind}`, span);
  return { op: 'subgroup_operation', group: group as SubgroupGroupOperation, fn: fn as SubgroupCombine, operand, type };
}
