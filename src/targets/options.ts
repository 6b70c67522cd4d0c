import type {
  ClStd,
  CommandLineMacro,
  DopeOrder,
  GroupTables,
  InputLanguage,
  TinytcVersion,
} from '../options/input-options.js';
import type { AmdCl2TargetOptions } from './amd-cl2/lower.js';
import type { AmdhsaTargetOptions } from './amdhsa/lower.js';
import type { CudaTargetOptions } from './cuda/lower.js';
import type { LlvmTargetOptions } from './llvm/lower.js';
import type { OpenCLTargetOptions } from './opencl/lower.js';
import type { TargetName } from './target-names.js';
import type { VulkanTargetOptions } from './vulkan/plan.js';
import type { ZebinTargetOptions } from './zebin/lower.js';

/** tinytc input's options: how its calling convention and its OpenCL C are spelled. */
export interface TinytcInputOptions {
  /** Order of the extra memref arguments: v0.3's `interleaved` (default) or v0.4's `shapes-first`. */
  readonly dopeOrder?: DopeOrder;
  /** --format opencl-c: how group tables are spelled (`pointer`, the default, or `ulong`). */
  readonly groupTables?: GroupTables;
  /** The language version, 0.3 or 0.4 (by default recognised from the text). */
  readonly version?: TinytcVersion;
}

/**
 * Each target's options, under the target's own name (`amd-cl2`'s as `amdCl2`): one shape for
 * every target, so a caller of `lower()` writes `{ target: 'amdhsa', amdhsa: { codeObject: 5 } }`
 * as the command line's `--target amdhsa --code-object 5`. Only the chosen target's are read.
 */
export interface TargetOptionGroups {
  readonly opencl?: OpenCLTargetOptions;
  readonly vulkan?: VulkanTargetOptions;
  readonly amdhsa?: AmdhsaTargetOptions;
  readonly amdCl2?: AmdCl2TargetOptions;
  readonly llvm?: LlvmTargetOptions;
  readonly cuda?: CudaTargetOptions;
  readonly zebin?: ZebinTargetOptions;
}

/** The options of one `lower` call: the input's, the output's, and each target's in its group. */
export interface LowerOptions extends TargetOptionGroups {
  readonly target: TargetName;
  readonly format?: string;
  /** Input language; by default from the path (`.ir` tinytc, otherwise OpenCL C). */
  readonly language?: InputLanguage;
  readonly std?: ClStd;
  readonly includeDirs?: readonly string[];
  readonly defines?: readonly (readonly [string, string | undefined])[];
  readonly undefines?: readonly string[];
  /** `-D`/`-U` in command-line order (instead of `defines` and `undefines`), as the CLI passes them. */
  readonly commandLine?: readonly CommandLineMacro[];
  /** clang's `-cl-fast-relaxed-math`: defines `__FAST_RELAXED_MATH__`. */
  readonly fastRelaxedMath?: boolean;
  /** tinytc (.ir) input's options. */
  readonly tinytc?: TinytcInputOptions;
  /** Return the text as `chunks` (pieces to write in order) instead of `output`: JSON of any size can be written. */
  readonly chunked?: boolean;
  /**
   * With `chunked`: JSON is returned as `pieces`, made one by one as they are iterated (a writer
   * that writes each and drops it keeps none of them), instead of `chunks`. Other formats still
   * come as `chunks`.
   */
  readonly streamed?: boolean;
}

/** The value of `choices` equal to `v`: a checked string becomes its typed value without a cast. */
export function pick<T extends string | number>(choices: readonly T[], v: string): T {
  const found = choices.find((c) => String(c) === v);
  if (found === undefined) throw new RangeError(`'${v}' is not one of ${choices.join(', ')}`);
  return found;
}
