// tinytc v0.4's instruction set as facts: each keyword's syntactic form, and where it may stand
// (include/tinytc/instructions.anko at v0.4.0 marks instructions `collective` — uniform work of the
// whole work-group, never inside an SPMD region — or `spmd` — per work-item or subgroup, only inside
// `parallel`, `foreach` or `foreach_tile`; the rest may stand anywhere).

export type InstructionKind =
  | 'binary'
  | 'unary'
  | 'builtin'
  | 'constant'
  | 'alloca'
  | 'load'
  | 'store'
  | 'size'
  | 'subview'
  | 'expand'
  | 'fuse'
  | 'blas'
  | 'barrier'
  | 'if'
  | 'for'
  | 'foreach'
  | 'parallel'
  | 'yield'
  | 'matrix';

export type Placement = 'collective' | 'spmd' | 'mixed';

/** The cooperative-matrix instructions' operand shapes (parser.ts reads each one's list by it). */
export const MATRIX_OPS = {
  cooperative_matrix_apply: 'apply',
  cooperative_matrix_construct: 'values',
  cooperative_matrix_extract: 'extract',
  cooperative_matrix_insert: 'insert',
  cooperative_matrix_load: 'load',
  cooperative_matrix_atomic_load: 'load',
  cooperative_matrix_mul_add: 'values',
  cooperative_matrix_prefetch: 'prefetch',
  cooperative_matrix_reduce_add: 'values',
  cooperative_matrix_reduce_max: 'values',
  cooperative_matrix_reduce_min: 'values',
  cooperative_matrix_scale: 'values',
  cooperative_matrix_store: 'store',
  cooperative_matrix_atomic_store: 'store',
  cooperative_matrix_atomic_add: 'update',
  cooperative_matrix_atomic_max: 'update',
  cooperative_matrix_atomic_min: 'update',
} as const satisfies Record<
  string,
  'apply' | 'values' | 'extract' | 'insert' | 'load' | 'store' | 'update' | 'prefetch'
>;

export const ARITH_BINARY = [
  'add',
  'sub',
  'mul',
  'div',
  'rem',
  'shl',
  'shr',
  'and',
  'or',
  'xor',
  'min',
  'max',
] as const;
export const COMPARE = [
  'equal',
  'not_equal',
  'greater_than',
  'greater_than_equal',
  'less_than',
  'less_than_equal',
] as const;
export const ARITH_UNARY = ['abs', 'neg', 'not', 'conj', 'im', 're'] as const;
export const MATH_UNARY = [
  'cos',
  'sin',
  'exp',
  'exp2',
  'log',
  'log2',
  'native_cos',
  'native_sin',
  'native_exp',
  'native_exp2',
  'native_log',
  'native_log2',
] as const;
export const SUBGROUP_OPS = [
  'subgroup_exclusive_scan_add',
  'subgroup_exclusive_scan_max',
  'subgroup_exclusive_scan_min',
  'subgroup_inclusive_scan_add',
  'subgroup_inclusive_scan_max',
  'subgroup_inclusive_scan_min',
  'subgroup_reduce_add',
  'subgroup_reduce_max',
  'subgroup_reduce_min',
] as const;
export const BUILTINS = [
  'group_id',
  'num_groups',
  'num_subgroups',
  'subgroup_size',
  'subgroup_id',
  'subgroup_linear_id',
  'subgroup_local_id',
] as const;
export const BLAS = ['axpby', 'cumsum', 'gemm', 'gemv', 'ger', 'hadamard', 'sum'] as const;

const SINGLE = {
  constant: 'constant',
  alloca: 'alloca',
  load: 'load',
  atomic_load: 'load',
  store: 'store',
  atomic_store: 'store',
  atomic_add: 'store',
  atomic_max: 'store',
  atomic_min: 'store',
  size: 'size',
  subview: 'subview',
  expand: 'expand',
  fuse: 'fuse',
  barrier: 'barrier',
  if: 'if',
  for: 'for',
  foreach: 'foreach',
  foreach_tile: 'foreach',
  parallel: 'parallel',
  yield: 'yield',
  cast: 'unary',
  associated: 'unary',
  subgroup_broadcast: 'binary',
} as const satisfies Record<string, InstructionKind>;

const KINDS = new Map<string, InstructionKind>([
  ...ARITH_BINARY.map((x) => [x, 'binary'] as const),
  ...COMPARE.map((x) => [x, 'binary'] as const),
  ...ARITH_UNARY.map((x) => [x, 'unary'] as const),
  ...MATH_UNARY.map((x) => [x, 'unary'] as const),
  ...SUBGROUP_OPS.map((x) => [x, 'unary'] as const),
  ...BUILTINS.map((x) => [x, 'builtin'] as const),
  ...BLAS.map((x) => [x, 'blas'] as const),
  ...Object.keys(MATRIX_OPS).map((x) => [x, 'matrix'] as const),
  ...Object.entries(SINGLE),
]);

export function instructionKind(op: string): InstructionKind | undefined {
  return KINDS.get(op);
}

const COLLECTIVE = new Set<string>(['alloca', 'parallel', 'foreach', 'foreach_tile', ...BLAS]);
const SPMD = new Set<string>([
  'subgroup_broadcast',
  'subgroup_id',
  'subgroup_linear_id',
  'subgroup_local_id',
  ...SUBGROUP_OPS,
  ...Object.keys(MATRIX_OPS),
]);

export function placement(op: string): Placement {
  return COLLECTIVE.has(op) ? 'collective' : SPMD.has(op) ? 'spmd' : 'mixed';
}

/** Every keyword, for "did you mean" and for telling v0.4 text from v0.3 text. */
export const INSTRUCTIONS: readonly string[] = [...KINDS.keys()];
