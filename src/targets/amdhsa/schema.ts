import { PlanError, arrayOf, ident, nat, object, oneOf, str } from '../../abi/plan-schema.js';
import { ACCESS, SPACES, bytes, checkKernels, layoutCheck, slotBase, slotExtra } from '../../abi/plan-fields.js';
import type { AmdhsaPlan } from '../../abi/plan.js';
import { AMDGPU_PROCESSOR_NAMES } from '../../abi/amdgpu-processors.js';
import { placeAmdhsaKernel } from './placement.js';

const HIDDEN = ['hidden_dynamic_lds_size', 'hidden_global_offset_x', 'hidden_global_offset_y', 'hidden_global_offset_z', 'hidden_printf_buffer', 'hidden_hostcall_buffer', 'hidden_default_queue', 'hidden_completion_action', 'hidden_none', 'hidden_multigrid_sync_arg', 'hidden_block_count_x', 'hidden_block_count_y', 'hidden_block_count_z', 'hidden_group_size_x', 'hidden_group_size_y', 'hidden_group_size_z', 'hidden_remainder_x', 'hidden_remainder_y', 'hidden_remainder_z', 'hidden_grid_dims', 'hidden_heap_v1', 'hidden_queue_ptr'];
const VALUE_KINDS = ['by_value', 'global_buffer', 'dynamic_shared_pointer', 'image', 'sampler', 'queue', 'pipe', ...HIDDEN];
const schema = object({
  target: oneOf(['amdhsa']),
  codeObject: oneOf([4, 5, 6]),
  llvm: oneOf([16, 19, 22]),
  mcpu: oneOf(AMDGPU_PROCESSOR_NAMES),
  kernels: arrayOf(object({
    name: ident,
    args: arrayOf(object({ ...slotBase, offset: bytes, size: bytes, valueKind: oneOf(VALUE_KINDS) }, { ...slotExtra, align: nat(1, 1 << 16), typeName: str(), addressSpace: oneOf(SPACES), access: oneOf(ACCESS), pointeeAlign: nat(1), layout: layoutCheck })),
    kernargSegmentSize: bytes,
    kernargSegmentAlign: nat(1),
    hiddenBytes: nat(),
  })),
});

/** Bytes the amdhsa packer writes for a slot of this kind (by_value ones: their layout). */
function amdhsaWidth(kind: string): number {
  if (kind === 'by_value' || kind === 'hidden_none') return 0;
  if (kind === 'dynamic_shared_pointer' || kind === 'hidden_dynamic_lds_size' || kind.startsWith('hidden_block_count')) return 4;
  if (kind.startsWith('hidden_group_size') || kind.startsWith('hidden_remainder') || kind === 'hidden_grid_dims') return 2;
  return 8;
}

/** An amdhsa plan from its JSON form: every slot inside its kernarg segment, by_value slots with a layout. */
export function readAmdhsaPlan(json: unknown): AmdhsaPlan {
  const plan = schema(json, '') as unknown as AmdhsaPlan;
  checkKernels(plan.kernels, (k) => k.kernargSegmentSize, (s, p, _ai, fits) => {
    if (s.valueKind === 'by_value' && !s.layout) throw new PlanError(p, 'a by_value argument needs a layout');
    fits(s.offset, Math.max(s.size as number, amdhsaWidth(s.valueKind as string)), 'segment');
    if (s.layout) fits(s.offset, s.layout.size, 'segment');
  });
  return { ...plan, kernels: plan.kernels.map(placeAmdhsaKernel) };
}
