import {
  type Dim,
  type Func,
  type MemrefType,
  SCALAR_BYTES,
  type ScalarTypeName,
  instructions,
} from '../frontend/tinytc/ast.js';

/** The width the first mode is a multiple of when kernarg chooses: a warp on NVIDIA, two SIMD-16 subgroups on Intel. */
export const CHOSEN_WIDTH = 32;

export interface WorkGroupChoice {
  readonly size: readonly [number, number];
  /** True when kernarg chose it (the function gave no work_group_size). */
  readonly chosen: boolean;
}

const nextPow2 = (n: number) => 2 ** Math.ceil(Math.log2(Math.max(1, n)));

/**
 * Bytes of accumulators a work-item may keep for a GEMM tile before kernarg widens the first mode
 * (measured on an H100: 128 with the direct GEMM; 256 since the staged variants of the GPU rule in
 * blas-policy.ts, where 64³ f64 ran 1.5× faster on 16x8 than on 32x8).
 */
export const ACCUMULATOR_BYTES = 256;

/** The figure with the direct GEMM (CPU devices' BLAS rule: PoCL, lavapipe). */
export const DIRECT_ACCUMULATOR_BYTES = 128;

/**
 * A work-group for functions whose GEMMs all have static C: the first rule whose `maxSize` the
 * largest row or column count of C stays within gives `size`, or kernarg's choice below where it
 * gives none (an API's measured sizes: api-policies.ts).
 */
export interface GemmWorkGroupRule {
  readonly maxSize: number;
  /** The smallest largest extent the rule covers (none: any up to maxSize). */
  readonly minSize?: number;
  /** The element type every GEMM's C must have for the rule to apply (none: any). */
  readonly element?: ScalarTypeName;
  readonly size?: readonly [number, number];
}

/** The figures the choice is tuned with: CHOSEN_WIDTH and ACCUMULATOR_BYTES unless a policy (policy.ts) passes a device's or an API's. */
export interface ChoiceTuning {
  readonly width: number;
  readonly accumulatorBytes: number;
  /** Sizes measured for GEMMs of static C ahead of the choice below (none by default). */
  readonly gemmWorkGroups?: readonly GemmWorkGroupRule[];
}

/**
 * The work-group size of a function: its `work_group_size`, or `subgroup_size` × 1, or kernarg's
 * choice from the shapes its collective instructions write.
 * - With GEMMs of static C: columns go to the second mode (one per 4 columns, up to 8) and rows to
 *   16 work-items unless a work-item's register tile (up to 4 × 8 elements of C) would pass 128
 *   bytes, then 32 — the fastest of the sizes swept on an H100 for 32³ and 64³ in f32 and f64.
 * - Otherwise rows go to the first mode (32, or fewer when every row count is smaller) and columns
 *   to the second (one per 8 columns of the widest static matrix, up to 8; 4 when a matrix has a
 *   dynamic column count or the outputs are vectors).
 * A GEMM rule of the tuning (gemmWorkGroups) goes first where one matches (the largest extent within its sizes, every
 * GEMM's C of its element type where it names one) and gives a size.
 * A function with an empty body (a signature, as the calling-convention page writes them) runs
 * nothing and gets none.
 */
export function chooseWorkGroupSize(
  f: Func,
  tuning: ChoiceTuning = { width: CHOSEN_WIDTH, accumulatorBytes: ACCUMULATOR_BYTES },
): WorkGroupChoice | null {
  if (f.workGroupSize) return { size: f.workGroupSize, chosen: false };
  if (f.subgroupSize) return { size: [f.subgroupSize, 1], chosen: false };
  if (f.body.body.length === 0) return null;
  let rows: Dim = 0;
  let cols: Dim = 0;
  let collective = false;
  const gemms: { m: number; n: number; bytes: number; element: ScalarTypeName }[] = [];
  let dynamicGemm = false;
  const widen = (a: Dim, b: Dim): Dim => (a === null || b === null ? null : Math.max(a, b));
  for (const inst of instructions(f.body)) {
    if (inst.op === 'foreach') collective = true;
    if (inst.op !== 'blas') continue;
    collective = true;
    const out = inst.types[inst.types.length - 1].type as MemrefType;
    if (out.kind !== 'memref') continue;
    rows = widen(rows, out.shape.length === 0 ? 1 : out.shape[0]);
    if (out.shape.length === 2) cols = widen(cols, out.shape[1]);
    if (inst.fn === 'gemm') {
      const [m, n] = out.shape;
      if (m === null || n === null) dynamicGemm = true;
      else gemms.push({ m, n, bytes: SCALAR_BYTES[out.element], element: out.element });
    }
  }
  if (!collective) return { size: [tuning.width, 1], chosen: true };
  if (gemms.length && !dynamicGemm) {
    const largest = Math.max(...gemms.map((g) => Math.max(g.m, g.n)));
    const measured = tuning.gemmWorkGroups?.find(
      (r) =>
        largest <= r.maxSize &&
        largest >= (r.minSize ?? 0) &&
        (r.element === undefined || gemms.every((g) => g.element === r.element)),
    )?.size;
    if (measured) return { size: measured, chosen: true };
    const wg1 = Math.min(8, Math.max(1, ...gemms.map((g) => Math.ceil(g.n / 4))));
    const fits = (wg0: number) =>
      gemms.every(
        (g) =>
          Math.min(4, Math.ceil(g.m / wg0)) * Math.min(8, Math.ceil(g.n / wg1)) * g.bytes <= tuning.accumulatorBytes,
      );
    const maxRows = Math.max(...gemms.map((g) => g.m));
    const wg0 = maxRows < 16 ? nextPow2(maxRows) : fits(16) ? 16 : tuning.width;
    return { size: [wg0, wg1], chosen: true };
  }
  const m = rows === null || rows >= tuning.width ? tuning.width : nextPow2(rows);
  const n = cols === null || cols === 0 ? 4 : Math.min(8, Math.max(1, Math.ceil(cols / 8)));
  return { size: [m, n], chosen: true };
}
