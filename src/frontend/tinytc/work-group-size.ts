import type { Dim, Func, Inst, MemrefType, Region } from './ast.js';

/** The width the first mode is a multiple of when kernarg chooses: a warp on NVIDIA, two SIMD-16 subgroups on Intel. */
export const CHOSEN_WIDTH = 32;

export interface WorkGroupChoice {
  readonly size: readonly [number, number];
  /** True when kernarg chose it (the function gave no work_group_size). */
  readonly chosen: boolean;
}

function* instructions(r: Region): Generator<Inst> {
  for (const inst of r.body) {
    yield inst;
    if (inst.op === 'if') {
      yield* instructions(inst.then);
      if (inst.else) yield* instructions(inst.else);
    } else if (inst.op === 'for' || inst.op === 'foreach') yield* instructions(inst.body);
  }
}

const nextPow2 = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

/**
 * The work-group size of a function: its `work_group_size`, or `subgroup_size` × 1, or kernarg's
 * choice from the shapes its collective instructions write. Rows go to the first mode (a multiple
 * of 32 unless every row count is smaller), columns to the second (up to 8, one per 8 columns of
 * the widest static matrix, 4 when a matrix has a dynamic column count or the output is a vector).
 * A function with an empty body (a signature, as the calling-convention page writes them) runs
 * nothing and gets none.
 */
export function chooseWorkGroupSize(f: Func): WorkGroupChoice | null {
  if (f.workGroupSize) return { size: f.workGroupSize, chosen: false };
  if (f.subgroupSize) return { size: [f.subgroupSize, 1], chosen: false };
  if (f.body.body.length === 0) return null;
  let rows: Dim = 0;
  let cols: Dim = 0;
  let collective = false;
  const widen = (a: Dim, b: Dim): Dim => (a === null || b === null ? null : Math.max(a, b));
  for (const inst of instructions(f.body)) {
    if (inst.op === 'foreach') collective = true;
    if (inst.op !== 'blas') continue;
    collective = true;
    const out = inst.types[inst.types.length - 1].type as MemrefType;
    if (out.kind !== 'memref') continue;
    rows = widen(rows, out.shape.length === 0 ? 1 : out.shape[0]);
    if (out.shape.length === 2) cols = widen(cols, out.shape[1]);
  }
  if (!collective) return { size: [CHOSEN_WIDTH, 1], chosen: true };
  const m = rows === null || rows >= CHOSEN_WIDTH ? CHOSEN_WIDTH : nextPow2(rows);
  const n = cols === null || cols === 0 ? 4 : Math.min(8, Math.max(1, Math.ceil(cols / 8)));
  return { size: [m, n], chosen: true };
}
