// The `overlap-*` GEMM in SPIR-V, as the OpenCL C printer's gemm-overlap.ts emits it: the `staged-*`
// tile layouts with two tiles of each operand in work-group memory; each invocation loads its share
// of the next K tile into registers before the products of the current one and stores it after
// them, behind one barrier per K tile. The sums are the staged variants' (k = 0, 1, … per accumulator).
import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import { Op } from '../../emit/spirv/spec.js';
import type { AtomicMode } from '../atomic-mode.js';
import { LOCAL_BYTES, type StagedVariantName, UNROLL_K_STEPS, stagedKTile } from '../blas-policy.js';
import { type SCollectiveContext, type SScalar, type Trans, op, opAt } from './collective.js';
import type { SExt, SView } from './gen.js';
import { gemmTiling } from '../tiling.js';
import {
  type Spelling,
  type TileLoad,
  aTileLayout,
  blocks,
  divideBy,
  guarded,
  inBlock,
  kLoopControl,
  loop,
  tileDepth,
  products,
  registerTile,
  unrollsK,
  writeBack,
} from './gemm-tiles.js';
import { prefetchVectors } from './gemm-vector-reads.js';

/**
 * A tile copied through registers (the overlapped variants here; the staged ones under `batch`, gemm.ts): `load`
 * reads each invocation's share of the tile whose K starts at k0 (the elements loadTile's loop gives it, one
 * Function variable per trip) and `store` writes them into the work-group array from `offset`. Each trip's tile
 * coordinates are computed once, here.
 */
export function prefetchTile(
  ctx: SCollectiveContext,
  sp: Spelling,
  e: SView['element'],
  t: Omit<TileLoad, 'base'>,
  base: (k0: SExt) => readonly [SExt, SExt],
) {
  const vr = sp.vectors.get(t.view);
  if (vr) return prefetchVectors(ctx, sp, t, base, vr);
  const g = ctx.g;
  const x = sp.x;
  const f = t.trans === 't' ? 1 : 0;
  const nf = t.extent[f];
  const W = ctx.wg[0] * ctx.wg[1];
  const total = t.extent[0] * t.extent[1];
  const trips = Array.from({ length: Math.ceil(total / W) }, (_, s) => {
    const it = x.add(sp.lid, s * W);
    const fast: SExt = nf === 1 ? 0 : divideBy(ctx, sp, it, nf, Op.UMod);
    const slow: SExt = nf === 1 ? it : divideBy(ctx, sp, it, nf, Op.UDiv);
    const [i0, i1] = f === 0 ? [fast, slow] : [slow, fast];
    // Only the last trip can pass the tile's end.
    const inTile = (s + 1) * W > total ? g.lessThan(it, total) : null;
    const reg = ctx.g.variable(e, ctx.g.constant(e, 0));
    return { i0, i1, inTile, reg };
  });
  const each = (inTile: number | null, body: () => void) => (inTile === null ? body() : g.f.ifThen(inTile, body));
  const load = (k0: SExt) =>
    trips.forEach(({ i0, i1, inTile, reg }) =>
      each(inTile, () => {
        const b = base(k0);
        const at: [SExt, SExt] = [x.add(b[0], i0), x.add(b[1], i1)];
        const inside = ([0, 1] as const).filter((d) => !t.full[d]).map((d) => g.lessThan(at[d], t.limit[d]));
        const cond = inside.length === 0 ? null : inside.length === 1 ? inside[0] : g.and(inside[0], inside[1]);
        reg.set(guarded(ctx, e, cond, () => opAt(ctx, t.view, t.trans, at[0], at[1], e)));
      }),
    );
  const store = (offset: SExt) =>
    trips.forEach(({ i0, i1, inTile, reg }) =>
      each(inTile, () => g.store(t.tile, [x.add(offset, t.at(i0, i1))], reg.get())),
    );
  return { load, store };
}

/**
 * `overlap-*` (blas-policy.ts): before the K loop the work-group copies the first K tile; in each
 * trip every invocation loads its share of the next K tile into registers, multiplies from the
 * current tiles, stores the registers into the other tiles and waits at one barrier (it orders
 * this trip's stores before the next trip's reads, and this trip's reads before the stores of the
 * trip after, which write the tiles read now). Which of the two tiles is current: a number where
 * the K loop is written out, else a Function variable flipped every trip.
 */
