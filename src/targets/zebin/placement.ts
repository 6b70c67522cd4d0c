// Where each zebin payload argument lives (bytes of the cross-thread payload) and how it is filled.
// Images and samplers are binding-table entries the driver writes, not payload bytes; a struct IGC
// splits into pieces lands in the payload in another shape than its own, which the packer does not write.
import type { Bare } from '../../abi/plan.js';
import type { SlotFill, SlotWhere } from '../../layout/placement.js';
import { isPlaced, placeSlot } from '../../abi/slot-shape.js';
import { assertNever } from '../../assert-never.js';
import type { ZebinKernelPlan, ZebinSlot } from './plan.js';

function whereOf(a: Bare<ZebinSlot>): SlotWhere {
  switch (a.argType) {
    case 'arg_bypointer':
      if (a.addrmode === 'stateful')
        return {
          kind: 'unplaced',
          reason:
            `'${a.name}' is a binding-table entry the driver writes (Level Zero / Intel OpenCL), not payload ` +
            `bytes`,
        };
      return { kind: 'segment', offset: a.offset, size: a.size };
    case 'arg_byvalue':
      if (a.pieces && a.pieces.length > 1)
        return {
          kind: 'unplaced',
          reason:
            `IGC splits '${a.name}' into ${a.pieces.length} pieces at their own payload offsets: kernarg's ` +
            `packer writes a value in its own layout`,
        };
      return { kind: 'segment', offset: a.offset, size: a.size };
    case 'none':
      return { kind: 'unplaced', reason: `IGC gives '${a.name}' no payload entry` };
    case 'global_size':
      return { kind: 'unplaced', reason: "kernarg's packer has no global-size launch field" };
    default:
      return { kind: 'segment', offset: a.offset, size: a.size };
  }
}

function fillOf(a: Bare<ZebinSlot>): SlotFill {
  switch (a.argType) {
    case 'arg_bypointer':
      if (a.addrmode === 'slm') return { kind: 'lds-offset', param: a.name };
      if (a.addrmode === 'stateful') return { kind: 'handle', param: a.name, resource: a.addrspace ?? 'resource' };
      return { kind: 'address', param: a.name, bytes: 8 };
    case 'buffer_address':
      return { kind: 'address', param: a.name, bytes: 8 };
    case 'arg_byvalue':
      return a.layout ? { kind: 'value', param: a.name, layout: a.layout } : { kind: 'zero' };
    case 'global_id_offset':
      return { kind: 'geometry', field: 'global-offset', axis: 0, bytes: 4, axes: 3 };
    case 'local_size':
    case 'enqueued_local_size':
      return { kind: 'geometry', field: 'group-size', axis: 0, bytes: 4, axes: 3 };
    case 'group_count':
      return { kind: 'geometry', field: 'block-count', axis: 0, bytes: 4, axes: 3 };
    case 'work_dimensions':
      return { kind: 'geometry', field: 'grid-dims', axis: 0, bytes: 4 };
    case 'private_base_stateless':
    case 'printf_buffer':
      return { kind: 'hidden', key: a.argType, bytes: 8 };
    case 'global_size':
    case 'image_height':
    case 'image_width':
    case 'image_depth':
    case 'image_array_size':
    case 'image_channel_data_type':
    case 'image_channel_order':
    case 'sampler_snap_wa':
      return { kind: 'hidden', key: a.name, bytes: 4 };
    case 'none':
      return { kind: 'zero' };
    default:
      return assertNever(a.argType);
  }
}

/**
 * A kernel whose slots carry their `where` and `fill` (written in place), from the lowering and from readPlan; a slot
 * the kernels of a lowering share (the payload header's) keeps what the first kernel wrote.
 */
export function placeZebinKernel<
  K extends Omit<ZebinKernelPlan, 'args'> & { readonly args: readonly Bare<ZebinSlot>[] },
>(k: K): K & ZebinKernelPlan {
  for (const a of k.args) if (!isPlaced<ZebinSlot>(a)) placeSlot<ZebinSlot>(a, whereOf(a), fillOf(a));
  return k as K & ZebinKernelPlan;
}
