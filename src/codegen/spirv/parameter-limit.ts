// SPIR-V's universal limit on a function's parameters, for the formats whose kernels are SPIR-V
// functions taking the kernel's arguments (OpenCL SPIR-V: an OpTypeFunction of every parameter).
// spirv-val refuses a module past it ("OpTypeFunction may not take more than 255 arguments"), so
// the module is refused with a diagnostic rather than written. Vulkan's shaders take no parameters.
import { type Diagnostic, DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { SPIRV_MAX_PARAMETERS } from '../../frontend/parameter-limits.js';
import type { KernelModule } from '../../model/kernel-module.js';

/** An error for each kernel of the module with more parameters than a SPIR-V function may take. */
export function spirvParameterLimit(module: KernelModule): readonly Diagnostic[] {
  const bag = new DiagnosticBag();
  for (const f of module.functions)
    if (f.isKernel && f.params.length > SPIRV_MAX_PARAMETERS)
      bag.report(Messages.spirvTooManyParameters, f.span, [f.name, f.params.length, SPIRV_MAX_PARAMETERS]);
  return bag.items;
}
