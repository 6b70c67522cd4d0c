import { AMDGCN } from '../../layout/data-layout.js';
import { AMDGPU_PROCESSOR_NAMES, DEFAULT_AMDGPU_PROCESSOR } from '../../abi/amdgpu-processors.js';
import type { AmdhsaPlan } from '../../abi/plan.js';
import { emitJson } from '../../emit/json.js';
import { pick } from '../options.js';
import { type Target } from '../target.js';
import { choiceProblem } from '../option-problem.js';
import { AMDHSA_CODE_OBJECTS, AMDHSA_DEFAULT_LLVM, AMDHSA_LLVMS, amdhsaOptionProblem, lowerAmdhsa } from './lower.js';
import { amdhsaPredefines } from './predefines.js';
import { amdhsaTable } from './table.js';
import { readAmdhsaPlan } from './schema.js';
import { AMDHSA_VOCABULARY, amdhsaView } from './view.js';

/** AMDHSA code objects: the kernarg segment with its hidden arguments, as clang lays it out. */
export const amdhsaTarget: Target<AmdhsaPlan> = {
  name: 'amdhsa',
  title: 'AMDHSA (ROCm)',
  summary: 'the AMDHSA kernarg segment: offsets, sizes, value kinds, hidden arguments',
  flags: [
    // No single default: it follows --llvm (clang-22 writes code object 6, kernarg's 19 and 16 models 5).
    { kind: 'choice', flag: 'code-object', choices: AMDHSA_CODE_OBJECTS.map(String), help: 'code object version (default 6 under --llvm 22, 5 under 19 and 16)', apply: (o, v) => ({ ...o, codeObject: pick(AMDHSA_CODE_OBJECTS, v) }) },
    { kind: 'choice', flag: 'llvm', choices: AMDHSA_LLVMS.map(String), default: String(AMDHSA_DEFAULT_LLVM), help: "the LLVM generation the layout follows (22 is today's)", apply: (o, v) => ({ ...o, amdLlvm: pick(AMDHSA_LLVMS, v) }) },
    { kind: 'choice', flag: 'mcpu', choices: AMDGPU_PROCESSOR_NAMES, default: DEFAULT_AMDGPU_PROCESSOR, help: 'the processor, as clang\'s -mcpu (gfx9 and later; the kernarg segment is laid out alike)', apply: (o, v) => ({ ...o, amdMcpu: pick(AMDGPU_PROCESSOR_NAMES, v) }) },
  ],
  formats: ['table', 'json'],
  tinytcFormats: [],
  layout: () => AMDGCN,
  predefines: (o) => amdhsaPredefines(o.amdLlvm ?? AMDHSA_DEFAULT_LLVM, o.std, o.amdMcpu),
  flagConflict: () => undefined,
  optionProblem: (o) =>
    choiceProblem('codeObject', o.codeObject, AMDHSA_CODE_OBJECTS) ?? choiceProblem('amdLlvm', o.amdLlvm, AMDHSA_LLVMS) ?? choiceProblem('amdMcpu', o.amdMcpu, AMDGPU_PROCESSOR_NAMES) ?? amdhsaOptionProblem({ codeObject: o.codeObject, llvm: o.amdLlvm, mcpu: o.amdMcpu }),
  table: amdhsaTable,
  vocabulary: AMDHSA_VOCABULARY,
  view: amdhsaView,
  readPlan: readAmdhsaPlan,
  lower(module, o) {
    const plan = lowerAmdhsa(module, { codeObject: o.codeObject, llvm: o.amdLlvm, mcpu: o.amdMcpu });
    return { plan, render: (format) => (format === 'json' ? emitJson(plan) : amdhsaTable(plan)) };
  },
};
