import { TableRenderer, cell } from '../../emit/text-table.js';
import { joinPieces, separated } from '../../emit/pieces.js';
import type { CudaPlan, CudaSlot } from './plan.js';
import type { StreamPlan } from '../../abi/stream-plan.js';

/** The `.param` declaration without its name: `.u64 .ptr .global .align 4`, `.u32`, `.align 16 .b8[16]`. */
function declared(a: CudaSlot, nvcl: boolean): string {
  if (a.ptxType === 'b8') return `.align ${a.align} .b8[${a.size}]`;
  if (a.space === undefined || !nvcl) return `.${a.ptxType}`;
  return `.${a.ptxType} .ptr${a.space === 'generic' ? '' : ` .${a.space}`} .align ${a.pointeeAlign ?? 1}`;
}

/** The parts the tables are joined from, a newline between each. */
function* cudaTableParts(plan: StreamPlan<CudaPlan>): Generator<string, void, undefined> {
  const nvcl = plan.localMemory === 'nvidia';
  const table = new TableRenderer<CudaSlot>(
    ['index', 'offset', 'size', 'align', 'name', '.param', 'type'],
    (a) => [
      String(a.index),
      String(a.offset),
      String(a.size),
      String(a.align),
      a.name,
      declared(a, nvcl),
      cell(a.typeName),
    ],
    () => false,
  );
  for (const k of plan.kernels) {
    const shared = k.dynamicShared.length ? `; dynamic shared memory: ${k.dynamicShared.join(', ')}` : '';
    yield `kernel ${k.name} (cuda, ${plan.arch}, sm_${plan.sm}, ${plan.localMemory} local memory)  parameter buffer: ${k.paramBytes} bytes${shared}\n`;
    yield table.render(k.args);
  }
}

/** The cuda plan for reading: one table per kernel, a row per `.param` with its place in the parameter buffer. */
export function* cudaTablePieces(plan: StreamPlan<CudaPlan>): Generator<string, void, undefined> {
  yield* separated(cudaTableParts(plan), '\n');
}

export function cudaTable(plan: CudaPlan): string {
  return joinPieces(cudaTablePieces(plan));
}
