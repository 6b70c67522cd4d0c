// tinytc v0.4's explicit barrier in a parallel region and its subgroup reductions and scans, in OpenCL C:
// barrier() with the fences the instruction names, and cl_khr_subgroups' sub_group_reduce_* and
// sub_group_scan_{inclusive,exclusive}_* (int, long, half, float and double; a complex number per part, as
// tinytc's OpGroupFAdd on the 2-vector adds each part).
import type { ScalarTypeName, SubgroupCombine, SubgroupGroupOperation } from '../../frontend/tinytc/ast.js';
import { isComplexType } from '../../frontend/tinytc/ast.js';
import { C_TYPE } from './c-scalars.js';

/** `barrier.global.local` as OpenCL C: barrier() fencing the memories named (none: flags 0, a control barrier only). */
export function explicitBarrierC(global: boolean, local: boolean): string {
  const flags = [...(global ? ['CLK_GLOBAL_MEM_FENCE'] : []), ...(local ? ['CLK_LOCAL_MEM_FENCE'] : [])];
  return `barrier(${flags.length ? flags.join(' | ') : '0'});`;
}

const FUNCTION = {
  reduce: 'sub_group_reduce',
  inclusive_scan: 'sub_group_scan_inclusive',
  exclusive_scan: 'sub_group_scan_exclusive',
} as const satisfies Record<SubgroupGroupOperation, string>;

/** The subgroup operation on `x` (an expression of type t without side effects, read once per part). */
export function subgroupOperationC(
  group: SubgroupGroupOperation,
  fn: SubgroupCombine,
  t: ScalarTypeName,
  x: string,
): string {
  const f = `${FUNCTION[group]}_${fn}`;
  if (!isComplexType(t)) return `${f}(${x})`;
  return `(${C_TYPE[t]})(${f}((${x}).x), ${f}((${x}).y))`;
}
