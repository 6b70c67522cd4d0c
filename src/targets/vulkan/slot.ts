import type { SlotFields, SlotLiteral } from '../../abi/slot-shape.js';
import type { VulkanSlot } from './plan.js';

/** A vulkan slot: every key in one order, `where` and `fill` undefined (src/abi/slot-shape.ts says why). */
export function vulkanSlot(f: SlotFields<VulkanSlot>): SlotLiteral<VulkanSlot> {
  return {
    name: f.name,
    param: f.param,
    role: f.role,
    dim: f.dim,
    host: f.host,
    typeName: f.typeName,
    type: f.type,
    argKind: f.argKind,
    descriptorSet: f.descriptorSet,
    binding: f.binding,
    offset: f.offset,
    argSize: f.argSize,
    specId: f.specId,
    arrayElemSize: f.arrayElemSize,
    vkDescriptorType: f.vkDescriptorType,
    pointerTable: f.pointerTable,
    layout: f.layout,
    reflection: f.reflection,
    where: undefined,
    fill: undefined,
  };
}
