// GEMM in SPIR-V, by the variant the BLAS policy gives C's shape and type (blas-policy.ts), as the
// OpenCL C backend's gemm.ts emits it: the same register tile (tiling.ts), the same K tiles, the
// same tile layouts in work-group memory, and the products added in the order k = 0, 1, … into
// each accumulator, so both backends compute the same values. A and B of another element type
// than C are converted to C's as they are read (as the OpenCL C's assignments to C's type do).
// SPIR-V has no vload: the vector variants keep their layouts (neighbouring rows and columns per
// invocation) and read element by element. The policy's SPIR-V knobs (blas-policy.ts,
// SpirvGemmKnobs) change how indices and loops are spelled, never the sums.
import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import { Op } from '../../emit/spirv/spec.js';
import type { AtomicMode } from '../atomic-mode.js';
import { type StagedVariantName, UNROLL_K_STEPS, gemmRule, stagedKTile } from '../blas-policy.js';
import { type SpirvGemmKnobs, UNROLL_PRODUCTS } from '../spirv-knobs.js';
import type { ExtOps } from '../dope.js';
import { gemmTiling } from '../tiling.js';
import { type SCollectiveContext, type SScalar, type Trans, op, opAt, update } from './collective.js';
import { type SExt, type SView, type Sym, narrow } from './gen.js';

/**
 * How one GEMM is spelled (the policy's knobs resolved for its shapes): the index arithmetic (`x`,
 * 32-bit where M, N and K are static and small), the work-item ids in it, the fill and the unroll.
 */
interface Spelling {
  readonly x: ExtOps<Sym>;
  readonly i32: boolean;
  readonly lid0: Sym;
  readonly lid1: Sym;
  readonly lid: Sym;
  readonly fill: 'divide' | 'hoisted';
  readonly unroll: 'none' | 'hint' | 'full';
}

/** Extents whose indices, products with the tiles' strides included, stay far below 2^31. */
const SMALL = 2 ** 20;

/** C := alpha op(A) op(B) + beta C. */
export function gemm(
  ctx: SCollectiveContext,
  ta: Trans,
  tb: Trans,
  atomic: AtomicMode | null,
  alpha: SScalar,
  a: SView,
  b: SView,
  beta: SScalar,
  c: SView,
): void {
  const rule = gemmRule(ctx.blas, c.element, c.shape[0], c.shape[1]);
  const variant = rule?.variant ?? 'direct';
  // The rule's spelling, each knob a caller sets overriding it (not a hot path: once per GEMM printed).
  const knobs: SpirvGemmKnobs = { ...rule?.spirv, ...ctx.blas.spirv };
  const i32 =
    knobs.index32 === true && [c.shape[0], c.shape[1], op(a, ta).cols].every((e) => typeof e === 'number' && e < SMALL);
  const unroll = knobs.unroll ?? 'none';
  const g = ctx.g;
  const sp: Spelling = {
    x: i32 ? g.ext32 : g.ext,
    i32,
    lid0: i32 ? g.sym32(ctx.lid0) : ctx.lid0,
    lid1: i32 ? g.sym32(ctx.lid1) : ctx.lid1,
    lid: i32 ? g.sym32(ctx.lid) : ctx.lid,
    fill: knobs.fill ?? 'divide',
    // Loops are written out only in the 32-bit spelling: NVIDIA's Vulkan compiler (driver 580.159,
    // H100 and H200) computed columns 26–29 of a 32×48×32 f64 `vector-all` GEMM wrong, the same
    // values at every launch and on both 16x8 and 32x4, from the fully unrolled 64-bit spelling,
    // while the byte-identical module gave the reference's values on lavapipe and passes spirv-val,
    // and the same GEMM written out with 32-bit indices was right (bench/tinytc-gemm-probe.ts,
    // 2026-11-27). Elsewhere `full` asks for what `hint` does: loops marked Unroll.
    // The same where writing out would make more than UNROLL_PRODUCTS products per work-item.
    unroll:
      unroll === 'full' && (!i32 || writtenOutProducts(ctx, c, op(a, ta).cols) > UNROLL_PRODUCTS) ? 'hint' : unroll,
  };
  if (variant === 'direct' || variant === 'direct-vector')
    direct(ctx, sp, variant === 'direct-vector', ta, tb, atomic, alpha, a, b, beta, c);
  else staged(ctx, sp, variant, ta, tb, atomic, alpha, a, b, beta, c);
}

