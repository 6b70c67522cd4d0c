// The pieces the SPIR-V printer's GEMMs are built from (gemm.ts, gemm-overlap.ts): how one GEMM is
// spelled, loops that a `full` unroll writes out, a register tile of C with its accumulators and
// write-back, C's blocks, and a work-group's copy of one operand's tile into work-group memory.
import { Op } from '../../emit/spirv/spec.js';
import type { AtomicMode } from '../atomic-mode.js';
import { LOCAL_BYTES, UNROLL_K_STEPS } from '../blas-policy.js';
import type { ExtOps } from '../dope.js';
import { gemmTiling } from '../tiling.js';
import { type SCollectiveContext, type SScalar, type Trans, opAt, update } from './collective.js';
import { type SExt, type SView, type Sym, narrow } from './gen.js';
import type { VectorOperand } from './vector-axpby.js';
import { mathInst } from './math.js';

/** An operand read as vectors of `w` elements (gemm-vector-reads.ts): vector `k` from the view's first by `pointer`. */
export interface VectorReads extends VectorOperand {
  readonly w: number;
}

/**
 * How one GEMM is spelled (the policy's knobs resolved for its shapes): the index arithmetic (`x`,
 * 32-bit where M, N and K are static and small), the work-item ids in it, the fill and the unroll.
 */
export interface Spelling {
  readonly x: ExtOps<Sym>;
  readonly i32: boolean;
  readonly lid0: Sym;
  readonly lid1: Sym;
  readonly lid: Sym;
  readonly fill: 'divide' | 'hoisted';
  readonly unroll: 'none' | 'hint' | 'full';
  /** The operands whose tiles are filled through vector reads (the `vload` knob; gemm-vector-reads.ts). */
  readonly vectors: ReadonlyMap<SView, VectorReads>;
  /**
   * Where the vectors' alignment is known at run time only, the condition that they are aligned: each
   * fill of those operands branches on it around its global reads (one vector, or its elements one by
   * one), into the same registers; null where they are aligned statically.
   */
  readonly aligned: number | null;
  /** Products of floats into their accumulators as fused multiply-adds (the `fma` knob). */
  readonly fma: boolean;
  /** A staged K tile's reads of both operands before its stores (the `batch` knob). */
  readonly batch: boolean;
  /** The register tile's cap: the `tile` knob, or tiling.ts's GEMM_TILE_MAX. */
  readonly tile: readonly [number, number];
  /** `vector-*` tiles as arrays of 16-byte vectors, read a vector at a time (the `lvec` knob). */
  readonly lvec: boolean;
  /** B's tile padding (the `pad` knob), or null for the variant's own. */
  readonly pad: number | null;
  /** The K-tile loop kept a loop, marked DontUnroll, where `full` would write it out (the `kloop` knob). */
  readonly kLoop: boolean;
  /** A's tile k-fastest, rows T + apad apart (the `apad` knob), or null for rows fastest. */
  readonly apad: number | null;
  /** C written back as 16-byte vectors where it can be, rows of C neighbours (the `cvec` knob; gemm-write-vectors.ts). */
  readonly cvec: boolean;
  /** Each invocation's rows of C neighbours, C written element by element (the `nrows` knob). */
  readonly nearRows: boolean;
  /**
   * C written back through work-group memory as 16-byte vectors where it can be, this many of the register tile's columns
   * at a time (the `cstage` knob; gemm-stage-c.ts), or 0.
   */
  readonly cstage: number;
}

/**
 * Where op(A)'s element (i, k) of a K tile lies in its work-group array, and the array's size: rows fastest (i + k·mb),
 * or under `apad` k fastest (k + i·(kt + apad)) where `copies` of that tile beside `others` elements (B's tiles) still
 * fit the work-group memory (`localBytes`) the K tile was sized for.
 */
