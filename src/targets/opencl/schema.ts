import {
  PlanError,
  arrayOf,
  bool,
  ident,
  nat,
  nullable,
  object,
  oneOf,
  planReader,
  str,
} from '../../abi/plan-schema.js';
import { ACCESS, SPACES, bytes, checkKernels, layoutCheck, slotBase, slotExtra, wg } from '../../abi/plan-fields.js';
import type { OpenCLPlan } from '../../abi/plan.js';
import { placeOpenclKernel } from './placement.js';

const schema = object({
  target: oneOf(['opencl']),
  arch: oneOf(['spir', 'spir64']),
  kernels: arrayOf(
    object(
      {
        name: ident,
        args: arrayOf(
          object(
            {
              ...slotBase,
              index: nat(0, 1 << 16),
              kind: oneOf(['buffer', 'local', 'value', 'image', 'sampler', 'queue', 'pipe']),
              typeName: str(),
              typeQual: str(),
              size: nullable(bytes),
            },
            { ...slotExtra, addressSpace: oneOf(SPACES), access: oneOf(ACCESS), layout: layoutCheck },
          ),
        ),
      },
      {
        reqdWorkGroupSize: wg,
        workGroupSizeHint: wg,
        vecTypeHint: str(),
        intelReqdSubGroupSize: nat(1),
        workGroupSizeChosen: bool,
      },
    ),
  ),
});

const readJson = planReader<OpenCLPlan>()(schema, true);

/** An opencl plan from its JSON form: arguments in index order, value arguments with a size their layout fits. */
export function readOpenclPlan(json: unknown): OpenCLPlan {
  const plan = readJson(json, '');
  checkKernels(
    plan.kernels,
    () => undefined,
    (s, p, ai) => {
      if (s.index !== ai) throw new PlanError(`${p}.index`, `argument ${ai} has index ${String(s.index)}`);
      if (s.kind === 'value' && (s.size === null || !s.layout))
        throw new PlanError(p, 'a value argument needs a size and a layout');
      if (s.layout && (s.size === null || s.layout.size > (s.size as number)))
        throw new PlanError(`${p}.layout`, `${s.layout.size} bytes of layout in a ${String(s.size)}-byte argument`);
    },
  );
  return { ...plan, kernels: plan.kernels.map(placeOpenclKernel) };
}
