// tinytc v0.4's explicit barrier in a parallel region and its subgroup reductions and scans, in SPIR-V.
// The barrier is OpControlBarrier at Workgroup scope with the fences the instruction names (none: semantics 0,
// as tinytc's converter gives a bare `barrier`). The subgroup operations are tinytc's converter's
// (src/spv/converter_aux.cpp at v0.4.0, make_subgroup_op): OpGroupIAdd/SMin/SMax for integers and
// OpGroupFAdd/FMin/FMax for floats and complex 2-vectors at Subgroup scope, with the GroupOperation
// Reduce, InclusiveScan or ExclusiveScan, in an OpenCL module (Groups); a Vulkan module has no Groups
// capability and takes their GroupNonUniformArithmetic counterparts, whose 64-bit integer and 16-bit
// float forms need the shaderSubgroupExtendedTypes feature.
import type { ScalarTypeName, SubgroupCombine, SubgroupGroupOperation } from '../../frontend/tinytc/ast.js';
import { isComplexType, isIeeeFloat } from '../../frontend/tinytc/ast.js';
import { GroupOperation, Op, Scope } from '../../emit/spirv/spec.js';
import type { Gen } from './gen.js';
import type { Fence } from '../barriers.js';

/** The fences of `barrier[.global][.local]` as the shared barrier table names them, or null for none. */
export function explicitFence(global: boolean, local: boolean): Fence | null {
  return global && local ? 'both' : global ? 'global' : local ? 'local' : null;
}

/** `barrier[.global][.local]`: every invocation of the work-group waits, fencing the memories named. */
export function explicitBarrier(g: Gen, global: boolean, local: boolean): void {
  const fence = explicitFence(global, local);
  const semantics = fence === null ? 0 : g.flavour.fences[fence];
  g.f.emit(Op.ControlBarrier, g.u32(Scope.Workgroup), g.u32(Scope.Workgroup), g.u32(semantics));
}

const GROUP_OPERATION = {
  reduce: GroupOperation.Reduce,
  inclusive_scan: GroupOperation.InclusiveScan,
  exclusive_scan: GroupOperation.ExclusiveScan,
} as const satisfies Record<SubgroupGroupOperation, number>;

/** The instruction of each combination by flavour and number class (integers are signed, as tinytc's). */
const OPENCL_OP = {
  add: { int: Op.GroupIAdd, float: Op.GroupFAdd },
  max: { int: Op.GroupSMax, float: Op.GroupFMax },
  min: { int: Op.GroupSMin, float: Op.GroupFMin },
} as const satisfies Record<SubgroupCombine, { int: number; float: number }>;
const VULKAN_OP = {
  add: { int: Op.GroupNonUniformIAdd, float: Op.GroupNonUniformFAdd },
  max: { int: Op.GroupNonUniformSMax, float: Op.GroupNonUniformFMax },
  min: { int: Op.GroupNonUniformSMin, float: Op.GroupNonUniformFMin },
} as const satisfies Record<SubgroupCombine, { int: number; float: number }>;

/** The subgroup operation on `value` (type t: a 32- or 64-bit integer, a half, float or double, or a complex sum). */
export function subgroupOperation(
  g: Gen,
  group: SubgroupGroupOperation,
  fn: SubgroupCombine,
  t: ScalarTypeName,
  value: number,
): number {
  const cls = isIeeeFloat(t) || isComplexType(t) ? 'float' : 'int';
  const vulkan = g.flavour.name === 'vulkan';
  if (vulkan) {
    g.b.capability('GroupNonUniformArithmetic');
    if (t === 'i64' || t === 'index' || t === 'f16') g.b.vulkanFeatures.add('shaderSubgroupExtendedTypes');
  } else g.b.capability('Groups');
  const op = (vulkan ? VULKAN_OP : OPENCL_OP)[fn][cls];
  return g.f.op(op, g.type(t), g.u32(Scope.Subgroup), GROUP_OPERATION[group], value);
}