export function aTileLayout(
  sp: Spelling,
  bytes: number,
  mb: number,
  kt: number,
  copies: number,
  others: number,
  localBytes = LOCAL_BYTES,
): { at: (i: SExt, kk: SExt) => SExt; size: number; kFast: boolean } {
  const x = sp.x;
  const row = sp.apad === null ? 0 : kt + sp.apad;
  if (row && (copies * mb * row + others) * bytes <= localBytes)
    return { at: (i, kk) => x.add(kk, x.mul(i, row)), size: mb * row, kFast: true };
  return { at: (i, kk) => x.add(i, x.mul(kk, mb)), size: mb * kt, kFast: false };
}

/**
 * for (i = start; i < end; i += step) body(i). Under `full` unroll, with a static end and at most
 * `maxTrips` trips, written out: from a static start each i is a number; from a run-time start
 * below `startBound` (≤ step: a work-item id), the trips every work-item makes run unguarded and the
 * last ones behind `i < end`. Otherwise a loop (32-bit where its bounds are narrow in a 32-bit
 * spelling), marked Unroll unless the knob is `none` (or `control`'s LoopControl where given). Returns whether it was
 * written out.
 */
export function loop(
  ctx: SCollectiveContext,
  sp: Spelling,
  start: SExt,
  end: SExt,
  step: number,
  maxTrips: number,
  body: (i: SExt) => void,
  startBound = 1,
  control?: number,
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
    control: control ?? (sp.unroll === 'none' ? 0 : 1),
  });
  return false;
}

/** An accumulator: a Function variable, or (`ssa`: every loop it is updated in is written out) the id last set. */
export function accumulator(
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
export const isVectorWidth = (n: number) => n === 2 || n === 4 || n === 8;

/** The r-th row (or column) of an invocation inside its block: lid + r·wg, or with `neighbours` lid·per + r. */
export function inBlock(sp: Spelling, lid: Sym, wg: number, per: number, neighbours: boolean, r: number): SExt {
  const x = sp.x;
  return neighbours ? x.add(x.mul(lid, per), r) : x.add(lid, r * wg);
}

/**
 * An invocation's register tile over C's block at (ib, jb): its rows, columns, bounds checks and accumulators (SSA values
 * with `ssa`); `neighbours` for both modes, `rowNeighbours` for the rows alone (`cvec`: C written back as vectors).
 */
export function registerTile(
  ctx: SCollectiveContext,
  sp: Spelling,
  c: SView,
  ib: SExt,
  jb: SExt,
  neighbours: boolean,
  ssa: boolean,
  rowNeighbours = neighbours,
) {
  const g = ctx.g;
  const x = sp.x;
  const [wg0, wg1] = ctx.wg;
  const [M, N] = c.shape;
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N, sp.tile);
  // (ib + lid) + r·wg, or ib + (lid·rm + r).
  const at = (b: SExt, lid: Sym, wg: number, per: number, r: number, near: boolean) =>
    near ? x.add(b, inBlock(sp, lid, wg, per, true, r)) : x.add(x.add(b, lid), r * wg);
  const rows = Array.from({ length: rm }, (_, r) => at(ib, sp.lid0, wg0, rm, r, rowNeighbours));
  const cols = Array.from({ length: rn }, (_, q) => at(jb, sp.lid1, wg1, rn, q, neighbours));
  const inRow = rows.map((r) => (fullRows ? null : g.lessThan(r, M)));
  const inCol = cols.map((q) => (fullCols ? null : g.lessThan(q, N)));
  const accs = rows.map(() => cols.map(() => accumulator(ctx, c.element, ssa)));
  return { rm, rn, fullRows, fullCols, rows, cols, inRow, inCol, accs };
}
export type RegisterTile = ReturnType<typeof registerTile>;

/** C's blocks of (wg0·rm) × (wg1·rn), one after another, the work-group on each (written out under `full` up to 4 per mode). */
export function blocks(ctx: SCollectiveContext, sp: Spelling, c: SView, body: (ib: SExt, jb: SExt) => void): void {
  const { rm, rn } = gemmTiling(ctx.wg, c.shape[0], c.shape[1], sp.tile);
  loop(ctx, sp, 0, c.shape[1], ctx.wg[1] * rn, 4, (jb) =>
    loop(ctx, sp, 0, c.shape[0], ctx.wg[0] * rm, 4, (ib) => body(ib, jb)),
  );
}

