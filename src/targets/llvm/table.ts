import type { LlvmPlan } from './lower.js';
import { renderTable } from '../../emit/text-table.js';

/** The llvm plan for reading: one table per kernel. */
export function llvmTable(plan: LlvmPlan): string {
  const out: string[] = [];
  for (const k of plan.kernels) {
    out.push(`kernel ${k.name} (llvm, ${plan.triple}, ${plan.metadata} metadata)\n`);
    const rows = k.args.map((a) => [a.name, String(a.addrSpace), a.accessQual, a.typeName, a.baseType, a.typeQual]);
    out.push(rows.length ? renderTable(['name', 'addr_space', 'access_qual', 'type', 'base_type', 'type_qual'], rows) : '(no arguments)\n');
  }
  return out.join('\n');
}
