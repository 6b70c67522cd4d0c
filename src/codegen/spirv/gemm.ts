// GEMM in SPIR-V, by the variant the BLAS policy gives C's shape and type (blas-policy.ts), as the
// OpenCL C backend's gemm.ts emits it: the same register tile (tiling.ts), the same K tiles, the
// same tile layouts in work-group memory, and the products added in the order k = 0, 1, … into
// each accumulator, so both backends compute the same values. A and B of another element type
// than C are converted to C's as they are read (as the OpenCL C's assignments to C's type do).
// SPIR-V has no vload: the vector variants keep their layouts (neighbouring rows and columns per
// invocation) and read element by element. The policy's SPIR-V knobs (blas-policy.ts,
// SpirvGemmKnobs) change how indices and loops are spelled, never the sums.
import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import type { AtomicMode } from '../atomic-mode.js';
import {
  LOCAL_BYTES,
  type StagedVariantName,
  UNROLL_K_STEPS,
  isOverlapped,
  portableGemmRule,
  stagedKTile,
} from '../blas-policy.js';
import { type SpirvGemmKnobs, UNROLL_PRODUCTS } from '../spirv-knobs.js';
import { GEMM_TILE_MAX, gemmTiling } from '../tiling.js';
import { type SCollectiveContext, type SScalar, type Trans, op, opAt } from './collective.js';
import type { SExt, SView } from './gen.js';
import { Op } from '../../emit/spirv/spec.js';
import { overlapped, prefetchTile } from './gemm-overlap.js';
import { gemmVectorReads, loadTileVectors } from './gemm-vector-reads.js';
import { cVectorWidth, writeBackVectors } from './gemm-write-vectors.js';
import { cStagePlan, cStageTile, writeBackStaged } from './gemm-stage-c.js';
import {
  type Spelling,
  type TileLoad,
  aTileLayout,
  blocks,
  guarded,
  inBlock,
  kLoopControl,
  isVectorWidth,
  loadTile,
  loop,
  tileDepth,
  products,
  registerTile,
  unrollsK,
  writeBack,
} from './gemm-tiles.js';

/** A tile's fill: through vector reads where the spelling has them for its operand, else element by element. */
function fill(ctx: SCollectiveContext, sp: Spelling, e: SView['element'], t: TileLoad): void {
  const vr = sp.vectors.get(t.view);
  if (vr) loadTileVectors(ctx, sp, t, vr);
  else loadTile(ctx, sp, e, t);
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
  // SPIR-V has no inline PTX: the NVIDIA-only rules (`mma-f64`) are OpenCL C's alone.
  const rule = portableGemmRule(ctx.blas, c.element, c.shape[0], c.shape[1]);
  const variant = rule?.variant ?? 'direct';
  // The rule's spelling, each knob a caller sets overriding it (not a hot path: once per GEMM printed).
  const knobs: SpirvGemmKnobs = { ...rule?.spirv, ...ctx.blas.spirv };
  const i32 =
    knobs.index32 === true && [c.shape[0], c.shape[1], op(a, ta).cols].every((e) => typeof e === 'number' && e < SMALL);
  const unroll = knobs.unroll ?? 'none';
  const tile = knobs.tile ?? GEMM_TILE_MAX;
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
    // The same where writing out would make more than UNROLL_PRODUCTS products per work-item (but see `reads`).
    unroll:
      unroll === 'full' && (!i32 || writtenOutProducts(ctx, c, op(a, ta).cols, tile) > UNROLL_PRODUCTS)
        ? 'hint'
        : unroll,
    vectors: new Map(),
    aligned: null,
    fma: knobs.fma === true,
    batch: knobs.batch === true,
    tile,
    lvec: knobs.lvec === true,
    pad: knobs.pad ?? null,
    apad: knobs.apad ?? null,
    kLoop: knobs.kloop === true,
    cvec: knobs.cvec === true,
    nearRows: knobs.nrows === true,
    cstage: knobs.cstage ?? 0,
  };
  if (variant === 'direct' || variant === 'direct-vector')
    return direct(ctx, sp, variant === 'direct-vector', ta, tb, atomic, alpha, a, b, beta, c);
  const print = (inner: SCollectiveContext, s: Spelling) =>
    isOverlapped(variant)
      ? overlapped(inner, s, variant, ta, tb, atomic, alpha, a, b, beta, c)
      : staged(inner, s, variant, ta, tb, atomic, alpha, a, b, beta, c);
  // Vector reads in the 32-bit spelling only: on an H200 (driver 580.159) NVIDIA's Vulkan computed the 64-bit one
  // (`vload=4`, loops) wrong for skewed f32 GEMMs that lavapipe and every 32-bit spelling computed right
  // (test/tinytc-gemm-vector-reads.test.ts, 2026-11-28), as it did the 64-bit written-out GEMM before.
  const reads =
    (knobs.vload ?? 1) > 1 && i32 ? gemmVectorReads(ctx, variant, knobs.vload!, ta, tb, a, b, c, sp.tile) : null;
  if (!reads) return print(ctx, sp);
  // The vector fills are written out (a trip per vector); with the loops around them marked Unroll, lavapipe's
  // LLVM writes out the whole GEMM itself, the products `full` refused to: tinytc-policy.test.ts's 64³ f32 GEMM
  // on 8 work-items (32,768 products) did not finish compiling in minutes (under 0.1 s unmarked). So where
  // `full` fell back to the hint for the products, vector reads keep plain loops.
  const over = unroll === 'full' && sp.unroll === 'hint' && i32;
  // Aligned or not known at run time only: each fill branches around its global reads (gemm-vector-reads.ts).
  print(ctx, {
    ...sp,
    unroll: over ? 'none' : sp.unroll,
    vectors: reads.readers(),
    aligned: typeof reads.aligned === 'number' ? reads.aligned : null,
  });
}

