import { PlanError, arrayOf, ident, nat, object, oneOf, planReader, str } from '../../abi/plan-schema.js';
import { ACCESS, SPACES, bytes, checkKernels, layoutCheck, slotBase, slotExtra } from '../../abi/plan-fields.js';
import type { AmdhsaPlan } from '../../abi/plan.js';
import { AMDGPU_PROCESSOR_NAMES } from '../../abi/amdgpu-processors.js';
import { placeAmdhsaKernel } from './placement.js';
import { HIDDEN_ARGS, HIDDEN_KINDS, isHiddenKind } from './hidden-args.js';

const VALUE_KINDS = [
  'by_value',
  'global_buffer',
  'dynamic_shared_pointer',
  'image',
  'sampler',
  'queue',
  'pipe',
  ...HIDDEN_KINDS,
];
const schema = object({
  target: oneOf(['amdhsa']),
  codeObject: oneOf([4, 5, 6]),
  llvm: oneOf([16, 19, 22]),
  mcpu: oneOf(AMDGPU_PROCESSOR_NAMES),
  kernels: arrayOf(
    object({
      name: ident,
      args: arrayOf(
        object(
          { ...slotBase, offset: bytes, size: bytes, valueKind: oneOf(VALUE_KINDS) },
          {
            ...slotExtra,
            align: nat(1, 1 << 16),
            typeName: str(),
            addressSpace: oneOf(SPACES),
            access: oneOf(ACCESS),
            pointeeAlign: nat(1),
            layout: layoutCheck,
          },
        ),
      ),
      kernargSegmentSize: bytes,
      kernargSegmentAlign: nat(1),
      hiddenBytes: nat(),
    }),
  ),
});

/** Bytes the amdhsa packer writes for a slot of this kind (by_value ones: their layout). */
function amdhsaWidth(kind: string): number {
  if (isHiddenKind(kind)) return HIDDEN_ARGS[kind].fill.kind === 'zero' ? 0 : HIDDEN_ARGS[kind].bytes;
  if (kind === 'by_value') return 0;
  if (kind === 'dynamic_shared_pointer') return 4;
  return 8;
}

const readJson = planReader<AmdhsaPlan>()(schema, true);

/** An amdhsa plan from its JSON form: every slot inside its kernarg segment, by_value slots with a layout. */
export function readAmdhsaPlan(json: unknown): AmdhsaPlan {
  const plan = readJson(json, '');
  checkKernels(
    plan.kernels,
    (k) => k.kernargSegmentSize,
    (s, p, _ai, fits) => {
      if (s.valueKind === 'by_value' && !s.layout) throw new PlanError(p, 'a by_value argument needs a layout');
      fits(s.offset, Math.max(s.size as number, amdhsaWidth(s.valueKind as string)), 'segment');
      if (s.layout) fits(s.offset, s.layout.size, 'segment');
    },
  );
  return { ...plan, kernels: plan.kernels.map(placeAmdhsaKernel) };
}
