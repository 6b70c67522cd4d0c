// GEMM in SPIR-V, by the variant the BLAS policy gives C's shape and type (blas-policy.ts), as the
// OpenCL C backend's gemm.ts emits it: the same register tile (tiling.ts), the same K tiles, the
// same tile layouts in work-group memory, and the products added in the order k = 0, 1, … into
// each accumulator, so both backends compute the same values. A and B of another element type
// than C are converted to C's as they are read (as the OpenCL C's assignments to C's type do).
// SPIR-V has no vload: the vector variants keep their layouts (neighbouring rows and columns per
// invocation) and read element by element.
import { SCALAR_BYTES } from '../../../tinytc/ast.js';
import { Op } from '../../../emit/spirv/spec.js';
import type { AtomicMode } from '../../../tinytc/codegen/atomic-mode.js';
import { type StagedVariantName, gemmVariant, stagedKTile } from '../../../tinytc/codegen/blas-policy.js';
import { gemmTiling } from '../../../tinytc/codegen/tiling.js';
import { type SCollectiveContext, type SScalar, type Trans, op, opAt, update } from './collective.js';
import type { SExt, SView, Sym } from './gen.js';

/** C := alpha op(A) op(B) + beta C. */
export function gemm(ctx: SCollectiveContext, ta: Trans, tb: Trans, atomic: AtomicMode | null, alpha: SScalar, a: SView, b: SView, beta: SScalar, c: SView): void {
  const variant = gemmVariant(ctx.blas, c.element, c.shape[0], c.shape[1]);
  if (variant === 'direct' || variant === 'direct-vector') direct(ctx, variant === 'direct-vector', ta, tb, atomic, alpha, a, b, beta, c);
  else staged(ctx, variant, ta, tb, atomic, alpha, a, b, beta, c);
}

/** Widths the OpenCL C backend reads local tiles as vectors at (its tile layouts pad for them). */
const isVectorWidth = (n: number) => n === 2 || n === 4 || n === 8;

/** The r-th row (or column) of an invocation inside its block: lid + r·wg, or with `neighbours` lid·per + r. */
function inBlock(ctx: SCollectiveContext, lid: Sym, wg: number, per: number, neighbours: boolean, r: number): SExt {
  const x = ctx.g.ext;
  return neighbours ? x.add(x.mul(lid, per), r) : x.add(lid, r * wg);
}

/** An invocation's register tile over C's block at (ib, jb): its rows, columns, bounds checks and accumulators. */
function registerTile(ctx: SCollectiveContext, c: SView, ib: SExt, jb: SExt, neighbours: boolean) {
  const g = ctx.g;
  const [wg0, wg1] = ctx.wg;
  const [M, N] = c.shape;
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N);
  // (ib + lid) + r·wg, or ib + (lid·rm + r).
  const at = (b: SExt, lid: Sym, wg: number, per: number, r: number) => (neighbours ? g.ext.add(b, inBlock(ctx, lid, wg, per, true, r)) : g.ext.add(g.ext.add(b, lid), r * wg));
  const rows = Array.from({ length: rm }, (_, r) => at(ib, ctx.lid0, wg0, rm, r));
  const cols = Array.from({ length: rn }, (_, q) => at(jb, ctx.lid1, wg1, rn, q));
  const inRow = rows.map((r) => (fullRows ? null : g.lessThan(r, M)));
  const inCol = cols.map((q) => (fullCols ? null : g.lessThan(q, N)));
  const zero = g.constant(c.element, 0);
  const accs = rows.map(() => cols.map(() => g.variable(c.element, zero)));
  return { rm, rn, fullRows, fullCols, rows, cols, inRow, inCol, accs };
}
type RegisterTile = ReturnType<typeof registerTile>;

/** C's blocks of (wg0·rm) × (wg1·rn), one after another, the work-group on each. */
function blocks(ctx: SCollectiveContext, c: SView, body: (ib: Sym, jb: Sym) => void): void {
  const { rm, rn } = gemmTiling(ctx.wg, c.shape[0], c.shape[1]);
  ctx.g.forIndex(0, c.shape[1], ctx.wg[1] * rn, (jb) => ctx.g.forIndex(0, c.shape[0], ctx.wg[0] * rm, (ib) => body(ib, jb)));
}

