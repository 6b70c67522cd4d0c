import type { AmdCl2Plan } from '../../abi/plan.js';
import { TableRenderer, cell } from '../../emit/text-table.js';
import { joinPieces, separated } from '../../emit/pieces.js';
import type { StreamPlan } from '../../abi/stream-plan.js';

/** The parts the tables are joined from, a newline between each. */
function* amdCl2TableParts(plan: StreamPlan<AmdCl2Plan>): Generator<string, void, undefined> {
  // The setup slots are shared by the kernels' plans: their lines are made once per set of widths.
  const table = new TableRenderer<AmdCl2Plan['kernels'][number]['args'][number]>(
    ['offset', 'size', 'align', 'name', 'clrx type', 'space/access', 'type', 'resource'],
    (a) => [
      String(a.offset),
      String(a.size),
      String(a.align),
      a.name,
      a.argType,
      a.addressSpace ?? a.access ?? '',
      a.typeName,
      cell(a.resourceId),
    ],
    (a) => a.param === null,
  );
  for (const k of plan.kernels) {
    const sg = k.userSgprs;
    const regs = [`${sg.count} user SGPRs`, 's[0:3] scratch'];
    if (sg.setupPointer) regs.push(`s[${sg.setupPointer.join(':')}] setup`);
    if (sg.argsPointer) regs.push(`s[${sg.argsPointer.join(':')}] args`);
    if (sg.flatBasesPointer)
      regs.push(
        `s[${sg.flatBasesPointer.join(':')}] flat bases, s${sg.flatScratchOffset} flat scratch offset, ` +
          `s${sg.scratchPerThread} scratch per thread`,
      );
    yield `kernel ${k.name} (amd-cl2, ${plan.bits}-bit, ${plan.driver} driver${
      plan.gfx9 ? ', ' + 'GFX9' : ''
    })  argument buffer: ${k.kernargSize} bytes; ${regs.join(', ')}\n`;
    yield table.render(k.args);
  }
}

/** The amd-cl2 plan for reading: one table per kernel. */
export function* amdCl2TablePieces(plan: StreamPlan<AmdCl2Plan>): Generator<string, void, undefined> {
  yield* separated(amdCl2TableParts(plan), '\n');
}

export function amdCl2Table(plan: AmdCl2Plan): string {
  return joinPieces(amdCl2TablePieces(plan));
}