/**
 * The products one work-item would write out under `full`: its register tile × K × the blocks of C
 * the work-group walks (static extents; a dynamic one counts as unbounded).
 */
function writtenOutProducts(ctx: SCollectiveContext, c: SView, K: SExt, tile: readonly [number, number]): number {
  const [M, N] = c.shape;
  if (typeof M !== 'number' || typeof N !== 'number' || typeof K !== 'number') return Infinity;
  const { rm, rn } = gemmTiling(ctx.wg, M, N, tile);
  const blocks = Math.ceil(M / (ctx.wg[0] * rm)) * Math.ceil(N / (ctx.wg[1] * rn));
  return rm * rn * K * blocks;
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
  // `kloop` is the staged variants' (no K tiles here).
  const ssa = unrollsK({ ...sp, kLoop: false }, K);
  blocks(ctx, sp, c, (ib, jb) => {
    const t = registerTile(ctx, sp, c, ib, jb, neighbours, ssa);
    loop(ctx, sp, 0, K, 1, UNROLL_K_STEPS, (k) => {
      const as = t.rows.map((r, i) => guarded(ctx, e, t.inRow[i], () => opAt(ctx, a, ta, r, k, e)));
      const bs = t.cols.map((q, j) => guarded(ctx, e, t.inCol[j], () => opAt(ctx, b, tb, k, q, e)));
      products(ctx, sp, t, e, as, bs);
    });
    writeBack(ctx, c, t, alpha, beta, atomic);
  });
}

