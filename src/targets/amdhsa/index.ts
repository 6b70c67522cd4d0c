import { AMDGCN } from '../../layout/data-layout.js';
import type { AmdhsaPlan } from '../../abi/plan.js';
import { emitJson } from '../../emit/json.js';
import { pick } from '../options.js';
import { type Target } from '../target.js';
import { planPacking } from '../../pack/plan-packing.js';
import { choiceProblem } from '../option-problem.js';
import { AMDHSA_CODE_OBJECTS, AMDHSA_DEFAULT_LLVM, AMDHSA_LLVMS, amdhsaOptionProblem, lowerAmdhsa } from './lower.js';
import { amdhsaPredefines } from './predefines.js';
import { amdhsaTable } from './table.js';
import { readAmdhsaPlan } from './schema.js';
import { AMDHSA_VOCABULARY, amdhsaView } from './view.js';

/** AMDHSA code objects: the kernarg segment with its hidden arguments, as clang lays it out. */
export const amdhsaTarget: Target<AmdhsaPlan, 'segment'> = {
  name: 'amdhsa',
  title: 'AMDHSA (ROCm)',
  summary: 'the AMDHSA kernarg segment: offsets, sizes, value kinds, hidden arguments',
  flags: [
    // No single default: it follows --llvm (clang-22 writes code object 6, kernarg's 19 and 16 models 5).
    { kind: 'choice', flag: 'code-object', choices: AMDHSA_CODE_OBJECTS.map(String), help: 'code object version (default 6 under --llvm 22, 5 under 19 and 16)', apply: (o, v) => ({ ...o, codeObject: pick(AMDHSA_CODE_OBJECTS, v) }) },
    { kind: 'choice', flag: 'llvm', choices: AMDHSA_LLVMS.map(String), default: String(AMDHSA_DEFAULT_LLVM), help: "the LLVM generation the layout follows (22 is today's)", apply: (o, v) => ({ ...o, amdLlvm: pick(AMDHSA_LLVMS, v) }) },
  ],
  formats: ['table', 'json'],
  layout: () => AMDGCN,
  predefines: (o) => amdhsaPredefines(o.amdLlvm ?? AMDHSA_DEFAULT_LLVM, o.std),
  flagConflict: () => undefined,
  optionProblem: (o) =>
    choiceProblem('codeObject', o.codeObject, AMDHSA_CODE_OBJECTS) ?? choiceProblem('amdLlvm', o.amdLlvm, AMDHSA_LLVMS) ?? amdhsaOptionProblem({ codeObject: o.codeObject, llvm: o.amdLlvm }),
  table: amdhsaTable,
  vocabulary: AMDHSA_VOCABULARY,
  view: amdhsaView,
  readPlan: readAmdhsaPlan,
  // The kernarg segment.
  pack: planPacking('segment', (k) => ({ segment: k.kernargSegmentSize, pushConstants: 0 })),
  lower(module, o) {
    const plan = lowerAmdhsa(module, { codeObject: o.codeObject, llvm: o.amdLlvm });
    return { plan, render: (format) => (format === 'json' ? emitJson(plan) : amdhsaTable(plan)) };
  },
};
