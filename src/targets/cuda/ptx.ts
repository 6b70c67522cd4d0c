// `--format ptx`: each kernel's `.entry` declaration as LLVM's NVPTX backend prints it
// (NVPTXAsmPrinter::emitFunctionParamList), so it diffs line for line against the `.entry`
// blocks of a compiled module: nvcl's `.entry` with `.ptr` spaces and pointee alignments, or the
// CUDA driver interface's `.visible .entry` with bare pointer integers (the triple pocl compiles for).
import { joinPieces } from '../../emit/pieces.js';
import type { CudaPlan, CudaSlot } from './plan.js';
import type { StreamPlan } from '../../abi/stream-plan.js';
import { ptxNameOf } from '../../abi/ptx-param-name.js';
import { SlotListTexts } from '../../abi/kernel-shape-memo.js';

/** A parameter's declaration with its name left out: what follows is `ptxName` (and, for a byte array, its size). */
function declarationText(s: CudaSlot, nvcl: boolean): string {
  if (s.ptxType === 'b8') return `.param .align ${s.align} .b8 `;
  if (s.space === undefined || !nvcl) return `.param .${s.ptxType} `;
  const space = s.space === 'generic' ? '' : `.${s.space} `;
  return `.param .${s.ptxType} .ptr ${space}.align ${s.pointeeAlign ?? 1} `;
}

/**
 * A slot list's declarations with each name left out, made once per list kernels share (`SlotListTexts`): the text
 * before each parameter's name, and after the last one's.
 */
function declarationParts(args: readonly CudaSlot[], nvcl: boolean): readonly string[] {
  const parts: string[] = [];
  let before = '\n';
  for (let i = 0; i < args.length; i++) {
    const s = args[i];
    parts.push(`${before}\t${declarationText(s, nvcl)}`);
    before = `${s.ptxType === 'b8' ? `[${s.size}]` : ''}${i + 1 < args.length ? ',\n' : '\n)\n\n'}`;
  }
  parts.push(before);
  return parts;
}

/** The `.entry` declarations, each preceded by the `.globl` comment LLVM prints and followed by a blank line. */
export function* emitPtxEntryPieces(plan: StreamPlan<CudaPlan>): Generator<string, void, undefined> {
  const nvcl = plan.localMemory === 'nvidia';
  const texts = new SlotListTexts<CudaSlot, readonly string[]>((args) => declarationParts(args, nvcl));
  for (const k of plan.kernels) {
    const head = `${nvcl ? '' : '.visible '}.entry ${k.name}(`;
    const globl = `\t// .globl\t${k.name}\n\n`;
    if (k.args.length === 0) {
      yield `${globl}${head})\n\n`;
      continue;
    }
    const parts = texts.text(k.args);
    let text = `${globl}${head}${parts[0]}`;
    for (let i = 0; i < k.args.length; i++) text += ptxNameOf(k.name, k.args[i]) + parts[i + 1];
    yield text;
  }
}

export function emitPtxEntries(plan: CudaPlan): string {
  return joinPieces(emitPtxEntryPieces(plan));
}