/** acc[r][q] += as[r] · bs[q] for every accumulator. */
function products(ctx: SCollectiveContext, t: RegisterTile, e: SView['element'], as: readonly number[], bs: readonly number[]): void {
  const g = ctx.g;
  t.accs.forEach((row, i) => row.forEach((acc, j) => acc.set(g.add(e, acc.get(), g.mul(e, as[i], bs[j])))));
}

/** After the K loop: C's elements of the tile that lie inside C get alpha · acc (+ beta · C). */
function writeBack(ctx: SCollectiveContext, c: SView, t: RegisterTile, alpha: SScalar, beta: SScalar, atomic: AtomicMode | null): void {
  const g = ctx.g;
  t.rows.forEach((r, i) =>
    t.cols.forEach((q, j) => {
      const write = () => update(ctx, c, [r, q], g.mul(c.element, alpha.id, t.accs[i][j].get()), beta, atomic);
      const conds = [t.inRow[i], t.inCol[j]].filter((x): x is number => x !== null);
      if (conds.length === 0) write();
      else g.f.ifThen(conds.length === 2 ? g.and(conds[0], conds[1]) : conds[0], write);
    }),
  );
}

/** A value read only where `cond` holds (OpSelect would read it anyway), else 0. */
function guarded(ctx: SCollectiveContext, e: SView['element'], cond: number | null, read: () => number): number {
  if (cond === null) return read();
  const v = ctx.g.variable(e, ctx.g.constant(e, 0));
  ctx.g.f.ifThen(cond, () => v.set(read()));
  return v.get();
}

/** Register blocking from where A and B are: each invocation reads its rows of op(A) and columns of op(B) once per k. */
function direct(ctx: SCollectiveContext, neighbours: boolean, ta: Trans, tb: Trans, atomic: AtomicMode | null, alpha: SScalar, a: SView, b: SView, beta: SScalar, c: SView): void {
  const e = c.element;
  blocks(ctx, c, (ib, jb) => {
    const t = registerTile(ctx, c, ib, jb, neighbours);
    ctx.g.forIndex(0, op(a, ta).cols, 1, (k) => {
      const as = t.rows.map((r, i) => guarded(ctx, e, t.inRow[i], () => opAt(ctx, a, ta, r, k, e)));
      const bs = t.cols.map((q, j) => guarded(ctx, e, t.inCol[j], () => opAt(ctx, b, tb, k, q, e)));
      products(ctx, t, e, as, bs);
    });
    writeBack(ctx, c, t, alpha, beta, atomic);
  });
}

/** One operand's tile in op() coordinates: where it starts, its extents, the matrix's extents, which modes never pass them, and where an element goes in the array. */
interface TileLoad {
  readonly view: SView;
  readonly trans: Trans;
  readonly base: readonly [SExt, SExt];
  readonly extent: readonly [number, number];
  readonly limit: readonly [SExt, SExt];
  readonly full: readonly [boolean, boolean];
  readonly tile: SView;
  readonly at: (i0: SExt, i1: SExt) => SExt;
}

/**
 * The work-group copies a tile into work-group memory, walking the operand's first mode fastest
 * (neighbouring invocations read neighbouring addresses); elements outside the matrix become 0.
 */
function loadTile(ctx: SCollectiveContext, e: SView['element'], t: TileLoad): void {
  const g = ctx.g;
  // The tile mode that is the operand's first (memory) mode.
  const f = t.trans === 't' ? 1 : 0;
  const nf = t.extent[f];
  g.forIndex(ctx.lid, t.extent[0] * t.extent[1], ctx.wg[0] * ctx.wg[1], (it) => {
    const fast: SExt = nf === 1 ? 0 : { id: g.f.op(Op.UMod, g.i64t, it.id, g.i64(nf)) };
    const slow: SExt = nf === 1 ? it : { id: g.f.op(Op.UDiv, g.i64t, it.id, g.i64(nf)) };
    const [i0, i1] = f === 0 ? [fast, slow] : [slow, fast];
    const at: [SExt, SExt] = [g.ext.add(t.base[0], i0), g.ext.add(t.base[1], i1)];
    const inside = ([0, 1] as const).filter((d) => !t.full[d]).map((d) => g.lessThan(at[d], t.limit[d]));
    const cond = inside.length === 0 ? null : inside.length === 1 ? inside[0] : g.and(inside[0], inside[1]);
    g.store(t.tile, [t.at(i0, i1)], guarded(ctx, e, cond, () => opAt(ctx, t.view, t.trans, at[0], at[1], e)));
  });
}

