import { PlanError, arrayOf, ident, nat, object, oneOf, planReader, str } from '../../abi/plan-schema.js';
import { bytes, checkKernels, layoutCheck, slotBase, slotExtra } from '../../abi/plan-fields.js';
import type { CudaPlan, CudaSm } from './plan.js';
import { CUDA_ARCHES, CUDA_LOCAL_MEMORY } from './lower.js';
import { CUDA_SMS, DEFAULT_CUDA_SM, cudaParamBase } from './param-base.js';
import { placeCudaKernel } from './placement.js';

const PTX_TYPES = ['u8', 'u16', 'u32', 'u64', 'f32', 'f64', 'b8'] as const;
const PTX_SIZES: Readonly<Record<(typeof PTX_TYPES)[number], number | undefined>> = {
  u8: 1,
  u16: 2,
  u32: 4,
  u64: 8,
  f32: 4,
  f64: 8,
  b8: undefined,
};

const schema = object(
  {
    target: oneOf(['cuda']),
    arch: oneOf(CUDA_ARCHES),
    localMemory: oneOf(CUDA_LOCAL_MEMORY),
    kernels: arrayOf(
      object({
        name: ident,
        args: arrayOf(
          object(
            {
              ...slotBase,
              index: nat(0, 1 << 16),
              offset: bytes,
              size: bytes,
              align: nat(1, 1 << 16),
              ptxType: oneOf(PTX_TYPES),
            },
            {
              ...slotExtra,
              // Always written (the writer makes it of the kernel's name where a lowered plan leaves it out), so a
              // plan without it is refused as the written-back check reads it (read-plan.ts).
              ptxName: ident,
              space: oneOf(['global', 'const', 'shared', 'generic']),
              pointeeAlign: nat(1, 1 << 16),
              typeName: str(),
              layout: layoutCheck,
            },
          ),
        ),
        paramBytes: bytes,
        dynamicShared: arrayOf(ident),
      }),
    ),
  },
  {
    // Plans written before the architecture was an option were all sm_90's.
    sm: oneOf(CUDA_SMS),
  },
);

/** The JSON form: a plan whose `sm` may be left out (plans written before it was an option). */
type CudaPlanJson = Omit<CudaPlan, 'sm'> & { readonly sm?: CudaSm };
const readJson = planReader<CudaPlanJson>()(schema, true);

/**
 * A cuda plan from its JSON form: every parameter aligned, in order and inside the parameter buffer, its size its PTX
 * type's.
 */
export function readCudaPlan(json: unknown): CudaPlan {
  const read = readJson(json, '');
  const plan: CudaPlan = { ...read, sm: read.sm ?? DEFAULT_CUDA_SM };
  const base = cudaParamBase(plan.sm);
  checkKernels(
    plan.kernels,
    (k) => k.paramBytes,
    (s, p, ai, fits) => {
      const offset = s.offset as number;
      const size = s.size as number;
      const align = s.align as number;
      if (s.index !== ai) throw new PlanError(`${p}.index`, `parameter ${ai} says index ${String(s.index)}`);
      if ((offset + base) % align !== 0)
        throw new PlanError(
          `${p}.offset`,
          `${offset} is not aligned to ${align} from sm_${plan.sm}'s parameter buffer base 0x${base.toString(16)}`,
        );
      const want = PTX_SIZES[s.ptxType as (typeof PTX_TYPES)[number]];
      if (want !== undefined && size !== want)
        throw new PlanError(`${p}.size`, `a .${String(s.ptxType)} parameter is ${want} bytes, not ${size}`);
      if (s.layout && s.layout.size > size)
        throw new PlanError(`${p}.layout`, `a ${s.layout.size}-byte value in a ${size}-byte parameter`);
      fits(offset, size, 'parameter buffer');
    },
  );
  return { ...plan, kernels: plan.kernels.map((k) => placeCudaKernel(k, plan.localMemory)) };
}
