// Which tinytc programs need subgroups of the device they run on: subgroup built-ins, broadcasts, reductions and
// scans (foreach_tile over subgroups brings the built-ins). An OpenCL device without them (PoCL: neither
// cl_khr_subgroups nor the functions in its kernel library) fails to build such a program; the runtime asks this
// first and refuses at the instruction, with its position (KA3140), instead of showing a build log.
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { Messages } from '../diagnostics/messages.js';
import { type Inst, type Program, instructions } from '../frontend/tinytc/ast.js';

/** The OpenCL extensions that give OpenCL C and SPIR-V kernels subgroups. */
const SUBGROUP_EXTENSIONS = ['cl_khr_subgroups', 'cl_intel_subgroups'];

const needsSubgroups = (i: Inst) =>
  i.op === 'subgroup_builtin' || i.op === 'subgroup_broadcast' || i.op === 'subgroup_operation';

/** The first instruction of the program that needs subgroups, or undefined. */
export function firstSubgroupUse(program: Program): Inst | undefined {
  for (const f of program.funcs) for (const i of instructions(f.body)) if (needsSubgroups(i)) return i;
  return undefined;
}

/** KA3140 at the first instruction that needs subgroups when the device's extensions give none (else nothing). */
export function subgroupRefusal(program: Program, extensions: readonly string[], device: string): Diagnostic[] {
  if (extensions.some((e) => SUBGROUP_EXTENSIONS.includes(e))) return [];
  const use = firstSubgroupUse(program);
  if (!use) return [];
  const what =
    use.op === 'subgroup_operation'
      ? `subgroup_${use.group}_${use.fn}`
      : use.op === 'subgroup_builtin'
        ? use.fn
        : use.op;
  const bag = new DiagnosticBag();
  bag.report(Messages.ir04NoSubgroups, use.span, [what, device]);
  return [...bag.items];
}
