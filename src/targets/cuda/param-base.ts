// Where the CUDA driver copies the parameter buffer into constant bank 0, by architecture, and so
// what a parameter aligned above 16 is counted from. Every base is a multiple of 16, so alignments
// up to 16 count from 0 alike on all of them; an `.align 32` (or larger) parameter moves.
//
// Oracle: ptxas from CUDA 13.0 (13.0.88), `-arch=sm_XX -c` on `.param` lists with `.align 32` after
// 13 bytes, `.align 64` after 1, `.align 128` after 1 and `.align 256` after 1, read back from each
// cubin's EIATTR_KPARAM_INFO records (the offsets cuFuncGetParamInfo answers):
//   sm_75, 80, 86, 87, 89:            32, 32, 32, 160  → base 0x160 (c[0x0][0x160])
//   sm_90:                            16, 48, 112, 240 → base 0x210 (c[0x0][0x210]); the H200's
//                                     cuFuncGetParamInfo (driver 580) answers the same
//   sm_100, 103, 110, 120, 121:       32, 64, 128, 256 → aligned from 0 (the buffer starts at a
//                                     256-aligned place)
// ptxas 13 no longer assembles for sm_70/72 (Volta), so those are not listed: they are not guessed.
// `scripts/cubin-ptxas-sweep.ts` rechecks the table on every fixture and corpus kernel.
import { alignTo } from '../../layout/align.js';
import type { CudaSm } from './plan.js';

export interface CudaParamBaseFact {
  /** The parameter buffer's byte offset in constant bank 0 (alignments count from it). */
  readonly base: number;
  /** The architecture's family, in words (for messages and --help). */
  readonly family: string;
}

/** One row per architecture ptxas 13.0 was probed on (see above). */
export const CUDA_PARAM_BASES = {
  75: { base: 0x160, family: 'Turing' },
  80: { base: 0x160, family: 'Ampere (A100)' },
  86: { base: 0x160, family: 'Ampere (RTX 30)' },
  87: { base: 0x160, family: 'Ampere (Orin)' },
  89: { base: 0x160, family: 'Ada' },
  90: { base: 0x210, family: 'Hopper' },
  100: { base: 0, family: 'Blackwell (B100/B200)' },
  103: { base: 0, family: 'Blackwell (B300)' },
  110: { base: 0, family: 'Blackwell (Thor)' },
  120: { base: 0, family: 'Blackwell (RTX 50)' },
  121: { base: 0, family: 'Blackwell (DGX Spark)' },
} as const satisfies Record<CudaSm, CudaParamBaseFact>;

export const CUDA_SMS: readonly CudaSm[] = Object.keys(CUDA_PARAM_BASES).map(Number) as CudaSm[];

/**
 * The default architecture: sm_90 (Hopper), the one kernarg's cuda plans were checked on against a
 * driver (an H200's cuFuncGetParamInfo) and what plans without an `sm` were made for, so existing
 * plans and PTX read without one keep their offsets.
 */
export const DEFAULT_CUDA_SM: CudaSm = 90;

export function isCudaSm(n: number): n is CudaSm {
  return Object.hasOwn(CUDA_PARAM_BASES, n);
}

/** The parameter buffer's base in constant bank 0 on `sm`. */
export function cudaParamBase(sm: CudaSm): number {
  return CUDA_PARAM_BASES[sm].base;
}

/** The offset of a parameter of alignment `align` placed at or after `offset` in the parameter buffer, on `sm`. */
export function paramOffset(offset: number, align: number, sm: CudaSm): number {
  const base = cudaParamBase(sm);
  return alignTo(offset + base, align) - base;
}
