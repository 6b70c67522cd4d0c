// What a printer cannot print for a program the frontend accepted, said as diagnostics before any code is
// generated — one place that `lower()` and both runtimes ask, so that `kernarg run` and `tinytcKernel` refuse what
// `kernarg lower` refuses, with the same file:line:col, instead of failing inside the printer.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Program } from '../frontend/tinytc/ast.js';
import type { KernelModule } from '../model/kernel-module.js';
import { spirvParameterLimit } from './spirv/parameter-limit.js';
import { vulkanWideMath } from './vulkan-number-limits.js';

/** The printed language: OpenCL C, OpenCL SPIR-V (a Kernel entry point per kernel) or a Vulkan compute module. */
export type PrintedCode = 'opencl-c' | 'opencl-spirv' | 'vulkan-spirv';

/** The errors that stop `code` being printed for this compile (none: it prints). */
export function codegenRefusals(
  code: PrintedCode,
  fe: { readonly program?: Program; readonly module?: KernelModule },
): readonly Diagnostic[] {
  switch (code) {
    case 'opencl-c':
      return [];
    case 'opencl-spirv':
      // Each kernel is a SPIR-V function taking its parameters: at most 255 (KA4411).
      return fe.module ? spirvParameterLimit(fe.module) : [];
    case 'vulkan-spirv':
      // GLSL.std.450 has no 64-bit exp, log, sin or cos (KA2430).
      return fe.program ? vulkanWideMath(fe.program).items : [];
  }
}
