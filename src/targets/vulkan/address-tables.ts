import type { HostRule } from '../../abi/origin.js';
import type { Parameter } from '../../model/kernel-module.js';
import { PHYSICAL_STORAGE_REQUIREMENTS } from './today.js';
import type { VulkanPlan, VulkanSlot } from './plan.js';

/** Whether a buffer parameter is a tinytc group's table (a derived parameter: the data of a group, one entry per member). */
export const isTableParam = (p: Parameter): boolean => p.origin?.perMember === true && p.origin.role === 'data';

/**
 * Plans `lowerVulkan` made and found no table in while it made their slots: `withAddressTables`
 * returns them as they are without looking at every slot again.
 */
const tableFree = new WeakSet<VulkanPlan>();
export function markTableFree(plan: VulkanPlan): VulkanPlan {
  tableFree.add(plan);
  return plan;
}

const isTable = (s: VulkanSlot) => {
  const h = (s as VulkanSlot & { host?: HostRule }).host;
  return s.argKind === 'buffer' && h?.perMember === true && h.take === 'data';
};

/**
 * tinytc group arguments on Vulkan: a descriptor cannot hold an array of pointers, so a group's
 * table is a storage buffer of 64-bit buffer device addresses (PhysicalStorageBuffer64), one per
 * member. Marks those slots and adds what the module then needs to the plan.
 */
export function withAddressTables(plan: VulkanPlan | undefined): VulkanPlan | undefined {
  if (!plan || tableFree.has(plan) || !plan.kernels.some((k) => k.args.some(isTable))) return plan;
  const add = (list: readonly string[], xs: readonly string[]) => [...list, ...xs.filter((x) => !list.includes(x))];
  const need = PHYSICAL_STORAGE_REQUIREMENTS;
  return {
    ...plan,
    capabilities: add(plan.capabilities, need.capabilities),
    spirvExtensions: add(plan.spirvExtensions, need.spirvExtensions),
    vulkanFeatures: add(plan.vulkanFeatures, need.vulkanFeatures),
    vulkanExtensions: add(plan.vulkanExtensions, need.vulkanExtensions),
    kernels: plan.kernels.map((k) => ({ ...k, args: k.args.map((a) => (isTable(a) ? { ...a, pointerTable: 'PhysicalStorageBuffer64' as const } : a)) })),
  };
}
