import type { OpenCLPlan } from '../abi/plan.js';

/**
 * An OpenCL plan as plain data, for embedding (typed bindings) and for capture files: each slot
 * without its source type (a compiler object the packer never reads), everything else — layouts,
 * indices, sizes, tinytc host rules — as it is. `kernels` narrows it to some kernels.
 */
export function portablePlan(plan: OpenCLPlan, kernels?: readonly string[]): OpenCLPlan {
  const keep = kernels ? plan.kernels.filter((k) => kernels.includes(k.name)) : plan.kernels;
  const text = JSON.stringify({ ...plan, kernels: keep }, function (key, value) {
    // Slots are the only objects with both `kind` and `index`; their `type` is the QualType.
    if (key === 'type' && typeof value === 'object' && value !== null && 'index' in this && 'kind' in this)
      return undefined;
    return value;
  });
  return JSON.parse(text) as OpenCLPlan;
}
