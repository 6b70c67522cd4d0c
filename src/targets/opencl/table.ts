import type { OpenCLPlan } from '../../abi/plan.js';
import type { StreamPlan } from '../../abi/stream-plan.js';
import { renderTable } from '../../emit/text-table.js';
import { SlotListTexts } from '../../abi/kernel-shape-memo.js';
import { joinPieces, separated } from '../../emit/pieces.js';

/** The parts the tables are joined from, a newline between each. */
function* openclTableParts(plan: StreamPlan<OpenCLPlan>): Generator<string, void, undefined> {
  for (const k of plan.kernels) {
    const attrs: string[] = [];
    if (k.reqdWorkGroupSize)
      attrs.push(
        `reqd_work_group_size(${k.reqdWorkGroupSize.join(', ')})${k.workGroupSizeChosen ? ' (chosen by kernarg)' : ''}`,
      );
    if (k.workGroupSizeHint) attrs.push(`work_group_size_hint(${k.workGroupSizeHint.join(', ')})`);
    if (k.vecTypeHint) attrs.push(`vec_type_hint(${k.vecTypeHint})`);
    if (k.intelReqdSubGroupSize) attrs.push(`intel_reqd_sub_group_size(${k.intelReqdSubGroupSize})`);
    yield `kernel ${k.name} (opencl, ${plan.arch})${attrs.length ? '  ' + attrs.join(' ') : ''}\n`;
    yield ARGS_TABLES.text(k.args);
  }
}

type Slot = OpenCLPlan['kernels'][number]['args'][number];

/** A kernel's argument table, made once for the kernels of one shape. */
const ARGS_TABLES = new SlotListTexts<Slot>((args) => {
  const rows = args.map((a) => [
    String(a.index),
    a.name,
    a.kind,
    a.addressSpace ?? a.access ?? '',
    a.typeName,
    a.typeQual,
    a.size === null ? 'local' : String(a.size),
  ]);
  return rows.length
    ? renderTable(['index', 'name', 'kind', 'space/access', 'type', 'qualifiers', 'size'], rows)
    : '(no arguments)\n';
});

/** The opencl plan for reading: one table per kernel. */
export function* openclTablePieces(plan: StreamPlan<OpenCLPlan>): Generator<string, void, undefined> {
  yield* separated(openclTableParts(plan), '\n');
}

export function openclTable(plan: OpenCLPlan): string {
  return joinPieces(openclTablePieces(plan));
}
