// `--format ptx`: each kernel's `.entry` declaration as LLVM's NVPTX backend prints it
// (NVPTXAsmPrinter::emitFunctionParamList), so it diffs line for line against the `.entry`
// blocks of a compiled module: nvcl's `.entry` with `.ptr` spaces and pointee alignments, or the
// CUDA driver interface's `.visible .entry` with bare pointer integers (the triple pocl compiles for).
import { joinPieces } from '../../emit/pieces.js';
import type { CudaPlan, CudaSlot } from './plan.js';
import type { StreamPlan } from '../../abi/stream-plan.js';

function paramText(s: CudaSlot, nvcl: boolean): string {
  if (s.ptxType === 'b8') return `.param .align ${s.align} .b8 ${s.ptxName}[${s.size}]`;
  if (s.space === undefined || !nvcl) return `.param .${s.ptxType} ${s.ptxName}`;
  const space = s.space === 'generic' ? '' : `.${s.space} `;
  return `.param .${s.ptxType} .ptr ${space}.align ${s.pointeeAlign ?? 1} ${s.ptxName}`;
}

/** The `.entry` declarations, each preceded by the `.globl` comment LLVM prints and followed by a blank line. */
export function* emitPtxEntryPieces(plan: StreamPlan<CudaPlan>): Generator<string, void, undefined> {
  const nvcl = plan.localMemory === 'nvidia';
  for (const k of plan.kernels) {
    const head = `${nvcl ? '' : '.visible '}.entry ${k.name}(`;
    const globl = `\t// .globl\t${k.name}\n\n`;
    if (k.args.length === 0) yield `${globl}${head})\n\n`;
    else yield `${globl}${head}\n${k.args.map((a) => `\t${paramText(a, nvcl)}`).join(',\n')}\n)\n\n`;
  }
}

export function emitPtxEntries(plan: CudaPlan): string {
  return joinPieces(emitPtxEntryPieces(plan));
}
