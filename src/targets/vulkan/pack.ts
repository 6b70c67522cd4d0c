import type { PackOptions } from '../../runtime/pack/launch.js';
import { type PackLayout, packLayout } from '../../runtime/pack/placement.js';
import { type BindingsPacker, bindingsPacker } from '../../runtime/pack/views.js';
import type { VulkanPlan } from './lower.js';

/** A kernel's push constants, descriptor bindings and spec constants as the packer reads them (its slots' where and fill). */
export function vulkanBindings(plan: VulkanPlan, kernel: string): PackLayout {
  return packLayout(plan, kernel, (k) => ({ segment: 0, pushConstants: k.podSize }));
}

export function vulkanPacker(plan: VulkanPlan, kernel: string, options: PackOptions = {}): BindingsPacker {
  return bindingsPacker(vulkanBindings(plan, kernel), options);
}
