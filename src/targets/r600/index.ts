import { SPIR } from '../../layout/data-layout.js';
import { emitJson, emitJsonPieces } from '../../emit/json.js';
import { emitLlvmIr, emitLlvmIrPieces } from '../../emit/llvm-ir.js';
import type { Target } from '../target.js';
import { planPacking } from '../../pack/plan-packing.js';
import { type R600Plan, r600Kernelwise, r600LlvmKernelSeq, r600LlvmKernels, r600MayReport, r600Plan } from './lower.js';
import { r600Table, r600TablePieces } from './table.js';
import { readR600Plan } from './schema.js';
import { R600_VOCABULARY, r600View } from './view.js';

/** The IR kernarg prints for r600: clover's legacy metadata, after LLVM's R600 image pass. */
const R600_IR = { triple: 'r600', metadata: 'legacy', r600Lowered: true } as const;

/** Clover's r600 input buffer, after LLVM's R600 image pass inserts the image size and format arguments. */
export const r600Target: Target<R600Plan, 'segment'> = {
  name: 'r600',
  title: 'r600 (clover)',
  summary: "clover's r600 input buffer, with the R600 image pass's inserted arguments",
  flags: [],
  formats: ['table', 'json', 'llvm-ir'],
  layout: () => SPIR,
  predefines: () => [],
  flagConflict: () => undefined,
  optionProblem: () => undefined,
  table: r600Table,
  vocabulary: R600_VOCABULARY,
  view: r600View,
  readPlan: readR600Plan,
  // The input buffer.
  pack: planPacking('segment', (k) => ({ segment: k.inputSize, pushConstants: 0 })),
  lower(module, _o, diags) {
    const plan = r600Plan(module, diags);
    if (!plan) return undefined;
    return {
      plan,
      render(format, ctx) {
        if (format === 'json') return emitJson(plan);
        if (format === 'llvm-ir') return emitLlvmIr(ctx.module, r600LlvmKernels(ctx.module), R600_IR);
        return r600Table(plan);
      },
      pieces(format, ctx) {
        if (format === 'table') return r600TablePieces(plan);
        if (format === 'llvm-ir') return emitLlvmIrPieces(ctx.module, r600LlvmKernels(ctx.module), R600_IR);
        return undefined;
      },
    };
  },
  kernelwise: {
    formats: ['table', 'json', 'llvm-ir'],
    lower(module, _o, diags) {
      return {
        ...r600Kernelwise(module, diags),
        // A kernel's read_write image is refused as it is lowered: not quiet where a kernel takes one.
        quiet: !r600MayReport(module),
        pieces(plan, format, ctx) {
          if (format === 'json') return emitJsonPieces(plan);
          // The kernels as LLVM IR has them before the pass, each made as the writer reaches it.
          if (format === 'llvm-ir') return emitLlvmIrPieces(ctx.module, r600LlvmKernelSeq(ctx.module), R600_IR);
          return r600TablePieces(plan);
        },
      };
    },
  },
};
