// Where each clspv argument lives (push constants, a descriptor binding, a spec constant) and how
// it is filled. Attached by the lowering and by readPlan.
import type { Bare } from '../../abi/plan.js';
import type { PlacedSlot } from '../../layout/placement.js';
import { withPlacement } from '../../abi/placed-once.js';
import type { VulkanKernelPlan, VulkanSlot } from './plan.js';

/** A field a slot's place needs and a plan lacks: the reason its kernel cannot be packed. */
class Missing {
  constructor(readonly reason: string) {}
}

const need = <T>(v: T | undefined, a: Bare<VulkanSlot>, what: string): T => {
  if (v === undefined) throw new Missing(`argument '${a.name}': a ${a.argKind} argument needs ${what}, which the plan lacks`);
  return v;
};

/**
 * Where a slot lives: PODs in the push-constant block or a descriptor's buffer (clustered, all
 * PODs share one binding and its podSize bytes; otherwise each has its own argSize bytes), local
 * arguments in their spec constant, resources at their descriptor.
 */
function placed(a: Bare<VulkanSlot>, podSize: number, clustered: boolean): PlacedSlot {
  const param = a.name;
  const descriptor = (bytes: number) => ({ kind: 'descriptor', set: need(a.descriptorSet, a, 'a descriptor set'), binding: need(a.binding, a, 'a binding'), offset: a.offset ?? 0, bytes }) as const;
  switch (a.argKind) {
    case 'local':
      return { where: { kind: 'spec-constant', id: need(a.specId, a, 'a spec id') }, fill: { kind: 'local-bytes', param, elementSize: need(a.arrayElemSize, a, 'an element size') } };
    case 'pointer_pushconstant':
      // --physical-storage-buffers: the buffer's device address, 8 bytes among the PODs.
      return { where: { kind: 'push-constant', offset: need(a.offset, a, 'an offset') }, fill: { kind: 'address', param, bytes: 8 } };
    case 'pointer_ubo':
      return { where: descriptor(podSize), fill: { kind: 'address', param, bytes: 8 } };
    case 'pod_pushconstant':
      return { where: { kind: 'push-constant', offset: need(a.offset, a, 'an offset') }, fill: { kind: 'value', param, layout: need(a.layout, a, 'a layout') } };
    case 'pod':
    case 'pod_ubo':
      return { where: descriptor(clustered ? podSize : need(a.argSize, a, 'an argument size')), fill: { kind: 'value', param, layout: need(a.layout, a, 'a layout') } };
    case 'buffer':
    case 'buffer_ubo':
    case 'ro_image':
    case 'wo_image':
    case 'sampler':
      return { where: descriptor(0), fill: { kind: 'handle', param, resource: a.argKind } };
  }
}

/** The slot's place, or the reason it has none (given when a packer is made for its kernel). */
function placedOrWhyNot(a: Bare<VulkanSlot>, podSize: number, clustered: boolean): PlacedSlot {
  try {
    return placed(a, podSize, clustered);
  } catch (e) {
    if (e instanceof Missing) return { where: { kind: 'unplaced', reason: e.reason }, fill: { kind: 'zero' } };
    throw e;
  }
}

/** A kernel whose slots carry their `where` and `fill`: PODs are clustered when they share at most one binding. */
export function placeVulkanKernel<K extends Omit<VulkanKernelPlan, 'args'> & { readonly args: readonly Bare<VulkanSlot>[] }>(k: K): K & VulkanKernelPlan {
  let clustered = true;
  let podBinding: number | undefined | null = null;
  for (const x of k.args) {
    if (x.argKind !== 'pod' && x.argKind !== 'pod_ubo') continue;
    if (podBinding === null) podBinding = x.binding;
    else if (x.binding !== podBinding) clustered = false;
  }
  for (const a of k.args) withPlacement<VulkanSlot>(a, () => placedOrWhyNot(a, k.podSize, clustered), false);
  return k as K & VulkanKernelPlan;
}
