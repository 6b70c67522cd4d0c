// Whether a device and context can run an entry point: the features, extensions and limits its
// module needs, each unmet one a clear error before anything is made.
import type { VulkanPlan } from '../../targets/vulkan/lower.js';
import { RuntimeInputError } from '../../pack/errors.js';
import type { VulkanContext } from './context.js';
import { moduleNeeds } from './module-needs.js';

/** The module-wide features, extensions and limits an entry point needs; a clear error for the first unmet. */
export function checkDevice(ctx: VulkanContext, name: string, plan: VulkanPlan, words: Uint32Array): void {
  const needs = moduleNeeds(words);
  if (!needs.entryPoints.includes(name))
    throw new RuntimeInputError(
      `the SPIR-V module has no entry point '${name}' (have ${needs.entryPoints.join(', ') || 'none'})`,
    );
  for (const f of new Set([...plan.vulkanFeatures, ...needs.features])) {
    if (ctx.enabled.has(f)) continue;
    const why = ctx.supported.has(f)
      ? 'which this context was opened without (VulkanContext.open(filter, { features }))'
      : `which ${ctx.device.name} lacks`;
    throw new RuntimeInputError(`kernel '${name}' needs the Vulkan feature ${f}, ${why}`);
  }
  for (const e of needs.extensions) {
    if ((e.core !== undefined && ctx.apiVersion >= e.core) || ctx.enabledExtensions.has(e.name)) continue;
    throw new RuntimeInputError(
      `kernel '${name}' needs the Vulkan extension ${e.name}, ` +
        `which ${ctx.device.name} ${ctx.extensions.has(e.name) ? 'offers but this context did not enable' : 'lacks'}`,
    );
  }
  if (plan.literalSamplers.length || plan.constantData)
    throw new RuntimeInputError(
      `kernel '${name}': literal samplers and module constants are not supported by kernarg's Vulkan host`,
    );
  const range = plan.pushConstantRange;
  if (range && range.offset + range.size > ctx.limits.maxPushConstantsSize) {
    throw new RuntimeInputError(
      `kernel '${name}': the push constants take ${range.offset + range.size} bytes, ${ctx.device.name} ` +
        `allows ${ctx.limits.maxPushConstantsSize} (maxPushConstantsSize); place the PODs in a storage or uniform ` +
        `buffer`,
    );
  }
}
