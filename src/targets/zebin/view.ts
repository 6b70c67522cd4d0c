import { type PlanView, layoutFact as lay, numberFact as n, stringFact as s } from '../../abi/plan-view.js';
import type { ZebinPlan } from './plan.js';

/** Slot properties in display order: only these are compared across two targets. */
export const ZEBIN_VOCABULARY = ['argType', 'offset', 'size', 'argIndex', 'addrmode', 'addrspace', 'accessType', 'slmAlignment', 'pieces', 'imageType', 'imageTransformable', 'samplerIndex', 'typeName', 'layout'] as const;

/** The cross-thread payload as the ABI diff sees it. */
export function zebinView(plan: ZebinPlan): PlanView {
  return {
    facts: { device: plan.device },
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      facts: { payloadSize: k.payloadSize },
      slots: k.args.map((a) => ({
        name: a.name,
        param: a.param,
        role: a.role,
        props: {
          argType: a.argType,
          offset: a.offset,
          size: a.size,
          argIndex: n(a.argIndex),
          addrmode: s(a.addrmode),
          addrspace: s(a.addrspace),
          accessType: s(a.accessType),
          slmAlignment: n(a.slmAlignment),
          pieces: a.pieces ? a.pieces.map((p) => `${p.sourceOffset}@${p.offset}+${p.size}`).join(',') : null,
          imageType: s(a.imageType),
          imageTransformable: a.imageTransformable ? 'true' : null,
          samplerIndex: n(a.samplerIndex),
          typeName: s(a.typeName),
          layout: lay(a.layout),
        },
      })),
    })),
  };
}
