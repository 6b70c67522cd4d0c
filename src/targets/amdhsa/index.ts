import { AMDGCN } from '../../layout/data-layout.js';
import type { AmdhsaPlan } from '../../abi/plan.js';
import { emitJson } from '../../emit/json.js';
import { pick } from '../options.js';
import { type Target } from '../target.js';
import { choiceProblem } from '../option-problem.js';
import { AMDHSA_CODE_OBJECTS, AMDHSA_LLVMS, amdhsaOptionProblem, lowerAmdhsa } from './lower.js';
import { amdhsaTable } from './table.js';
import { readAmdhsaPlan } from './schema.js';
import { AMDHSA_VOCABULARY, amdhsaView } from './view.js';

/** AMDHSA code objects: the kernarg segment with its hidden arguments, as clang lays it out. */
export const amdhsaTarget: Target<AmdhsaPlan> = {
  name: 'amdhsa',
  title: 'AMDHSA (ROCm)',
  summary: 'the AMDHSA kernarg segment: offsets, sizes, value kinds, hidden arguments',
  flags: [
    { kind: 'choice', flag: 'code-object', choices: AMDHSA_CODE_OBJECTS.map(String), default: '5', help: 'code object version', apply: (o, v) => ({ ...o, codeObject: pick(AMDHSA_CODE_OBJECTS, v) }) },
    { kind: 'choice', flag: 'llvm', choices: AMDHSA_LLVMS.map(String), default: '19', help: "the LLVM generation the layout follows (19 is today's)", apply: (o, v) => ({ ...o, amdLlvm: pick(AMDHSA_LLVMS, v) }) },
  ],
  formats: ['table', 'json'],
  tinytcFormats: [],
  layout: () => AMDGCN,
  predefines: () => [],
  flagConflict: () => undefined,
  optionProblem: (o) =>
    choiceProblem('codeObject', o.codeObject, AMDHSA_CODE_OBJECTS) ?? choiceProblem('amdLlvm', o.amdLlvm, AMDHSA_LLVMS) ?? amdhsaOptionProblem({ codeObject: o.codeObject, llvm: o.amdLlvm }),
  table: amdhsaTable,
  vocabulary: AMDHSA_VOCABULARY,
  view: amdhsaView,
  readPlan: readAmdhsaPlan,
  lower(module, o) {
    const plan = lowerAmdhsa(module, { codeObject: o.codeObject, llvm: o.amdLlvm });
    return { plan, render: (format) => (format === 'json' ? emitJson(plan) : amdhsaTable(plan)) };
  },
};
