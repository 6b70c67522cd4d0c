import type { AmdCl2Plan } from '../../abi/plan.js';
import { renderTable, cell } from '../../emit/text-table.js';

/** The amd-cl2 plan for reading: one table per kernel. */
export function amdCl2Table(plan: AmdCl2Plan): string {
  const out: string[] = [];
  for (const k of plan.kernels) {
    const sg = k.userSgprs;
    const regs = [`${sg.count} user SGPRs`, 's[0:3] scratch'];
    if (sg.setupPointer) regs.push(`s[${sg.setupPointer.join(':')}] setup`);
    if (sg.argsPointer) regs.push(`s[${sg.argsPointer.join(':')}] args`);
    if (sg.flatBasesPointer) regs.push(`s[${sg.flatBasesPointer.join(':')}] flat bases, s${sg.flatScratchOffset} flat scratch offset, s${sg.scratchPerThread} scratch per thread`);
    out.push(`kernel ${k.name} (amd-cl2, ${plan.bits}-bit, ${plan.driver} driver${plan.gfx9 ? ', GFX9' : ''})  argument buffer: ${k.kernargSize} bytes; ${regs.join(', ')}\n`);
    const rows = k.args.map((a) => [String(a.offset), String(a.size), String(a.align), a.name, a.argType, a.addressSpace ?? a.access ?? '', a.typeName, cell(a.resourceId)]);
    out.push(renderTable(['offset', 'size', 'align', 'name', 'clrx type', 'space/access', 'type', 'resource'], rows));
  }
  return out.join('\n');
}
