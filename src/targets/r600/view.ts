import { type PlanView, layoutFact as lay, numberFact as n, stringFact as s } from '../../abi/plan-view.js';
import type { R600Plan } from './lower.js';

/** Slot properties in display order: only these are compared across two targets. */
export const R600_VOCABULARY = ['offset', 'size', 'irType', 'access', 'resourceId', 'typeName', 'layout'] as const;

/** The r600 input buffer as the ABI diff sees it. */
export function r600View(plan: R600Plan): PlanView {
  return {
    facts: { mcpu: plan.mcpu },
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      facts: { segmentSize: k.inputSize },
      slots: k.args.map((a) => ({
        name: a.name,
        param: a.param,
        role: a.role,
        props: {
          offset: a.offset,
          size: a.size,
          irType: s(a.irType),
          access: s(a.accessQual),
          resourceId: n(a.resourceId),
          typeName: a.typeName,
          layout: lay(a.layout),
        },
      })),
    })),
  };
}
