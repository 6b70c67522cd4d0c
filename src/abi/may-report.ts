// Whether a streamed lowering must check its kernels before it writes anything (`KernelwiseLowering.quiet` is the
// answer's negation). A target that can refuse a parameter, or a kernel whose parameters pass a size limit, lowers every
// kernel once first where some kernel might: on a file of 190,000 kernels that pass cost as much as a format's writing
// (issue 30). Where the refusals and the sizes are the parameters' types' alone, asking each type once answers it.
import type { FunctionInfo, Parameter } from '../model/kernel-module.js';
import type { QualType } from '../types/types.js';

/**
 * Whether some kernel has a parameter whose type `cost` refuses (undefined), or parameters whose costs, with `base`,
 * add up past `limit`. `cost(p)` must depend on `p.type` alone (a parameter's name and span only say where a refusal is
 * reported): each type is asked once, and the frontends intern types, so a file of very many kernels asks a few times.
 */
export function someKernelMayReport(
  kernels: readonly FunctionInfo[],
  cost: (p: Parameter) => number | undefined,
  limit = Infinity,
  base = 0,
): boolean {
  const costs = new Map<QualType, number>();
  for (const k of kernels) {
    let total = base;
    for (const p of k.params) {
      let c = costs.get(p.type);
      if (c === undefined) costs.set(p.type, (c = cost(p) ?? -1));
      if (c < 0) return true;
      total += c;
    }
    if (total > limit) return true;
  }
  return false;
}
