import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import type { OpenCLPlan } from '../../abi/plan.js';
import { emitJson } from '../../emit/json.js';
import { emitSignatures } from '../../emit/signatures.js';
import { pick } from '../options.js';
import { type Target } from '../target.js';
import { choiceProblem } from '../option-problem.js';
import { lowerOpenCL } from './lower.js';
import { openclTable } from './table.js';
import { readOpenclPlan } from './schema.js';
import { OPENCL_VOCABULARY, openclView } from './view.js';

const ARCHES = ['spir', 'spir64'] as const;

/** OpenCL's `clSetKernelArg` calls, as `clGetKernelArgInfo` describes them. */
export const openclTarget: Target<OpenCLPlan> = {
  name: 'opencl',
  title: 'OpenCL (clSetKernelArg)',
  summary: 'the clSetKernelArg plan: index, kind, address space or access, type name, size',
  flags: [
    { kind: 'choice', flag: 'arch', choices: ARCHES, default: 'spir64', help: 'device address width values are sized with', apply: (o, v) => ({ ...o, arch: pick(ARCHES, v) }) },
  ],
  formats: ['table', 'json', 'signatures', 'opencl-c', 'spirv', 'spirv-asm'],
  // spirv, spirv-asm: tinytc's OpenCL SPIR-V, rendered by the code generator (lower.ts), not this record.
  tinytcFormats: ['opencl-c', 'spirv', 'spirv-asm'],
  layout: (o) => DATA_LAYOUTS[o.arch ?? 'spir64'],
  predefines: () => [],
  flagConflict: () => undefined,
  optionProblem: (o) => choiceProblem('arch', o.arch, ARCHES),
  table: openclTable,
  vocabulary: OPENCL_VOCABULARY,
  view: openclView,
  readPlan: readOpenclPlan,
  lower(module, o, _diags, generated) {
    const plan = lowerOpenCL(module, { arch: o.arch }, generated);
    return {
      plan,
      render(format, ctx) {
        if (format === 'json') return emitJson(plan);
        if (format === 'signatures') return emitSignatures(ctx.module);
        if (format === 'opencl-c') return ctx.openclC();
        return openclTable(plan);
      },
    };
  },
};
