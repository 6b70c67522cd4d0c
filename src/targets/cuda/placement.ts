// Where each `.param` lives (its bytes in the packed parameter buffer) and how it is filled: values
// in their layout, addresses of buffers, images and samplers (a CUDA host passes each as a 64- or
// 32-bit handle), local arguments as their block's offset in the launch's dynamic shared memory,
// and pocl's appended parameters from the launch geometry. Attached by the lowering and by readPlan.
import type { Bare } from '../../abi/plan.js';
import type { SlotFill } from '../../layout/placement.js';
import { placeSlot } from '../../abi/slot-shape.js';
import type { CudaKernelPlan, CudaLocalMemory, CudaSlot } from './plan.js';
import { POCL_APPENDED, POCL_APPENDED_BYTES } from './pocl-appended.js';

/** Why an address is refused for a 4-byte pointer parameter (the packer's, and the host's for integers given a buffer). */
export const NVPTX_ADDRESS_OVERFLOW = 'does not fit the 32-bit pointers of nvptx (.address_size 32)';

const AXIS_OF_SUFFIX: Readonly<Record<string, 0 | 1 | 2>> = { x: 0, y: 1, z: 2 };

function fillOf(a: Bare<CudaSlot>, local: CudaLocalMemory): SlotFill {
  if (a.param === null) {
    // A plan read from JSON may name another hidden parameter: it is filled as a global offset, its axis by its last
    // letter.
    const row = Object.hasOwn(POCL_APPENDED, a.name) ? POCL_APPENDED[a.name as keyof typeof POCL_APPENDED] : undefined;
    return {
      kind: 'geometry',
      field: row?.field ?? 'global-offset',
      axis: row?.axis ?? AXIS_OF_SUFFIX[a.name.slice(-1)] ?? 0,
      bytes: POCL_APPENDED_BYTES,
    };
  }
  if (a.role === 'local') return { kind: 'lds-offset', param: a.name };
  if (a.layout) return { kind: 'value', param: a.name, layout: a.layout };
  // pocl copies a constant buffer into its constant bank and passes the copy's offset there.
  if (local === 'pocl' && a.ptxType === 'u32' && a.space === undefined)
    return { kind: 'hidden', key: `pocl_constant_offset:${a.name}`, bytes: 4 };
  if (a.size !== 4) return { kind: 'address', param: a.name, bytes: 8 };
  // A 32-bit (nvptx) parameter cannot hold a device address past 4 GiB: refused, never cut to its low half.
  return { kind: 'address', param: a.name, bytes: 4, overflow: { path: a.name, text: NVPTX_ADDRESS_OVERFLOW } };
}

/** A kernel whose slots carry their `where` (bytes of the parameter buffer) and `fill`, written onto them in place. */
export function placeCudaKernel<K extends Omit<CudaKernelPlan, 'args'> & { readonly args: readonly Bare<CudaSlot>[] }>(
  k: K,
  local: CudaLocalMemory,
): K & CudaKernelPlan {
  for (const a of k.args) placeSlot<CudaSlot>(a, { kind: 'segment', offset: a.offset, size: a.size }, fillOf(a, local));
  return k as K & CudaKernelPlan;
}
