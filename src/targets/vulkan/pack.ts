import { RuntimeInputError } from '../../runtime/pack/errors.js';
import { type PackOptions, kernelOf } from '../../runtime/pack/launch.js';
import type { PackLayout, PlacedSlot } from '../../runtime/pack/placement.js';
import { type BindingsPacker, bindingsPacker } from '../../runtime/pack/views.js';
import type { VulkanKernelPlan, VulkanPlan, VulkanSlot } from './lower.js';

/** A field the slot's place needs; a plan (read from JSON) without it cannot be packed. */
const need = <T>(v: T | undefined, a: VulkanSlot, what: string): T => {
  if (v === undefined) throw new RuntimeInputError(`argument '${a.name}': a ${a.argKind} argument needs ${what}, which the plan lacks`);
  return v;
};

/**
 * Where a slot lives: PODs in the push-constant block or a descriptor's buffer (clustered, all
 * PODs share one binding and its podSize bytes; otherwise each has its own argSize bytes), local
 * arguments in their spec constant, resources at their descriptor.
 */
function placed(a: VulkanSlot, k: VulkanKernelPlan, clustered: boolean): PlacedSlot {
  const param = a.name;
  const descriptor = (bytes: number) => ({ kind: 'descriptor', set: need(a.descriptorSet, a, 'a descriptor set'), binding: need(a.binding, a, 'a binding'), offset: a.offset ?? 0, bytes }) as const;
  switch (a.argKind) {
    case 'local':
      return { where: { kind: 'spec-constant', id: need(a.specId, a, 'a spec id') }, fill: { kind: 'local-bytes', param, elementSize: need(a.arrayElemSize, a, 'an element size') } };
    case 'pointer_pushconstant':
      // --physical-storage-buffers: the buffer's device address, 8 bytes among the PODs.
      return { where: { kind: 'push-constant', offset: need(a.offset, a, 'an offset') }, fill: { kind: 'address', param, bytes: 8 } };
    case 'pointer_ubo':
      return { where: descriptor(k.podSize), fill: { kind: 'address', param, bytes: 8 } };
    case 'pod_pushconstant':
      return { where: { kind: 'push-constant', offset: need(a.offset, a, 'an offset') }, fill: { kind: 'value', param, layout: need(a.layout, a, 'a layout') } };
    case 'pod':
    case 'pod_ubo':
      return { where: descriptor(clustered ? k.podSize : need(a.argSize, a, 'an argument size')), fill: { kind: 'value', param, layout: need(a.layout, a, 'a layout') } };
    case 'buffer':
    case 'buffer_ubo':
    case 'ro_image':
    case 'wo_image':
    case 'sampler':
      return { where: descriptor(0), fill: { kind: 'handle', param, resource: a.argKind } };
  }
}

/** A kernel's push constants, descriptor bindings and spec constants as the packer reads them. */
export function vulkanBindings(plan: VulkanPlan, kernel: string): PackLayout {
  const k = kernelOf(plan, kernel);
  const clustered = new Set(k.args.filter((x) => x.argKind === 'pod' || x.argKind === 'pod_ubo').map((x) => x.binding)).size <= 1;
  const pushed = k.args.some((x) => x.argKind === 'pod_pushconstant' || x.argKind === 'pointer_pushconstant');
  return { kernel, names: k.args.map((a) => a.name), segmentSize: 0, pushConstantSize: pushed ? k.podSize : 0, slots: k.args.map((a) => placed(a, k, clustered)) };
}

export function vulkanPacker(plan: VulkanPlan, kernel: string, options: PackOptions = {}): BindingsPacker {
  return bindingsPacker(vulkanBindings(plan, kernel), options);
}
