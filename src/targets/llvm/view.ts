import { type PlanView, stringFact as s, numberFact as n, tripleFact as triple } from '../../abi/plan-view.js';
import type { LlvmPlan } from './lower.js';

/** Slot properties in display order: only these are compared across two targets. */
export const LLVM_VOCABULARY = ['addressSpace', 'access', 'typeName', 'baseType', 'typeQual'] as const;

/** The kernel_arg_* metadata as the ABI diff sees it. */
export function llvmView(plan: LlvmPlan): PlanView {
  return {
    facts: { triple: plan.triple, metadata: plan.metadata },
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      facts: {
        reqdWorkGroupSize: triple(k.reqdWorkGroupSize),
        workGroupSizeHint: triple(k.workGroupSizeHint),
        vecTypeHint: s(k.vecTypeHint),
        intelReqdSubGroupSize: n(k.intelReqdSubGroupSize),
      },
      slots: k.args.map((a) => ({
        name: a.name,
        param: a.param,
        role: a.role,
        props: {
          addressSpace: a.addrSpace,
          access: s(a.accessQual),
          typeName: a.typeName,
          baseType: a.baseType,
          typeQual: s(a.typeQual),
        },
      })),
    })),
  };
}
