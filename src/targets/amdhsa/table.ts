import type { AmdhsaPlan } from '../../abi/plan.js';
import type { StreamPlan } from '../../abi/stream-plan.js';
import { TableRenderer, cell } from '../../emit/text-table.js';
import { joinPieces, separated } from '../../emit/pieces.js';

/** The parts the tables are joined from, a newline between each. */
function* amdhsaTableParts(plan: StreamPlan<AmdhsaPlan>): Generator<string, void, undefined> {
  // The hidden slots are shared by the kernels' plans: their lines are made once per set of widths.
  const table = new TableRenderer<AmdhsaPlan['kernels'][number]['args'][number]>(
    ['offset', 'size', 'name', 'value kind', 'space/access', 'type'],
    (a) => [String(a.offset), String(a.size), a.name, a.valueKind, a.addressSpace ?? a.access ?? '', cell(a.typeName)],
    (a) => a.param === null,
  );
  for (const k of plan.kernels) {
    yield `kernel ${k.name} (amdhsa, code object ${plan.codeObject}, LLVM ${plan.llvm}, ${plan.mcpu})  kernarg segment: size ${k.kernargSegmentSize}, align ${k.kernargSegmentAlign}\n`;
    yield table.render(k.args);
  }
}

/** The amdhsa plan for reading: one table per kernel. */
export function* amdhsaTablePieces(plan: StreamPlan<AmdhsaPlan>): Generator<string, void, undefined> {
  yield* separated(amdhsaTableParts(plan), '\n');
}

export function amdhsaTable(plan: AmdhsaPlan): string {
  return joinPieces(amdhsaTablePieces(plan));
}