/**
 * The products one work-item would write out under `full`: its register tile × K × the blocks of C
 * the work-group walks (static extents; a dynamic one counts as unbounded).
 */
function writtenOutProducts(ctx: SCollectiveContext, c: SView, K: SExt): number {
  const [M, N] = c.shape;
  if (typeof M !== 'number' || typeof N !== 'number' || typeof K !== 'number') return Infinity;
  const { rm, rn } = gemmTiling(ctx.wg, M, N);
  const blocks = Math.ceil(M / (ctx.wg[0] * rm)) * Math.ceil(N / (ctx.wg[1] * rn));
  return rm * rn * K * blocks;
}

/**
 * for (i = start; i < end; i += step) body(i). Under `full` unroll, with a static end and at most
 * `maxTrips` trips, written out: from a static start each i is a number; from a run-time start
 * below `startBound` (≤ step: a work-item id), the trips every work-item makes run unguarded and the
 * last ones behind `i < end`. Otherwise a loop (32-bit where its bounds are narrow in a 32-bit
 * spelling), marked Unroll unless the knob is `none`. Returns whether it was written out.
 */
function loop(
  ctx: SCollectiveContext,
  sp: Spelling,
  start: SExt,
  end: SExt,
  step: number,
  maxTrips: number,
  body: (i: SExt) => void,
  startBound = 1,
): boolean {
  const g = ctx.g;
  if (sp.unroll === 'full' && typeof end === 'number') {
    if (typeof start === 'number') {
      const trips = Math.max(0, Math.ceil((end - start) / step));
      if (trips <= maxTrips) {
        for (let s = 0; s < trips; s++) body(start + s * step);
        return true;
      }
    } else if (startBound <= step && Math.ceil(end / step) <= maxTrips) {
      for (let s = 0; s * step < end; s++) {
        const i = sp.x.add(start, s * step);
        if (s * step + startBound <= end) body(i);
        else g.f.ifThen(g.lessThan(i, end), () => body(i));
      }
      return true;
    }
  }
  g.forIndex(start, end, step, body, {
    i32: sp.i32 && narrow(start) && narrow(end),
    control: sp.unroll === 'none' ? 0 : 1,
  });
  return false;
}

/** An accumulator: a Function variable, or (`ssa`: every loop it is updated in is written out) the id last set. */
function accumulator(
  ctx: SCollectiveContext,
  e: SView['element'],
  ssa: boolean,
): { get(): number; set(x: number): void } {
  const zero = ctx.g.constant(e, 0);
  if (!ssa) return ctx.g.variable(e, zero);
  let value = zero;
  return {
    get: () => value,
    set: (x) => {
      value = x;
    },
  };
}

/** Widths the OpenCL C backend reads local tiles as vectors at (its tile layouts pad for them). */
const isVectorWidth = (n: number) => n === 2 || n === 4 || n === 8;

/** The r-th row (or column) of an invocation inside its block: lid + r·wg, or with `neighbours` lid·per + r. */
function inBlock(sp: Spelling, lid: Sym, wg: number, per: number, neighbours: boolean, r: number): SExt {
  const x = sp.x;
  return neighbours ? x.add(x.mul(lid, per), r) : x.add(lid, r * wg);
}

/** An invocation's register tile over C's block at (ib, jb): its rows, columns, bounds checks and accumulators (SSA values with `ssa`). */
function registerTile(
  ctx: SCollectiveContext,
  sp: Spelling,
  c: SView,
  ib: SExt,
  jb: SExt,
  neighbours: boolean,
  ssa: boolean,
) {
  const g = ctx.g;
  const x = sp.x;
  const [wg0, wg1] = ctx.wg;
  const [M, N] = c.shape;
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N);
  // (ib + lid) + r·wg, or ib + (lid·rm + r).
  const at = (b: SExt, lid: Sym, wg: number, per: number, r: number) =>
    neighbours ? x.add(b, inBlock(sp, lid, wg, per, true, r)) : x.add(x.add(b, lid), r * wg);
  const rows = Array.from({ length: rm }, (_, r) => at(ib, sp.lid0, wg0, rm, r));
  const cols = Array.from({ length: rn }, (_, q) => at(jb, sp.lid1, wg1, rn, q));
  const inRow = rows.map((r) => (fullRows ? null : g.lessThan(r, M)));
  const inCol = cols.map((q) => (fullCols ? null : g.lessThan(q, N)));
  const accs = rows.map(() => cols.map(() => accumulator(ctx, c.element, ssa)));
  return { rm, rn, fullRows, fullCols, rows, cols, inRow, inCol, accs };
}
type RegisterTile = ReturnType<typeof registerTile>;

