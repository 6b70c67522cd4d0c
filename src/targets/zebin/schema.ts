import { PlanError, arrayOf, bool, ident, nat, object, oneOf, planReader, str } from '../../abi/plan-schema.js';
import { ACCESS, bytes, checkKernels, layoutCheck, slotBase, slotExtra } from '../../abi/plan-fields.js';
import { ZEBIN_DEVICES } from './devices.js';
import type { ZebinPlan } from './plan.js';
import { placeZebinKernel } from './placement.js';

const ARG_TYPES = [
  'arg_bypointer',
  'arg_byvalue',
  'buffer_address',
  'global_id_offset',
  'local_size',
  'enqueued_local_size',
  'global_size',
  'group_count',
  'work_dimensions',
  'private_base_stateless',
  'printf_buffer',
  'image_height',
  'image_width',
  'image_depth',
  'image_array_size',
  'image_channel_data_type',
  'image_channel_order',
  'sampler_snap_wa',
  'none',
] as const;
const schema = object(
  {
    target: oneOf(['zebin']),
    device: oneOf(ZEBIN_DEVICES),
    kernels: arrayOf(
      object({
        name: ident,
        args: arrayOf(
          object(
            { ...slotBase, argType: oneOf(ARG_TYPES), offset: bytes, size: bytes },
            {
              ...slotExtra,
              argIndex: nat(0, 1 << 16),
              addrmode: oneOf(['stateless', 'stateful', 'slm']),
              addrspace: oneOf(['global', 'constant', 'local', 'image', 'sampler']),
              accessType: oneOf(['readonly', 'writeonly', 'readwrite']),
              bindingTable: bool,
              slmAlignment: nat(1, 1 << 16),
              pieces: arrayOf(object({ sourceOffset: bytes, offset: bytes, size: bytes })),
              imageType: str(),
              imageTransformable: bool,
              samplerIndex: nat(0, 1 << 16),
              typeName: str(),
              access: oneOf(ACCESS),
              layout: layoutCheck,
            },
          ),
        ),
        payloadSize: bytes,
      }),
    ),
  },
  { privateMemory: bool },
);

const readJson = planReader<ZebinPlan>()(schema, true);

/** A zebin plan from its JSON form: every payload entry inside the payload, pieces inside their slot. */
export function readZebinPlan(json: unknown): ZebinPlan {
  const plan = readJson(json, '');
  checkKernels(
    plan.kernels,
    (k) => k.payloadSize,
    (s, p, _ai, fits) => {
      fits(s.offset, s.size as number, 'payload');
      const pieces = s.pieces as readonly { offset: number; size: number }[] | undefined;
      for (const [i, piece] of (pieces ?? []).entries()) {
        if (
          piece.offset < (s.offset as number) ||
          piece.offset + piece.size > (s.offset as number) + (s.size as number)
        )
          throw new PlanError(`${p}.pieces[${i}]`, 'a piece outside its argument');
      }
      if (s.argType === 'arg_byvalue' && !s.layout) throw new PlanError(p, 'an arg_byvalue argument needs a layout');
    },
  );
  return { ...plan, kernels: plan.kernels.map(placeZebinKernel) };
}
