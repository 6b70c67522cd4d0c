import { AMDGCN } from '../../layout/data-layout.js';
import { AMDGPU_PROCESSOR_NAMES, DEFAULT_AMDGPU_PROCESSOR } from '../../abi/amdgpu-processors.js';
import type { AmdhsaPlan } from '../../abi/plan.js';
import { emitJson, emitJsonPieces } from '../../emit/json.js';
import { declareFlags } from '../flag-declarations.js';
import { type Target } from '../target.js';
import { planPacking } from '../../pack/plan-packing.js';
import { choiceProblem } from '../option-problem.js';
import {
  AMDHSA_CODE_OBJECTS,
  AMDHSA_DEFAULT_LLVM,
  AMDHSA_LLVMS,
  amdhsaOptionProblem,
  defaultCodeObject,
  amdhsaKernelwise,
  lowerAmdhsa,
} from './lower.js';
import { amdhsaPredefines } from './predefines.js';
import { amdhsaTable, amdhsaTablePieces } from './table.js';
import { readAmdhsaPlan } from './schema.js';
import { AMDHSA_VOCABULARY, amdhsaView } from './view.js';

/** Each generation's default code object, for --help: `6 under --llvm 22, 5 under --llvm 19, ...`. */
const CODE_OBJECT_DEFAULTS = [...AMDHSA_LLVMS]
  .reverse()
  .map((l) => `${defaultCodeObject(l)} under --llvm ${l}`)
  .join(', ');

/** AMDHSA code objects: the kernarg segment with its hidden arguments, as clang lays it out. */
export const amdhsaTarget: Target<AmdhsaPlan, 'segment'> = {
  name: 'amdhsa',
  title: 'AMDHSA (ROCm)',
  summary: 'the AMDHSA kernarg segment: offsets, sizes, value kinds, hidden arguments',
  flags: declareFlags('amdhsa', [
    // No single default: it follows --llvm (defaultCodeObject, the one place it is written).
    {
      kind: 'choice',
      key: 'codeObject',
      flag: 'code-object',
      choices: AMDHSA_CODE_OBJECTS,
      help: `code object version (default ${CODE_OBJECT_DEFAULTS})`,
    },
    {
      kind: 'choice',
      key: 'llvm',
      flag: 'llvm',
      choices: AMDHSA_LLVMS,
      default: AMDHSA_DEFAULT_LLVM,
      help: "the LLVM generation the layout follows (22 is today's)",
    },
    {
      kind: 'choice',
      key: 'mcpu',
      flag: 'mcpu',
      choices: AMDGPU_PROCESSOR_NAMES,
      default: DEFAULT_AMDGPU_PROCESSOR,
      help: "the processor, as clang's -mcpu (gfx9 and later; the kernarg segment is laid out alike)",
    },
  ]),
  formats: ['table', 'json'],
  layout: () => AMDGCN,
  predefines: (o) => amdhsaPredefines(o.amdhsa?.llvm ?? AMDHSA_DEFAULT_LLVM, o.std, o.amdhsa?.mcpu),
  flagConflict: () => undefined,
  optionProblem: (o) =>
    choiceProblem('amdhsa.codeObject', o.amdhsa?.codeObject, AMDHSA_CODE_OBJECTS) ??
    choiceProblem('amdhsa.llvm', o.amdhsa?.llvm, AMDHSA_LLVMS) ??
    choiceProblem('amdhsa.mcpu', o.amdhsa?.mcpu, AMDGPU_PROCESSOR_NAMES) ??
    amdhsaOptionProblem(o.amdhsa ?? {}),
  table: amdhsaTable,
  vocabulary: AMDHSA_VOCABULARY,
  view: amdhsaView,
  readPlan: readAmdhsaPlan,
  // The kernarg segment.
  pack: planPacking('segment', (k) => ({ segment: k.kernargSegmentSize, pushConstants: 0 })),
  lower(module, o) {
    const plan = lowerAmdhsa(module, o.amdhsa ?? {});
    return {
      plan,
      render: (format) => (format === 'json' ? emitJson(plan) : amdhsaTable(plan)),
      pieces: (format) => (format === 'table' ? amdhsaTablePieces(plan) : undefined),
    };
  },
  kernelwise: {
    formats: ['table', 'json'],
    lower(module, o) {
      const { head, count, kernels } = amdhsaKernelwise(module, o.amdhsa ?? {});
      return {
        head,
        count,
        kernels,
        quiet: true,
        pieces(plan, format) {
          if (format === 'json') return emitJsonPieces(plan);
          return amdhsaTablePieces(plan);
        },
      };
    },
  },
};