/** C's blocks of (wg0·rm) × (wg1·rn), one after another, the work-group on each (written out under `full` up to 4 per mode). */
function blocks(ctx: SCollectiveContext, sp: Spelling, c: SView, body: (ib: SExt, jb: SExt) => void): void {
  const { rm, rn } = gemmTiling(ctx.wg, c.shape[0], c.shape[1]);
  loop(ctx, sp, 0, c.shape[1], ctx.wg[1] * rn, 4, (jb) =>
    loop(ctx, sp, 0, c.shape[0], ctx.wg[0] * rm, 4, (ib) => body(ib, jb)),
  );
}

/** Whether a `full` unroll writes out every K step of a GEMM (then its accumulators are SSA values). */
const unrollsK = (sp: Spelling, K: SExt) => sp.unroll === 'full' && typeof K === 'number' && K <= UNROLL_K_STEPS;

/** acc[r][q] += as[r] · bs[q] for every accumulator. */
function products(
  ctx: SCollectiveContext,
  t: RegisterTile,
  e: SView['element'],
  as: readonly number[],
  bs: readonly number[],
): void {
  const g = ctx.g;
  t.accs.forEach((row, i) => row.forEach((acc, j) => acc.set(g.add(e, acc.get(), g.mul(e, as[i], bs[j])))));
}

