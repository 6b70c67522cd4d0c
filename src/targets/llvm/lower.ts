import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { KernelShapeMemo } from '../../abi/kernel-shape-memo.js';
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
  const kw = llvmKernelwise(module, options, diags);
  return kw && { ...kw.head, kernels: Array.from({ [Symbol.iterator]: kw.kernels }) };
}

/** `lowerLlvm` a kernel at a time (undefined where it reports errors): each kernel's metadata is its own. */
export function llvmKernelwise(
  module: KernelModule,
  options: LlvmTargetOptions,
  diags: DiagnosticBag,
): { head: Omit<LlvmPlan, 'kernels'>; count: number; kernels: () => Iterator<LlvmKernelPlan> } | undefined {
  const triple = options.triple ?? 'spir64-unknown-unknown';
  checkKernelCalls(module, options.kernelStubs ?? false, diags, Messages.llvmKernelCall);
  if (diags.hasErrors) return undefined;
  const dl = TRIPLE_INFO[triple].layout;
  const kernels = kernelsOf(module);
  return {
    head: { target: 'llvm', triple, metadata: options.metadata ?? 'modern' },
    count: kernels.length,
    *kernels() {
      const memo = new KernelShapeMemo<LlvmKernelPlan>(module);
      const make = (k: FunctionInfo) => llvmKernelPlan(k, dl);
      for (const k of kernels) yield memo.plan(k, make);
    },
  };
}