export function overlapped(
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
  const ssa = unrollsK(sp, K);
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N, sp.tile);
  const mb = wg0 * rm;
  const nb = wg1 * rn;
  const kt = stagedKTile(variant, K, mb, nb, SCALAR_BYTES[e], ctx.blas.localBytes);
  const fullK = typeof K === 'number' && K % kt === 0;
  const tiles = typeof K === 'number' ? Math.ceil(K / kt) : Infinity;
  // B's tile column by column, T + 1 (or T + `pad`) a column; A's rows fastest, or k fastest under `apad` (gemm-tiles.ts).
  // `pad` only where both copies still fit the work-group memory the K tile was sized for (stagedKTile counts T + 1).
  const local = ctx.blas.localBytes ?? LOCAL_BYTES;
  const padded = kt + (sp.pad ?? 1);
  const bCol = 2 * (mb * kt + nb * padded) * SCALAR_BYTES[e] <= local ? padded : kt + 1;
  const bSize = nb * bCol;
  const aLayout = aTileLayout(sp, SCALAR_BYTES[e], mb, kt, 2, 2 * bSize, local);
  const aSize = aLayout.size;
  const aAt = aLayout.at;
  const bAt = (kk: SExt, j: SExt) => x.add(kk, x.mul(j, bCol));
  const aTile = ctx.workgroupArray(e, 2 * aSize);
  const bTile = ctx.workgroupArray(e, 2 * bSize);
  blocks(ctx, sp, c, (ib, jb) => {
    const t = registerTile(ctx, sp, c, ib, jb, false, ssa);
    const pa = prefetchTile(
      ctx,
      sp,
      e,
      { view: a, trans: ta, extent: [mb, kt], limit: [M, K], full: [fullRows, fullK], tile: aTile, at: aAt },
      (k0) => [ib, k0],
    );
    const pb = prefetchTile(
      ctx,
      sp,
      e,
      { view: b, trans: tb, extent: [kt, nb], limit: [K, N], full: [fullK, fullCols], tile: bTile, at: bAt },
      (k0) => [k0, jb],
    );
    if (tiles > 0) {
      pa.load(0);
      pb.load(0);
      pa.store(0);
      pb.store(0);
      ctx.localBarrier();
      const aRows = Array.from({ length: rm }, (_, r) => inBlock(sp, sp.lid0, wg0, rm, false, r));
      const bCols = Array.from({ length: rn }, (_, q) => inBlock(sp, sp.lid1, wg1, rn, false, q));
      // The current tiles (0 or 1) where the K loop stays a loop; index-typed, so that it meets the offsets' arithmetic.
      const parity = ssa ? null : g.variable(sp.i32 ? 'i32' : 'i64', sp.i32 ? g.u32(0) : g.i64(0));
      loop(
        ctx,
        sp,
        0,
        K,
        kt,
        ssa ? UNROLL_K_STEPS : 0,
        (kb) => {
          const cur: SExt = parity ? (sp.i32 ? { id: parity.get(), i32: true } : { id: parity.get() }) : 0;
          const p: SExt = typeof kb === 'number' ? (kb / kt) % 2 : cur;
          const other = x.sub(1, p);
          const kn = tileDepth(ctx, sp, K, kb, kt, fullK);
          // Whether a next K tile follows: static where K and kb are, else a run-time condition.
          const next = x.add(kb, kt);
          const more: boolean | number =
            typeof next === 'number' && typeof K === 'number' ? next < K : tiles > 1 && g.lessThan(next, K);
          const ahead = (body: () => void) =>
            more === true ? body() : more !== false ? g.f.ifThen(more, body) : undefined;
          ahead(() => {
            pa.load(next);
            pb.load(next);
          });
          const aBase = x.mul(p, aSize);
          const bBase = x.mul(p, bSize);
          loop(ctx, sp, 0, kn, 1, kt, (k) => {
            const as = aRows.map((r) => g.load(aTile, [x.add(aBase, aAt(r, k))]));
            const bs = bCols.map((q) => g.load(bTile, [x.add(bBase, bAt(k, q))]));
            products(ctx, sp, t, e, as, bs);
          });
          ahead(() => {
            pa.store(x.mul(other, aSize));
            pb.store(x.mul(other, bSize));
          });
          ctx.localBarrier();
          if (parity) parity.set(sp.i32 ? g.idx32(other) : g.idx(other));
        },
        1,
        kLoopControl(sp),
      );
    }
    writeBack(ctx, c, t, alpha, beta, atomic);
  });
}