/**
 * Register blocking from work-group memory: per K tile the work-group copies op(A)'s (wg0·rm) × T
 * and op(B)'s T × (wg1·rn) elements into work-group arrays, waits at a barrier, and each invocation
 * reads its rows and columns from there; a second barrier before the next tiles overwrite them.
 * A's tile is kept row-fastest. `staged-*`: B's tile column by column with one element of padding
 * (the columns a warp reads lie in different banks); `vector-*`: B's tile row by row, padded by rn,
 * and each invocation's rows and columns neighbours.
 */
function staged(ctx: SCollectiveContext, variant: StagedVariantName, ta: Trans, tb: Trans, atomic: AtomicMode | null, alpha: SScalar, a: SView, b: SView, beta: SScalar, c: SView): void {
  const g = ctx.g;
  const x = g.ext;
  const e = c.element;
  const [wg0, wg1] = ctx.wg;
  const [M, N] = c.shape;
  const K = op(a, ta).cols;
  const vector = variant.startsWith('vector-');
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N);
  const mb = wg0 * rm;
  const nb = wg1 * rn;
  const kt = stagedKTile(variant, K, mb, nb, SCALAR_BYTES[e], ctx.blas.localBytes);
  const fullK = typeof K === 'number' && K % kt === 0;
  // B's tile: k + j·(T+1) (staged), or k·(nb+pad) + j (vector).
  const bRow = vector ? nb + (isVectorWidth(rn) ? rn : 1) : 0;
  const bAt = vector ? (kk: SExt, j: SExt) => x.add(x.mul(kk, bRow), j) : (kk: SExt, j: SExt) => x.add(kk, x.mul(j, kt + 1));
  const aAt = (i: SExt, kk: SExt) => x.add(i, x.mul(kk, mb));
  const aTile = ctx.workgroupArray(e, mb * kt);
  const bTile = ctx.workgroupArray(e, vector ? kt * bRow : nb * (kt + 1));
  blocks(ctx, c, (ib, jb) => {
    const t = registerTile(ctx, c, ib, jb, vector);
    const aRows = Array.from({ length: rm }, (_, r) => inBlock(ctx, ctx.lid0, wg0, rm, vector, r));
    const bCols = Array.from({ length: rn }, (_, q) => inBlock(ctx, ctx.lid1, wg1, rn, vector, q));
    g.forIndex(0, K, kt, (kb) => {
      // The k of this tile: all T of them, or what is left of K.
      let kn: SExt = kt;
      if (!fullK) {
        const left = g.idx(x.sub(K, kb));
        kn = { id: g.f.op(Op.Select, g.i64t, g.lessThan({ id: left }, kt), left, g.i64(kt)) };
      }
      loadTile(ctx, e, { view: a, trans: ta, base: [ib, kb], extent: [mb, kt], limit: [M, K], full: [fullRows, fullK], tile: aTile, at: aAt });
      loadTile(ctx, e, { view: b, trans: tb, base: [kb, jb], extent: [kt, nb], limit: [K, N], full: [fullK, fullCols], tile: bTile, at: bAt });
      ctx.localBarrier();
      g.forIndex(0, kn, 1, (k) => {
        const as = aRows.map((r) => g.load(aTile, [aAt(r, k)]));
        const bs = bCols.map((q) => g.load(bTile, [bAt(k, q)]));
        products(ctx, t, e, as, bs);
      });
      ctx.localBarrier();
    });
    writeBack(ctx, c, t, alpha, beta, atomic);
  });
}
