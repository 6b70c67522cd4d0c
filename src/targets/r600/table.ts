import type { R600Plan } from './lower.js';
import type { StreamPlan } from '../../abi/stream-plan.js';
import { TableRenderer, cell } from '../../emit/text-table.js';
import { joinPieces, separated } from '../../emit/pieces.js';

/** The parts the tables are joined from, a newline between each. */
function* r600TableParts(plan: StreamPlan<R600Plan>): Generator<string, void, undefined> {
  // The trailing (hidden) slots are shared by the kernels' plans: their lines are made once per set of widths.
  const table = new TableRenderer<R600Plan['kernels'][number]['args'][number]>(
    ['offset', 'size', 'name', 'role', 'type', 'access', 'resource', 'image'],
    (a) => [
      String(a.offset),
      String(a.size),
      a.name,
      a.role,
      a.typeName,
      cell(a.accessQual),
      cell(a.resourceId),
      cell(a.image),
    ],
    (a) => a.role === 'hidden',
  );
  for (const k of plan.kernels) {
    yield `kernel ${k.name} (r600, ${plan.mcpu})  input buffer: ${k.inputSize} bytes, explicit arguments from byte 36\n`;
    yield table.render(k.args);
  }
}

/** The r600 plan for reading: one table per kernel. */
export function* r600TablePieces(plan: StreamPlan<R600Plan>): Generator<string, void, undefined> {
  yield* separated(r600TableParts(plan), '\n');
}

export function r600Table(plan: R600Plan): string {
  return joinPieces(r600TablePieces(plan));
}
