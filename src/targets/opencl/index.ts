import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import type { OpenCLPlan } from '../../abi/plan.js';
import { emitJson, emitJsonPieces } from '../../emit/json.js';
import { emitSignaturePieces, emitSignatures } from '../../emit/signatures.js';
import { declareFlags } from '../flag-declarations.js';
import { type Target } from '../target.js';
import { planPacking } from '../../pack/plan-packing.js';
import { choiceProblem } from '../option-problem.js';
import { lowerOpenCL, openclKernelwise } from './lower.js';
import { openclTable, openclTablePieces } from './table.js';
import { readOpenclPlan } from './schema.js';
import { OPENCL_VOCABULARY, openclView } from './view.js';

const ARCHES = ['spir', 'spir64'] as const;

/** OpenCL's `clSetKernelArg` calls, as `clGetKernelArgInfo` describes them. */
export const openclTarget: Target<OpenCLPlan, 'arg-list'> = {
  name: 'opencl',
  title: 'OpenCL (clSetKernelArg)',
  summary: 'the clSetKernelArg plan: index, kind, address space or access, type name, size',
  flags: declareFlags('opencl', [
    {
      kind: 'choice',
      key: 'arch',
      flag: 'arch',
      choices: ARCHES,
      default: 'spir64',
      help: 'device address width values are sized with',
    },
  ]),
  formats: ['table', 'json', 'signatures'],
  layout: (o) => DATA_LAYOUTS[o.opencl?.arch ?? 'spir64'],
  predefines: () => [],
  flagConflict: () => undefined,
  optionProblem: (o) => choiceProblem('opencl.arch', o.opencl?.arch, ARCHES),
  table: openclTable,
  vocabulary: OPENCL_VOCABULARY,
  view: openclView,
  readPlan: readOpenclPlan,
  // clSetKernelArg's list, set by index: no byte blocks.
  pack: planPacking('arg-list', () => ({ segment: 0, pushConstants: 0 })),
  lower(module, o, _diags, generated) {
    const plan = lowerOpenCL(module, o.opencl ?? {}, generated);
    return {
      plan,
      render(format, ctx) {
        if (format === 'json') return emitJson(plan);
        if (format === 'signatures') return emitSignatures(ctx.module);
        return openclTable(plan);
      },
      pieces(format, ctx) {
        if (format === 'table') return openclTablePieces(plan);
        if (format === 'signatures') return emitSignaturePieces(ctx.module);
        return undefined;
      },
    };
  },
  kernelwise: {
    formats: ['table', 'json', 'signatures'],
    lower(module, o) {
      const { head, count, kernels } = openclKernelwise(module, o.opencl ?? {});
      return {
        head,
        count,
        kernels,
        quiet: true,
        pieces(plan, format, ctx) {
          if (format === 'json') return emitJsonPieces(plan);
          if (format === 'signatures') return emitSignaturePieces(ctx.module);
          return openclTablePieces(plan);
        },
      };
    },
  },
};
