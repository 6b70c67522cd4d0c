import { type PlanView, layoutFact as lay, numberFact as n, stringFact as s } from '../../abi/plan-view.js';
import type { AmdCl2Plan } from '../../abi/plan.js';

/** Slot properties in display order: only these are compared across two targets. */
export const AMD_CL2_VOCABULARY = [
  'offset',
  'size',
  'align',
  'kind',
  'addressSpace',
  'access',
  'resourceId',
  'typeName',
  'layout',
] as const;

/** The argument buffer and user SGPRs as the ABI diff sees them. */
export function amdCl2View(plan: AmdCl2Plan): PlanView {
  return {
    facts: { bits: plan.bits, driver: plan.driver, use: plan.use.join(','), gfx9: String(plan.gfx9) },
    kernels: plan.kernels.map((k) => {
      const g = k.userSgprs;
      const pair = (p: readonly [number, number] | null) => (p ? `s[${p.join(':')}]` : null);
      return {
        name: k.name,
        facts: {
          segmentSize: k.kernargSize,
          userSgprCount: g.count,
          setupPointerSgprs: pair(g.setupPointer),
          argsPointerSgprs: pair(g.argsPointer),
          flatBasesSgprs: pair(g.flatBasesPointer),
        },
        slots: k.args.map((a) => ({
          name: a.name,
          param: a.param,
          role: a.role,
          props: {
            offset: a.offset,
            size: a.size,
            align: a.align,
            kind: a.argType,
            addressSpace: s(a.addressSpace),
            access: s(a.access),
            resourceId: n(a.resourceId),
            typeName: a.typeName,
            layout: lay(a.layout),
          },
        })),
      };
    }),
  };
}