/** After the K loop: C's elements of the tile that lie inside C get alpha · acc (+ beta · C). */
function writeBack(
  ctx: SCollectiveContext,
  c: SView,
  t: RegisterTile,
  alpha: SScalar,
  beta: SScalar,
  atomic: AtomicMode | null,
): void {
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
function direct(
  ctx: SCollectiveContext,
  sp: Spelling,
  neighbours: boolean,
  ta: Trans,
  tb: Trans,
  atomic: AtomicMode | null,
  alpha: SScalar,
  a: SView,
  b: SView,
  beta: SScalar,
  c: SView,
): void {
  const e = c.element;
  const K = op(a, ta).cols;
  const ssa = unrollsK(sp, K);
  blocks(ctx, sp, c, (ib, jb) => {
    const t = registerTile(ctx, sp, c, ib, jb, neighbours, ssa);
    loop(ctx, sp, 0, K, 1, UNROLL_K_STEPS, (k) => {
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
function loadTile(ctx: SCollectiveContext, sp: Spelling, e: SView['element'], t: TileLoad): void {
  const g = ctx.g;
  const x = sp.x;
  // The tile mode that is the operand's first (memory) mode.
  const f = t.trans === 't' ? 1 : 0;
  const nf = t.extent[f];
  const ns = t.extent[1 - f];
  const W = ctx.wg[0] * ctx.wg[1];
  const element = (fast: SExt, slow: SExt) => {
    const [i0, i1] = f === 0 ? [fast, slow] : [slow, fast];
    const at: [SExt, SExt] = [x.add(t.base[0], i0), x.add(t.base[1], i1)];
    const inside = ([0, 1] as const).filter((d) => !t.full[d]).map((d) => g.lessThan(at[d], t.limit[d]));
    const cond = inside.length === 0 ? null : inside.length === 1 ? inside[0] : g.and(inside[0], inside[1]);
    g.store(
      t.tile,
      [t.at(i0, i1)],
      guarded(ctx, e, cond, () => opAt(ctx, t.view, t.trans, at[0], at[1], e)),
    );
  };
  const divide = (a: SExt, opcode: number): Sym =>
    sp.i32
      ? { id: g.f.op(opcode, g.i32t, g.idx32(a), g.u32(nf)), i32: true }
      : { id: g.f.op(opcode, g.i64t, g.idx(a), g.i64(nf)) };
  const maxTrips = Math.ceil((nf * ns) / W);
  if (sp.fill === 'hoisted' && nf > 1 && W % nf === 0) {
    // Every work-item keeps its fast index: lid mod nf; its slow index starts at lid / nf and steps by W / nf.
    const fast = divide(sp.lid, Op.UMod);
    loop(ctx, sp, divide(sp.lid, Op.UDiv), ns, W / nf, maxTrips, (slow) => element(fast, slow), W / nf);
  } else if (sp.fill === 'hoisted' && nf > 1 && nf % W === 0) {
    // Whole rows (columns) of the fast mode at a time: the work-group walks each from lid by W.
    loop(ctx, sp, 0, ns, 1, ns, (slow) => loop(ctx, sp, sp.lid, nf, W, nf / W, (fast) => element(fast, slow), W));
  } else {
    loop(
      ctx,
      sp,
      sp.lid,
      nf * ns,
      W,
      maxTrips,
      (it) => (nf === 1 ? element(0, it) : element(divide(it, Op.UMod), divide(it, Op.UDiv))),
      W,
    );
  }
}

/**
 * Register blocking from work-group memory: per K tile the work-group copies op(A)'s (wg0·rm) × T
 * and op(B)'s T × (wg1·rn) elements into work-group arrays, waits at a barrier, and each invocation
 * reads its rows and columns from there; a second barrier before the next tiles overwrite them.
 * A's tile is kept row-fastest. `staged-*`: B's tile column by column with one element of padding
 * (the columns a warp reads lie in different banks); `vector-*`: B's tile row by row, padded by rn,
 * and each invocation's rows and columns neighbours.
 */
function staged(
  ctx: SCollectiveContext,
  sp: Spelling,
  variant: StagedVariantName,
  ta: Trans,
  tb: Trans,
  atomic: AtomicMode | null,
  alpha: SScalar,
  a: SView,
  b: SView,
  beta: SScalar,
  c: SView,
): void {
  const g = ctx.g;
  const x = sp.x;
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
  const bAt = vector
    ? (kk: SExt, j: SExt) => x.add(x.mul(kk, bRow), j)
    : (kk: SExt, j: SExt) => x.add(kk, x.mul(j, kt + 1));
  const aAt = (i: SExt, kk: SExt) => x.add(i, x.mul(kk, mb));
  const aTile = ctx.workgroupArray(e, mb * kt);
  const bTile = ctx.workgroupArray(e, vector ? kt * bRow : nb * (kt + 1));
  // Written out (K static and short enough under `full`): every tile's k count is static, the accumulators SSA values.
  const ssa = unrollsK(sp, K);
  blocks(ctx, sp, c, (ib, jb) => {
    const t = registerTile(ctx, sp, c, ib, jb, vector, ssa);
    const aRows = Array.from({ length: rm }, (_, r) => inBlock(sp, sp.lid0, wg0, rm, vector, r));
    const bCols = Array.from({ length: rn }, (_, q) => inBlock(sp, sp.lid1, wg1, rn, vector, q));
    loop(ctx, sp, 0, K, kt, ssa ? UNROLL_K_STEPS : 0, (kb) => {
      // The k of this tile: all T of them, or what is left of K.
      let kn: SExt = kt;
      if (typeof K === 'number' && typeof kb === 'number') kn = Math.min(kt, K - kb);
      else if (!fullK) {
        const left = x.sub(K, kb);
        kn =
          sp.i32 && narrow(left)
            ? { id: g.f.op(Op.Select, g.i32t, g.lessThan(left, kt), g.idx32(left), g.u32(kt)), i32: true }
            : { id: g.f.op(Op.Select, g.i64t, g.lessThan(left, kt), g.idx(left), g.i64(kt)) };
      }
      loadTile(ctx, sp, e, {
        view: a,
        trans: ta,
        base: [ib, kb],
        extent: [mb, kt],
        limit: [M, K],
        full: [fullRows, fullK],
        tile: aTile,
        at: aAt,
      });
      loadTile(ctx, sp, e, {
        view: b,
        trans: tb,
        base: [kb, jb],
        extent: [kt, nb],
        limit: [K, N],
        full: [fullK, fullCols],
        tile: bTile,
        at: bAt,
      });
      ctx.localBarrier();
      loop(ctx, sp, 0, kn, 1, kt, (k) => {
        const as = aRows.map((r) => g.load(aTile, [aAt(r, k)]));
        const bs = bCols.map((q) => g.load(bTile, [bAt(k, q)]));
        products(ctx, t, e, as, bs);
      });
      ctx.localBarrier();
    });
    writeBack(ctx, c, t, alpha, beta, atomic);
  });
}
