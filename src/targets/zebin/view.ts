import { type PlanView, layoutFact as lay, numberFact as n, stringFact as s } from '../../abi/plan-view.js';
import type { ZebinPlan } from './plan.js';

/**
 * Slot properties in display order: only these are compared across two targets. `.ze_info`'s own
 * fields go by the names the ABI diff already knows where they mean the same: `arg_index` is the
 * `index` a host passes to clSetKernelArg / zeKernelSetArgumentValue, `arg_type` the `kind`,
 * `addrspace` and `access_type` the `addressSpace` and `access`, `slm_alignment` the `pointeeAlign`.
 */
export const ZEBIN_VOCABULARY = [
  'index',
  'offset',
  'size',
  'kind',
  'addrmode',
  'addressSpace',
  'access',
  'pointeeAlign',
  'pieces',
  'imageType',
  'imageTransformable',
  'samplerIndex',
  'typeName',
  'layout',
] as const;

/** The cross-thread payload as the ABI diff sees it. */
export function zebinView(plan: ZebinPlan): PlanView {
  return {
    facts: { device: plan.device },
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      facts: { segmentSize: k.payloadSize },
      slots: k.args.map((a) => ({
        name: a.name,
        param: a.param,
        role: a.role,
        props: {
          index: n(a.argIndex),
          offset: a.offset,
          size: a.size,
          kind: a.argType,
          addrmode: s(a.addrmode),
          addressSpace: s(a.addrspace),
          access: s(a.accessType),
          pointeeAlign: n(a.slmAlignment),
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