/**
 * Register blocking from work-group memory: per K tile the work-group copies op(A)'s (wg0·rm) × T
 * and op(B)'s T × (wg1·rn) elements into work-group arrays, waits at a barrier, and each invocation
 * reads its rows and columns from there; a second barrier before the next tiles overwrite them.
 * A's tile is kept row-fastest. `staged-*`: B's tile column by column with one element of padding
 * (the columns a warp reads lie in different banks); `vector-*`: B's tile row by row, padded by rn,
 * and each invocation's rows and columns neighbours. The `pad` knob sets B's padding instead (Vulkan's
 * GPU rule: none, so that a column's k sit on 16-byte boundaries); `lvec` makes a `vector-*` GEMM's
 * tiles arrays of 16-byte vectors, each invocation's neighbours read a vector at a time.
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
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N, sp.tile);
  const mb = wg0 * rm;
  const nb = wg1 * rn;
  const kt = stagedKTile(variant, K, mb, nb, SCALAR_BYTES[e], ctx.blas.localBytes);
  const fullK = typeof K === 'number' && K % kt === 0;
  // B's tile: k + j·(T+pad) (staged, pad 1), or k·(nb+pad) + j (vector, pad rn or 1); `pad` the knob's where set.
  const bRow = vector ? nb + (sp.pad ?? (isVectorWidth(rn) ? rn : 1)) : 0;
  const bCol = kt + (sp.pad ?? 1);
  const bAt = vector
    ? (kk: SExt, j: SExt) => x.add(x.mul(kk, bRow), j)
    : (kk: SExt, j: SExt) => x.add(kk, x.mul(j, bCol));
  const bSize = vector ? kt * bRow : nb * bCol;
  // A's tile rows fastest, or (`apad`, staged-* only) k fastest.
  const aLayout = aTileLayout(
    { ...sp, apad: vector ? null : sp.apad },
    SCALAR_BYTES[e],
    mb,
    kt,
    1,
    bSize,
    ctx.blas.localBytes,
  );
  const aAt = aLayout.at;
  // `lvec`: 16-byte vectors where the invocation's rows (columns) and the tile's rows are whole vectors.
  const lanes = 16 / SCALAR_BYTES[e];
  const lv = sp.lvec && vector && (e === 'f32' || e === 'f64');
  const aVec = lv && rm % lanes === 0 && mb % lanes === 0;
  const bVec = lv && rn % lanes === 0 && bRow % lanes === 0;
  const aTile = ctx.workgroupArray(e, aLayout.size, aVec ? lanes : 1);
  const bTile = ctx.workgroupArray(e, bSize, bVec ? lanes : 1);
  // An invocation's n neighbours from vector `first` of the tile (rows lid0·rm + …, columns lid1·rn + …): their components.
  const neighbours = (tile: SView, first: SExt, n: number): number[] =>
    Array.from({ length: n / lanes }, (_, v) => g.loadVector(tile, x.add(first, v))).flatMap((vec) =>
      Array.from({ length: lanes }, (_, q) => g.f.op(Op.CompositeExtract, g.type(e), vec, q)),
    );
  const aFirst = (k: SExt) => x.add(x.mul(sp.lid0, rm / lanes), x.mul(k, mb / lanes));
  const bFirst = (k: SExt) => x.add(x.mul(k, bRow / lanes), x.mul(sp.lid1, rn / lanes));
  // Written out (K static and short enough under `full`): every tile's k count is static, the accumulators SSA values.
  const ssa = unrollsK(sp, K);
  // `cvec`: C written back w rows at a time, each invocation's rows neighbours (and read so from A's tile); `nrows`
  // the same rows, C element by element.
  const cw = cVectorWidth(sp, c, rm, fullRows, atomic);
  const nearRows = vector || cw > 0 || sp.nearRows;
  // `cstage`: C's block through work-group memory, written as vectors (where `cvec` does not apply).
  const localBytes = ctx.blas.localBytes ?? LOCAL_BYTES;
  const cBlock = { mb, wg1, rn, full: fullRows && fullCols, neighbours: vector };
  const cs = cw ? null : cStagePlan(sp, c, cBlock, aLayout.size + bSize, localBytes, atomic);
  const cTile = cs ? cStageTile(ctx, c, mb, wg1 * cs.m) : null;
  blocks(ctx, sp, c, (ib, jb) => {
    const t = registerTile(ctx, sp, c, ib, jb, vector, ssa, nearRows);
    const aRows = Array.from({ length: rm }, (_, r) => inBlock(sp, sp.lid0, wg0, rm, nearRows, r));
    const bCols = Array.from({ length: rn }, (_, q) => inBlock(sp, sp.lid1, wg1, rn, vector, q));
    const aLoad: Omit<TileLoad, 'base'> = {
      view: a,
      trans: ta,
      extent: [mb, kt],
      limit: [M, K],
      full: [fullRows, fullK],
      tile: aTile,
      at: aAt,
    };
    const bLoad: Omit<TileLoad, 'base'> = {
      view: b,
      trans: tb,
      extent: [kt, nb],
      limit: [K, N],
      full: [fullK, fullCols],
      tile: bTile,
      at: bAt,
    };
    // `batch`: both tiles through registers (each trip's coordinates computed once per block), reads before stores.
    const pa = sp.batch ? prefetchTile(ctx, sp, e, aLoad, (k0) => [ib, k0]) : null;
    const pb = sp.batch ? prefetchTile(ctx, sp, e, bLoad, (k0) => [k0, jb]) : null;
    const kLoop = (kb: SExt) => {
      // The k of this tile: all T of them, or what is left of K.
      const kn = tileDepth(ctx, sp, K, kb, kt, fullK);
      if (pa && pb) {
        pa.load(kb);
        pb.load(kb);
        pa.store(0);
        pb.store(0);
      } else {
        fill(ctx, sp, e, { ...aLoad, base: [ib, kb] });
        fill(ctx, sp, e, { ...bLoad, base: [kb, jb] });
      }
      ctx.localBarrier();
      loop(ctx, sp, 0, kn, 1, kt, (k) => {
        const as = aVec ? neighbours(aTile, aFirst(k), rm) : aRows.map((r) => g.load(aTile, [aAt(r, k)]));
        const bs = bVec ? neighbours(bTile, bFirst(k), rn) : bCols.map((q) => g.load(bTile, [bAt(k, q)]));
        products(ctx, sp, t, e, as, bs);
      });
      ctx.localBarrier();
    };
    loop(ctx, sp, 0, K, kt, ssa ? UNROLL_K_STEPS : 0, kLoop, 1, kLoopControl(sp));
    if (cw) writeBackVectors(ctx, sp, c, t, ib, cw, alpha, beta);
    else if (cs && cTile) {
      // A stage's columns: the block's (m = rn), or wg1·m neighbouring ones, the invocation's lid1 + (q mod m)·wg1.
      const colAt = (q: number) => (cs.m === rn ? bCols[q] : x.add(sp.lid1, (q % cs.m) * wg1));
      const at = { ib, jb, rowAt: (r: number) => aRows[r], colAt };
      writeBackStaged(ctx, sp, c, t, at, { mb, cols: wg1 * cs.m, m: cs.m, w: cs.w, tile: cTile }, alpha, beta);
    } else writeBack(ctx, c, t, alpha, beta, atomic);
  });
}
