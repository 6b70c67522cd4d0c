import type { HostRule } from '../../abi/origin.js';
import { PHYSICAL_STORAGE_REQUIREMENTS } from './physical-pointers.js';
import type { VulkanKernelPlan, VulkanPlan, VulkanSlot } from './plan.js';

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
  if (!plan || !plan.kernels.some(hasAddressTable)) return plan;
  return { ...withAddressTableNeeds(plan), kernels: plan.kernels.map(withAddressTableSlots) };
}

/** Some slot of the kernel is a group's table (what `withAddressTables` marks). */
export const hasAddressTable = (k: VulkanKernelPlan): boolean => k.args.some(isTable);

/** The plan's fields with what address tables need added (`withAddressTables`, a plan made a kernel at a time). */
export function withAddressTableNeeds<P extends Omit<VulkanPlan, 'kernels'>>(plan: P): P {
  const add = (list: readonly string[], xs: readonly string[]) => [...list, ...xs.filter((x) => !list.includes(x))];
  const need = PHYSICAL_STORAGE_REQUIREMENTS;
  return {
    ...plan,
    capabilities: add(plan.capabilities, need.capabilities),
    spirvExtensions: add(plan.spirvExtensions, need.spirvExtensions),
    vulkanFeatures: add(plan.vulkanFeatures, need.vulkanFeatures),
    vulkanExtensions: add(plan.vulkanExtensions, need.vulkanExtensions),
  };
}

/** One kernel's plan with its table slots marked. */
export function withAddressTableSlots(k: VulkanKernelPlan): VulkanKernelPlan {
  return {
    ...k,
    args: k.args.map((a) => (isTable(a) ? { ...a, pointerTable: 'PhysicalStorageBuffer64' as const } : a)),
  };
}
