import type { AmdhsaPlan } from '../../abi/plan.js';
import { TableRenderer, cell } from '../../emit/text-table.js';

/** The amdhsa plan for reading: one table per kernel. */
export function amdhsaTable(plan: AmdhsaPlan): string {
  const out: string[] = [];
  // The hidden slots are shared by the kernels' plans: their lines are made once per set of widths.
  const table = new TableRenderer<AmdhsaPlan['kernels'][number]['args'][number]>(
    ['offset', 'size', 'name', 'value kind', 'space/access', 'type'],
    (a) => [String(a.offset), String(a.size), a.name, a.valueKind, a.addressSpace ?? a.access ?? '', cell(a.typeName)],
    (a) => a.param === null,
  );
  for (const k of plan.kernels) {
    out.push(`kernel ${k.name} (amdhsa, code object ${plan.codeObject}, LLVM ${plan.llvm}, ${plan.mcpu})  kernarg segment: size ${k.kernargSegmentSize}, align ${k.kernargSegmentAlign}\n`);
    out.push(table.render(k.args));
  }
  return out.join('\n');
}
