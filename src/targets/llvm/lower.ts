import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import {
  type LlvmKernelPlan,
  TRIPLE_INFO,
  type Triple,
  checkKernelCalls,
  llvmKernelPlan,
} from '../../abi/llvm-kernel.js';

export interface LlvmPlan {
  readonly target: 'llvm';
  readonly triple: Triple;
  readonly metadata: 'modern' | 'legacy';
  readonly kernels: readonly LlvmKernelPlan[];
}

export interface LlvmTargetOptions {
  readonly triple?: Triple;
  readonly metadata?: 'modern' | 'legacy';
  readonly kernelStubs?: boolean;
  /** --format llvm-ir: also `!kernel_arg_name` (as clang's -cl-kernel-arg-info). */
  readonly kernelArgInfo?: boolean;
}

/** Kernels with the `kernel_arg_*` metadata clang-16 gives them. */
export function lowerLlvm(
  module: KernelModule,
  options: LlvmTargetOptions,
  diags: DiagnosticBag,
): LlvmPlan | undefined {
  const triple = options.triple ?? 'spir64-unknown-unknown';
  checkKernelCalls(module, options.kernelStubs ?? false, diags, Messages.llvmKernelCall);
  if (diags.hasErrors) return undefined;
  const dl = TRIPLE_INFO[triple].layout;
  return {
    target: 'llvm',
    triple,
    metadata: options.metadata ?? 'modern',
    kernels: kernelsOf(module).map((k) => llvmKernelPlan(k, dl)),
  };
}
