import { type PlanView, layoutFact as lay, numberFact as n, stringFact as s } from '../../abi/plan-view.js';
import type { CudaPlan } from './plan.js';

/** Slot properties in display order: only these are compared across two targets. */
export const CUDA_VOCABULARY = [
  'index',
  'offset',
  'size',
  'align',
  'ptxType',
  'space',
  'ptrAlign',
  'typeName',
  'layout',
] as const;

/** The parameter buffer as the ABI diff sees it. */
export function cudaView(plan: CudaPlan): PlanView {
  return {
    facts: { arch: plan.arch, sm: plan.sm, localMemory: plan.localMemory },
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      facts: { segmentSize: k.paramBytes },
      slots: k.args.map((a) => ({
        name: a.name,
        param: a.param,
        role: a.role,
        props: {
          index: a.index,
          offset: a.offset,
          size: a.size,
          align: a.align,
          ptxType: a.ptxType,
          space: s(a.space),
          ptrAlign: n(a.pointeeAlign),
          typeName: s(a.typeName),
          layout: lay(a.layout),
        },
      })),
    })),
  };
}
