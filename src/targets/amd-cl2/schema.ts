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
  tuple,
} from '../../abi/plan-schema.js';
import { ACCESS, SPACES, bytes, checkKernels, layoutCheck, slotBase, slotExtra } from '../../abi/plan-fields.js';
import type { AmdCl2Plan } from '../../abi/plan.js';
import { amdCl2ByAddress } from './by-address.js';
import { placeAmdCl2Kernel } from './placement.js';

const pair = nullable(tuple(nat(0, 255), 2));
const schema = object({
  target: oneOf(['amd-cl2']),
  bits: oneOf([32, 64]),
  driver: oneOf(['new', 'old']),
  use: arrayOf(oneOf(['setup', 'args', 'enqueue', 'generic'])),
  gfx9: bool,
  setupBuffer: arrayOf(object({ dword: nat(), bits: str(), field: str() })),
  kernels: arrayOf(
    object({
      name: ident,
      args: arrayOf(
        object(
          { ...slotBase, offset: bytes, size: bytes, align: nat(1), argType: str(), typeName: str() },
          {
            ...slotExtra,
            addressSpace: oneOf(SPACES),
            access: oneOf(ACCESS),
            structSize: nat(),
            resourceId: nat(),
            qualifiers: arrayOf(oneOf(['const', 'restrict', 'volatile'])),
            layout: layoutCheck,
          },
        ),
      ),
      kernargSize: bytes,
      userSgprs: object({
        // The lowering's order (lower.ts userSgprs), so that a plan read back is written as it was written.
        count: nat(0, 255),
        scratchDescriptor: tuple(nat(0, 255), 2),
        flatBasesPointer: pair,
        flatScratchOffset: nullable(nat()),
        scratchPerThread: nullable(nat()),
        setupPointer: pair,
        argsPointer: pair,
      }),
    }),
  ),
});

const readJson = planReader<AmdCl2Plan>()(schema, true);

/** An amd-cl2 plan from its JSON form: every slot inside the argument buffer, values with a layout. */
export function readAmdCl2Plan(json: unknown): AmdCl2Plan {
  const plan = readJson(json, '');
  checkKernels(
    plan.kernels,
    (k) => k.kernargSize,
    (s, p, _ai, fits) => {
      if (s.param !== null && !amdCl2ByAddress(s.argType as string) && !s.layout)
        throw new PlanError(p, `a ${s.argType as string} argument needs a layout`);
      fits(
        s.offset,
        Math.max(s.size as number, s.param === null || amdCl2ByAddress(s.argType as string) ? plan.bits / 8 : 0),
        'segment',
      );
      // amd-cl2 passes structures by reference: their layout describes memory elsewhere.
      if (s.layout && s.argType !== 'structure') fits(s.offset, s.layout.size, 'segment');
    },
  );
  return { ...plan, kernels: plan.kernels.map((k) => placeAmdCl2Kernel(k, plan.bits)) };
}
