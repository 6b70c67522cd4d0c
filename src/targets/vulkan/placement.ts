// Where each clspv argument lives (push constants, a descriptor binding, a spec constant) and how
// it is filled. Attached by the lowering and by readPlan.
import type { Bare } from '../../abi/plan.js';
import type { SlotWhere } from '../../layout/placement.js';
import { type UnplacedSlot, placeSlot } from '../../abi/slot-shape.js';
import { assertNever } from '../../assert-never.js';
import type { VulkanKernelPlan, VulkanSlot } from './plan.js';

/** A field a slot's place needs and a plan lacks: the reason its kernel cannot be packed. */
class Missing {
  constructor(readonly reason: string) {}
}

const need = <T>(v: T | undefined, a: Bare<VulkanSlot>, what: string): T => {
  if (v === undefined)
    throw new Missing(`argument '${a.name}': a ${a.argKind} argument needs ${what}, which the plan lacks`);
  return v;
};

/** A descriptor binding's place: byte fills go at the slot's offset of the binding's `bytes`-long buffer. */
function descriptor(a: Bare<VulkanSlot>, bytes: number): SlotWhere {
  return {
    kind: 'descriptor',
    set: need(a.descriptorSet, a, 'a descriptor set'),
    binding: need(a.binding, a, 'a binding'),
    offset: a.offset ?? 0,
    bytes,
  };
}

/**
 * Where a slot lives: PODs in the push-constant block or a descriptor's buffer (clustered, all
 * PODs share one binding and its podSize bytes; otherwise each has its own argSize bytes), local
 * arguments in their spec constant, resources at their descriptor. Written onto the slot (placeSlot).
 */
function place(a: UnplacedSlot<VulkanSlot>, podSize: number, clustered: boolean): void {
  const param = a.name;
  switch (a.argKind) {
    case 'local':
      placeSlot<VulkanSlot>(
        a,
        { kind: 'spec-constant', id: need(a.specId, a, 'a spec id') },
        { kind: 'local-bytes', param, elementSize: need(a.arrayElemSize, a, 'an element size') },
      );
      return;
    case 'pointer_pushconstant':
      // --physical-storage-buffers: the buffer's device address, 8 bytes among the PODs.
      placeSlot<VulkanSlot>(
        a,
        { kind: 'push-constant', offset: need(a.offset, a, 'an offset') },
        { kind: 'address', param, bytes: 8 },
      );
      return;
    case 'pointer_ubo':
      placeSlot<VulkanSlot>(a, descriptor(a, podSize), { kind: 'address', param, bytes: 8 });
      return;
    case 'pod_pushconstant':
      placeSlot<VulkanSlot>(
        a,
        { kind: 'push-constant', offset: need(a.offset, a, 'an offset') },
        { kind: 'value', param, layout: need(a.layout, a, 'a layout') },
      );
      return;
    case 'pod':
    case 'pod_ubo':
      placeSlot<VulkanSlot>(a, descriptor(a, clustered ? podSize : need(a.argSize, a, 'an argument size')), {
        kind: 'value',
        param,
        layout: need(a.layout, a, 'a layout'),
      });
      return;
    case 'buffer':
    case 'buffer_ubo':
    case 'ro_image':
    case 'wo_image':
    case 'storage_texel_buffer':
    case 'uniform_texel_buffer':
    case 'sampler':
      placeSlot<VulkanSlot>(a, descriptor(a, 0), { kind: 'handle', param, resource: a.argKind });
      return;
    default:
      assertNever(a.argKind);
  }
}

/** The slot's place, or the reason it has none (given when a packer is made for its kernel). */
function placeOrSayWhyNot(a: UnplacedSlot<VulkanSlot>, podSize: number, clustered: boolean): void {
  try {
    place(a, podSize, clustered);
  } catch (e) {
    if (!(e instanceof Missing)) throw e;
    placeSlot<VulkanSlot>(a, { kind: 'unplaced', reason: e.reason }, { kind: 'zero' });
  }
}

/**
 * A kernel whose slots carry their `where` and `fill`: PODs are clustered when they share at most
 * one binding. Slots are placed in place (each is the one its lowering or readPlan just built; kernels of one shape
 * share a slot list only once it is placed, src/targets/vulkan/lower.ts).
 */
export function placeVulkanKernel<
  K extends Omit<VulkanKernelPlan, 'args'> & { readonly args: readonly Bare<VulkanSlot>[] },
>(k: K): K & VulkanKernelPlan {
  let clustered = true;
  let podBinding: number | undefined | null = null;
  for (const x of k.args) {
    if (x.argKind !== 'pod' && x.argKind !== 'pod_ubo') continue;
    if (podBinding === null) podBinding = x.binding;
    else if (x.binding !== podBinding) clustered = false;
  }
  for (const a of k.args) placeOrSayWhyNot(a, k.podSize, clustered);
  return k as K & VulkanKernelPlan;
}
