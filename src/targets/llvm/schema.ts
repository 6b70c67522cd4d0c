import { arrayOf, ident, nat, object, oneOf, planReader, str } from '../../abi/plan-schema.js';
import { checkKernels, slotBase, slotExtra, wg } from '../../abi/plan-fields.js';
import { TRIPLES, placeLlvmKernel } from '../../abi/llvm-kernel.js';
import type { LlvmPlan } from './lower.js';

const schema = object({
  target: oneOf(['llvm']),
  triple: oneOf(TRIPLES),
  metadata: oneOf(['modern', 'legacy']),
  kernels: arrayOf(
    object(
      {
        name: ident,
        args: arrayOf(
          object(
            {
              ...slotBase,
              addrSpace: nat(0, 255),
              accessQual: str(),
              typeName: str(),
              baseType: str(),
              typeQual: str(),
            },
            slotExtra,
          ),
        ),
      },
      { reqdWorkGroupSize: wg, workGroupSizeHint: wg, vecTypeHint: str(), intelReqdSubGroupSize: nat(1) },
    ),
  ),
});

const readJson = planReader<LlvmPlan>()(schema, true);

/** An llvm plan from its JSON form (metadata only: no bytes to bound). */
export function readLlvmPlan(json: unknown): LlvmPlan {
  const plan = readJson(json, '');
  checkKernels(
    plan.kernels,
    () => undefined,
    () => {},
  );
  return { ...plan, kernels: plan.kernels.map(placeLlvmKernel) };
}
