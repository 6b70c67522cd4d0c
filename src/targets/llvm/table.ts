import type { LlvmPlan } from './lower.js';
import type { StreamPlan } from '../../abi/stream-plan.js';
import { renderTable } from '../../emit/text-table.js';
import { SlotListTexts } from '../../abi/kernel-shape-memo.js';
import { joinPieces, separated } from '../../emit/pieces.js';

/** The parts the tables are joined from, a newline between each. */
function* llvmTableParts(plan: StreamPlan<LlvmPlan>): Generator<string, void, undefined> {
  for (const k of plan.kernels) {
    yield `kernel ${k.name} (llvm, ${plan.triple}, ${plan.metadata} metadata)\n`;
    yield ARGS_TABLES.text(k.args);
  }
}

/** A kernel's argument table, made once for the kernels of one shape. */
const ARGS_TABLES = new SlotListTexts<LlvmPlan['kernels'][number]['args'][number]>((args) => {
  const rows = args.map((a) => [a.name, String(a.addrSpace), a.accessQual, a.typeName, a.baseType, a.typeQual]);
  return rows.length
    ? renderTable(['name', 'addr_space', 'access_qual', 'type', 'base_type', 'type_qual'], rows)
    : '(no arguments)\n';
});

/** The llvm plan for reading: one table per kernel. */
export function* llvmTablePieces(plan: StreamPlan<LlvmPlan>): Generator<string, void, undefined> {
  yield* separated(llvmTableParts(plan), '\n');
}

export function llvmTable(plan: LlvmPlan): string {
  return joinPieces(llvmTablePieces(plan));
}
