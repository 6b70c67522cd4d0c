// What tinytc v0.4's number types ask of a Vulkan module that GLSL.std.450 cannot give: 64-bit exp, log,
// sin and cos (and so every math-unary instruction on f64 or c64). The OpenCL printers have them (OpenCL.std
// and OpenCL C); for Vulkan the program is refused with KA2430 before any SPIR-V is printed.
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { Messages } from '../diagnostics/messages.js';
import { type Program, instructions } from '../frontend/tinytc/ast.js';
import { MATH_UNARY } from '../frontend/tinytc/v04/instructions.js';

const MATH = new Set<string>(MATH_UNARY);

/** KA2430 for each math-unary instruction on f64 or c64 in the rewrite (none: the Vulkan printer takes it). */
export function vulkanWideMath(program: Program): DiagnosticBag {
  const bag = new DiagnosticBag();
  for (const f of program.funcs)
    for (const inst of instructions(f.body)) {
      if (inst.op !== 'arith' || !MATH.has(inst.fn) || inst.type.type.kind !== 'scalar') continue;
      const t = inst.type.type.name;
      if (t === 'f64' || t === 'c64') bag.report(Messages.ir04VulkanWideMath, inst.span, [inst.fn, t]);
    }
  return bag;
}
