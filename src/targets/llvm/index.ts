import { TRIPLES, TRIPLE_INFO } from '../../abi/llvm-kernel.js';
import { emitJson, emitJsonPieces } from '../../emit/json.js';
import { emitLlvmIr, emitLlvmIrPieces } from '../../emit/llvm-ir.js';
import { declareFlags } from '../flag-declarations.js';
import { type Target } from '../target.js';
import { choiceProblem } from '../option-problem.js';
import { type LlvmPlan, llvmKernelwise, lowerLlvm } from './lower.js';
import { llvmTable, llvmTablePieces } from './table.js';
import { readLlvmPlan } from './schema.js';
import { LLVM_VOCABULARY, llvmView } from './view.js';

const METADATA = ['modern', 'legacy'] as const;

/** LLVM IR kernels with clang's `kernel_arg_*` metadata. */
export const llvmTarget: Target<LlvmPlan, undefined> = {
  name: 'llvm',
  title: 'LLVM IR metadata',
  summary: "LLVM IR kernel declarations with clang's kernel_arg_* metadata",
  flags: declareFlags('llvm', [
    {
      kind: 'choice',
      key: 'metadata',
      flag: 'metadata',
      choices: METADATA,
      default: 'modern',
      help: 'function-attached kernel_arg_* or the !opencl.kernels node',
    },
    {
      kind: 'choice',
      key: 'triple',
      flag: 'triple',
      choices: TRIPLES,
      value: '<triple>',
      default: 'spir64-unknown-unknown',
      help: 'target triple',
    },
    {
      kind: 'boolean',
      key: 'kernelStubs',
      flag: 'kernel-stubs',
      help: 'split each kernel into an entry and a __clang_ocl_kern_imp_ body',
    },
    {
      kind: 'boolean',
      key: 'kernelArgInfo',
      flag: 'kernel-arg-info',
      help: 'also emit !kernel_arg_name (as clang -cl-kernel-arg-info)',
    },
  ]),
  formats: ['table', 'json', 'llvm-ir'],
  layout: (o) => TRIPLE_INFO[o.llvm?.triple ?? 'spir64-unknown-unknown'].layout,
  predefines: () => [],
  flagConflict: () => undefined,
  optionProblem: (o) => choiceProblem('llvm.triple', o.llvm?.triple, TRIPLES),
  table: llvmTable,
  vocabulary: LLVM_VOCABULARY,
  view: llvmView,
  readPlan: readLlvmPlan,
  // No packer packs an llvm plan: it places no bytes (abi/llvm-kernel.ts).
  pack: undefined,
  lower(module, o, diags) {
    const plan = lowerLlvm(module, o.llvm ?? {}, diags);
    if (!plan) return undefined;
    const irOptions = {
      triple: plan.triple,
      metadata: plan.metadata,
      kernelArgInfo: o.llvm?.kernelArgInfo,
      kernelStubs: o.llvm?.kernelStubs,
    };
    return {
      plan,
      render(format, ctx) {
        if (format === 'json') return emitJson(plan);
        if (format === 'llvm-ir') return emitLlvmIr(ctx.module, plan.kernels, irOptions);
        return llvmTable(plan);
      },
      pieces(format, ctx) {
        if (format === 'table') return llvmTablePieces(plan);
        if (format === 'llvm-ir') return emitLlvmIrPieces(ctx.module, plan.kernels, irOptions);
        return undefined;
      },
    };
  },
  kernelwise: {
    formats: ['table', 'json', 'llvm-ir'],
    lower(module, o, diags) {
      const kw = llvmKernelwise(module, o.llvm ?? {}, diags);
      return (
        kw && {
          ...kw,
          quiet: true,
          // LLVM IR's struct types lead: the writer reads them off the module's types before the first kernel.
          pieces(plan, format, ctx) {
            if (format === 'json') return emitJsonPieces(plan);
            if (format === 'llvm-ir')
              return emitLlvmIrPieces(ctx.module, plan.kernels, {
                triple: plan.triple,
                metadata: plan.metadata,
                kernelArgInfo: o.llvm?.kernelArgInfo,
                kernelStubs: o.llvm?.kernelStubs,
              });
            return llvmTablePieces(plan);
          },
        }
      );
    },
  },
};
