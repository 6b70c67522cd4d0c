import {
  type PlanView,
  layoutFact as lay,
  numberFact as n,
  stringFact as s,
  tripleFact as triple,
} from '../../abi/plan-view.js';
import type { OpenCLPlan } from '../../abi/plan.js';

/** Slot properties in display order: only these are compared across two targets. */
export const OPENCL_VOCABULARY = ['index', 'kind', 'addressSpace', 'access', 'typeName', 'size', 'layout'] as const;

/** The clSetKernelArg plan as the ABI diff sees it. */
export function openclView(plan: OpenCLPlan): PlanView {
  return {
    facts: { arch: plan.arch },
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
          index: a.index,
          kind: a.kind,
          addressSpace: s(a.addressSpace),
          access: s(a.access),
          typeName: a.typeName,
          size: a.size,
          layout: lay(a.layout),
        },
      })),
    })),
  };
}
