import { type PlanView, layoutFact as lay, numberFact as n, stringFact as s } from '../../abi/plan-view.js';
import type { AmdhsaPlan } from '../../abi/plan.js';

/** Slot properties in display order: only these are compared across two targets. */
export const AMDHSA_VOCABULARY = [
  'offset',
  'size',
  'align',
  'kind',
  'addressSpace',
  'access',
  'pointeeAlign',
  'typeName',
  'layout',
] as const;

/** The kernarg segment as the ABI diff sees it. */
export function amdhsaView(plan: AmdhsaPlan): PlanView {
  return {
    facts: { codeObject: plan.codeObject, llvm: plan.llvm, mcpu: plan.mcpu },
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      facts: { segmentSize: k.kernargSegmentSize, segmentAlign: k.kernargSegmentAlign },
      slots: k.args.map((a) => ({
        name: a.name,
        param: a.param,
        role: a.role,
        props: {
          offset: a.offset,
          size: a.size,
          align: n(a.align),
          kind: a.valueKind,
          addressSpace: s(a.addressSpace),
          access: s(a.access),
          pointeeAlign: n(a.pointeeAlign),
          typeName: s(a.typeName),
          layout: lay(a.layout),
        },
      })),
    })),
  };
}
