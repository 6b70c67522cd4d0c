// How tinytc v0.4 distributes a cooperative matrix over a subgroup (intel/tiny-tensor-compiler v0.4.0,
// docs/dev/coopmatrix_layout.rst and src/coopmatrix_layout.cpp): each work-item holds a vector of
// `length` components. An M×N matrix over a subgroup of S lanes is seen as an I × K₁ × J × K₂ tensor
// with I = min(M, S), J the columns padded so that I·J is a multiple of S, K = K₁K₂ = M / I row
// blocks; component v of lane p holds row p mod I + (k₁ + k₂K₁)·I and column ⌊p / I⌋ + u·(S / I),
// where v = k₁ + u·K₁ + k₂·K₁·(length / K). The instructions that need no other lane (construct,
// extract, insert, arithmetic, cast, scale) act on that vector component by component; the layout
// also says how a code generator stores it (matrix_a packs low-precision components into i32).
import type { CoopmatrixLayout, CoopmatrixType, CoopmatrixUse, ScalarTypeName } from './ast.js';
import { SCALAR_BYTES } from './ast.js';

export type { CoopmatrixLayout, CoopmatrixType, CoopmatrixUse } from './ast.js';

/** Bytes of a component as tinytc's `size(ty)` gives them (a complex number is one component of two floats). */
const bytes = (t: ScalarTypeName): number => SCALAR_BYTES[t];

/** The layout of an M×N matrix of `component` with `use` over `subgroupSize` lanes; M and S are powers of two. */
export function coopmatrixLayout(
  component: ScalarTypeName,
  [m, n]: readonly [number, number],
  use: CoopmatrixUse,
  subgroupSize: number,
): CoopmatrixLayout {
  const rows = Math.min(m, subgroupSize);
  const cols = (Math.ceil((rows * n) / subgroupSize) * subgroupSize) / rows;
  const blocks = m / rows;
  const length = (rows * cols * blocks) / subgroupSize;
  const blocks1 = use === 'matrix_b' && blocks > 1 ? Math.max(1, Math.floor(2 / bytes(component))) : 1;
  // tinytc packs every matrix_a (its test of the column count against the packing is against 1, so always true).
  const opsPerChannel = use === 'matrix_a' ? Math.max(1, Math.floor(4 / bytes(component))) : 1;
  return { rows, cols, blocks, blocks1, length, opsPerChannel };
}

export function coopmatrixType(
  component: ScalarTypeName,
  shape: readonly [number, number],
  use: CoopmatrixUse,
  subgroupSize: number,
): CoopmatrixType {
  return {
    kind: 'coopmatrix',
    component,
    shape,
    use,
    subgroupSize,
    layout: coopmatrixLayout(component, shape, use, subgroupSize),
  };
}

export const isPowerOfTwo = (x: number): boolean => Number.isInteger(x) && x >= 1 && (x & (x - 1)) === 0;

/** Where component v lies past its lane's own row and column (p mod I, ⌊p / I⌋): k·I rows, u·S/I columns. */
export function coopmatrixOffsets(t: CoopmatrixType, v: number): { readonly row: number; readonly col: number } {
  const l = t.layout;
  const perBlock = l.length / l.blocks;
  const k1 = v % l.blocks1;
  const u = Math.floor(v / l.blocks1) % perBlock;
  const k2 = Math.floor(v / (l.blocks1 * perBlock));
  return { row: (k1 + k2 * l.blocks1) * l.rows, col: u * (t.subgroupSize / l.rows) };
}

/** The matrix entry (row, column) that component v of lane p holds, or null for padding. */
export function coopmatrixEntry(t: CoopmatrixType, p: number, v: number): readonly [number, number] | null {
  const off = coopmatrixOffsets(t, v);
  const row = (p % t.layout.rows) + off.row;
  const col = Math.floor(p / t.layout.rows) + off.col;
  return row < t.shape[0] && col < t.shape[1] ? [row, col] : null;
}
