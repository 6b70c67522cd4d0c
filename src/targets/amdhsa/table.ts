import type { AmdhsaPlan } from '../../abi/plan.js';
import { renderTable, cell } from '../../emit/text-table.js';

/** The amdhsa plan for reading: one table per kernel. */
export function amdhsaTable(plan: AmdhsaPlan): string {
  const out: string[] = [];
  for (const k of plan.kernels) {
    out.push(`kernel ${k.name} (amdhsa, code object ${plan.codeObject}, LLVM ${plan.llvm}, ${plan.mcpu})  kernarg segment: size ${k.kernargSegmentSize}, align ${k.kernargSegmentAlign}\n`);
    const rows = k.args.map((a) => [String(a.offset), String(a.size), a.name, a.valueKind, a.addressSpace ?? a.access ?? '', cell(a.typeName)]);
    out.push(renderTable(['offset', 'size', 'name', 'value kind', 'space/access', 'type'], rows));
  }
  return out.join('\n');
}
