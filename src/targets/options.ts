import type { AmdgpuProcessorName } from '../abi/amdgpu-processors.js';
import type { ClStd } from '../frontend/opencl-c/predefined.js';
import type { CommandLineMacro } from '../frontend/opencl-c/preprocessor.js';
import type { DopeOrder } from '../frontend/tinytc/calling-convention.js';
import type { AmdCl2TargetOptions } from './amd-cl2/lower.js';
import type { AmdhsaCodeObject, AmdhsaLlvm } from './amdhsa/lower.js';
import type { CudaTargetOptions } from './cuda/lower.js';
import type { LlvmTargetOptions } from './llvm/lower.js';
import type { VulkanTargetOptions } from './vulkan/plan.js';
import type { ZebinDevice } from './zebin/devices.js';

/** The options of one `lower` call: the input's, and each target's (only the chosen target's are read). */
export interface LowerOptions {
  readonly target: string;
  readonly format?: string;
  /** Input language; by default from the path (`.ir` tinytc, otherwise OpenCL C). */
  readonly language?: 'cl' | 'ir';
  readonly std?: ClStd;
  readonly includeDirs?: readonly string[];
  readonly defines?: readonly (readonly [string, string | undefined])[];
  readonly undefines?: readonly string[];
  /** `-D`/`-U` in command-line order (instead of `defines` and `undefines`), as the CLI passes them. */
  readonly commandLine?: readonly CommandLineMacro[];
  /** clang's `-cl-fast-relaxed-math`: defines `__FAST_RELAXED_MATH__`. */
  readonly fastRelaxedMath?: boolean;
  /** Target data layout: `spir` or `spir64` (default) for opencl. */
  readonly arch?: 'spir' | 'spir64';
  /** amdhsa: code object 4, 5 (default) or 6. */
  readonly codeObject?: AmdhsaCodeObject;
  /** amdhsa: the LLVM generation the layout follows, 16 or 19 (default). */
  readonly amdLlvm?: AmdhsaLlvm;
  /** amdhsa: the processor (`--mcpu`, default gfx900); gfx9 and later, the kernarg segment alike. */
  readonly amdMcpu?: AmdgpuProcessorName;
  /** cuda options: `arch` (nvptx64, nvptx) and `localMemory` (nvidia, pocl). */
  readonly cuda?: CudaTargetOptions;
  /** amd-cl2 options. */
  readonly amdCl2?: AmdCl2TargetOptions;
  /** tinytc input: order of the extra memref arguments (v0.3 interleaved, or v0.4 shapes-first). */
  readonly dopeOrder?: DopeOrder;
  /** tinytc --format opencl-c: how group tables are spelled (see OpenCLCOptions). */
  readonly groupTables?: 'pointer' | 'ulong';
  /** vulkan options (clspv's). */
  readonly vulkan?: VulkanTargetOptions;
  /** vulkan --format spirv*: floating atomic adds as OpAtomicFAddEXT (the device has the feature) instead of compare-and-swap loops. */
  readonly floatAtomicAdd?: boolean;
  /** Return the text as `chunks` (pieces to write in order) instead of `output`: JSON of any size can be written. */
  readonly chunked?: boolean;
  /**
   * With `chunked`: JSON is returned as `pieces`, made one by one as they are iterated (a writer
   * that writes each and drops it keeps none of them), instead of `chunks`. Other formats still
   * come as `chunks`.
   */
  readonly streamed?: boolean;
  /** zebin: the Intel GPU, as ocloc's `-device` names it (default pvc). */
  readonly zebinDevice?: ZebinDevice;
  /** zebin: every kernel keeps private memory, so IGC passes `private_base_stateless` (kernarg cannot see it from the source). */
  readonly zebinPrivateMemory?: boolean;
  /** llvm options. */
  readonly llvm?: LlvmTargetOptions & { readonly kernelArgInfo?: boolean };
}

/** The value of `choices` equal to `v`: a checked string becomes its typed value without a cast. */
export function pick<T extends string | number>(choices: readonly T[], v: string): T {
  const found = choices.find((c) => String(c) === v);
  if (found === undefined) throw new RangeError(`'${v}' is not one of ${choices.join(', ')}`);
  return found;
}
