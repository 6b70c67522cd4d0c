import type { KernelPlanBase, SlotBase } from '../../abi/plan.js';
import type { QualType } from '../../types/types.js';
import type { ValueLayout } from '../../layout/value-layout.js';

/** `nvptx64-nvidia-nvcl` (64-bit pointers, the default) or `nvptx-nvidia-nvcl` (32-bit). */
export type CudaArch = 'nvptx64' | 'nvptx';

/**
 * Who turns `local` pointer arguments into shared memory: `nvidia` (NVIDIA's OpenCL, and clang's
 * nvcl convention: a `.ptr .shared` parameter holding the block's shared-window address) or
 * `pocl` (pocl's CUDA driver: a `.u32` offset into one extern shared array, `constant` pointers
 * likewise offsets into a 64 KiB constant bank, and `_work_dim` and `_global_offset_{x,y,z}`
 * appended to every kernel).
 */
export type CudaLocalMemory = 'nvidia' | 'pocl';

/**
 * The GPU architecture (compute capability as `sm_XX` numbers it) whose driver places the
 * parameter buffer: it decides where parameters aligned above 16 go (param-base.ts).
 */
export type CudaSm = 75 | 80 | 86 | 87 | 89 | 90 | 100 | 103 | 110 | 120 | 121;

/** The `.param` state space types kernarg declares (PTX's fundamental types; `b8` for byte arrays). */
export type PtxParamType = 'u8' | 'u16' | 'u32' | 'u64' | 'f32' | 'f64' | 'b8';

/** The state space a `.ptr` parameter points into, as PTX spells it; `generic` prints no space. */
export type PtxPointerSpace = 'global' | 'const' | 'shared' | 'generic';

/**
 * One `.param` of a PTX `.entry`: its bytes in the parameter buffer a host passes with
 * `CU_LAUNCH_PARAM_BUFFER_POINTER` (each parameter at its alignment), and its `.entry` spelling.
 */
export interface CudaSlot extends SlotBase {
  /**
   * The PTX parameter's name, where a plan read from PTX or JSON states it; a lowered plan leaves it out, as it is
   * `<kernel>_param_<n>`, as LLVM's NVPTX backend names it (`ptxNameOf`, src/abi/ptx-param-name.ts).
   */
  readonly ptxName?: string;
  /** Index in `cuLaunchKernel`'s `kernelParams` pointer array. */
  readonly index: number;
  /**
   * Byte offset in the packed parameter buffer, as cuFuncGetParamInfo gives it (alignments above 16 count from the
   * buffer's base in constant bank 0).
   */
  readonly offset: number;
  readonly size: number;
  /** The parameter's alignment in the buffer: a scalar's or pointer's size, a byte array's `.align`. */
  readonly align: number;
  readonly ptxType: PtxParamType;
  /** Pointers (`.ptr`): the space pointed into. */
  readonly space?: PtxPointerSpace;
  /** Pointers (`.ptr .align N`): the pointee's alignment as clang states it. */
  readonly pointeeAlign?: number;
  readonly typeName?: string;
  readonly type?: QualType;
  readonly layout?: ValueLayout;
}

export interface CudaKernelPlan extends KernelPlanBase<CudaSlot> {
  /** Bytes of the packed parameter buffer (`CU_LAUNCH_PARAM_BUFFER_SIZE`): the end of the last parameter. */
  readonly paramBytes: number;
  /** The local arguments whose blocks make up the launch's dynamic shared memory, in argument order. */
  readonly dynamicShared: readonly string[];
}

export interface CudaPlan {
  readonly target: 'cuda';
  readonly arch: CudaArch;
  /** The architecture the offsets are for (alignments above 16 count from its parameter buffer's base). */
  readonly sm: CudaSm;
  readonly localMemory: CudaLocalMemory;
  readonly kernels: readonly CudaKernelPlan[];
}