/** Whether a `full` unroll writes out every K step of a GEMM (then its accumulators are SSA values). */
export const unrollsK = (sp: Spelling, K: SExt) =>
  sp.unroll === 'full' && !sp.kLoop && typeof K === 'number' && K <= UNROLL_K_STEPS;

/** The K-tile loop's LoopControl: DontUnroll under `kloop` where `full` would have written it out, else the spelling's. */
export const kLoopControl = (sp: Spelling): number | undefined => (sp.kLoop && sp.unroll === 'full' ? 2 : undefined);

/** acc[r][q] += as[r] · bs[q] for every accumulator (one fused multiply-add each for floats under `fma`). */
export function products(
  ctx: SCollectiveContext,
  sp: Spelling,
  t: RegisterTile,
  e: SView['element'],
  as: readonly number[],
  bs: readonly number[],
): void {
  const g = ctx.g;
  const fused = sp.fma && (e === 'f32' || e === 'f64');
  t.accs.forEach((row, i) =>
    row.forEach((acc, j) =>
      acc.set(
        fused ? mathInst(g, 'fma', g.type(e), as[i], bs[j], acc.get()) : g.add(e, acc.get(), g.mul(e, as[i], bs[j])),
      ),
    ),
  );
}

/** After the K loop: C's elements of the tile that lie inside C get alpha · acc (+ beta · C). */
export function writeBack(
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
export function guarded(ctx: SCollectiveContext, e: SView['element'], cond: number | null, read: () => number): number {
  if (cond === null) return read();
  const v = ctx.g.variable(e, ctx.g.constant(e, 0));
  ctx.g.f.ifThen(cond, () => v.set(read()));
  return v.get();
}

/** One operand's tile in op() coordinates: where it starts, its extents, the matrix's extents, which modes never pass them, and where an element goes in the array. */
export interface TileLoad {
  readonly view: SView;
  readonly trans: Trans;
  readonly base: readonly [SExt, SExt];
  readonly extent: readonly [number, number];
  readonly limit: readonly [SExt, SExt];
  readonly full: readonly [boolean, boolean];
  readonly tile: SView;
  readonly at: (i0: SExt, i1: SExt) => SExt;
}

/** The k count of the K tile at kb: all kt of them, or what is left of K (static where K and kb are). */
export function tileDepth(ctx: SCollectiveContext, sp: Spelling, K: SExt, kb: SExt, kt: number, fullK: boolean): SExt {
  const g = ctx.g;
  if (typeof K === 'number' && typeof kb === 'number') return Math.min(kt, K - kb);
  if (fullK) return kt;
  const left = sp.x.sub(K, kb);
  return sp.i32 && narrow(left)
    ? { id: g.f.op(Op.Select, g.i32t, g.lessThan(left, kt), g.idx32(left), g.u32(kt)), i32: true }
    : { id: g.f.op(Op.Select, g.i64t, g.lessThan(left, kt), g.idx(left), g.i64(kt)) };
}

/** a / n or a mod n (`opcode`: UDiv or UMod) in the spelling's index width. */
export function divideBy(ctx: SCollectiveContext, sp: Spelling, a: SExt, n: number, opcode: number): Sym {
  const g = ctx.g;
  return sp.i32
    ? { id: g.f.op(opcode, g.i32t, g.idx32(a), g.u32(n)), i32: true }
    : { id: g.f.op(opcode, g.i64t, g.idx(a), g.i64(n)) };
}

/**
 * The work-group copies a tile into work-group memory, walking the operand's first mode fastest
 * (neighbouring invocations read neighbouring addresses); elements outside the matrix become 0.
 */
export function loadTile(ctx: SCollectiveContext, sp: Spelling, e: SView['element'], t: TileLoad): void {
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
  const divide = (a: SExt, opcode: number): Sym => divideBy(ctx, sp, a, nf, opcode);
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
