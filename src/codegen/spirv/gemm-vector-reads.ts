// A staged GEMM's tile fills reading global memory as vectors (the SPIR-V knob `vload`, spirv-knobs.ts):
// which operands may be read so, the run-time check on their alignment, and the fills themselves —
// the staged one (gemm-tiles.ts's loadTile) and the overlapped one through registers (gemm-overlap.ts).
// Element by element, each NVIDIA work-item reads 4 (f32) or 8 (f64) bytes per load where the OpenCL
// C's vload4 reads 16 or 32; each vector goes into the work-group tile component by component, at the
// places the element-by-element fill puts them, so the tiles and the sums are the same.
import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import { Op } from '../../emit/spirv/spec.js';
import { stagedKTile, type StagedVariantName } from '../blas-policy.js';
import { gemmTiling } from '../tiling.js';
import { type SCollectiveContext, type Trans, op, opAt } from './collective.js';
import type { SExt, SView } from './gen.js';
import { type Spelling, type TileLoad, type VectorReads, divideBy } from './gemm-tiles.js';
import { both, globalContiguous, vectorOperand } from './vector-axpby.js';

/** The tiles of a staged variant: blocks of mb × nb, K tiles of kt, and which modes the tiles never pass. */
export function stagedShape(
  ctx: SCollectiveContext,
  variant: StagedVariantName,
  K: SExt,
  c: SView,
  tile: readonly [number, number],
) {
  const [M, N] = c.shape;
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N, tile);
  const mb = ctx.wg[0] * rm;
  const nb = ctx.wg[1] * rn;
  const kt = stagedKTile(variant, K, mb, nb, SCALAR_BYTES[c.element], ctx.blas.localBytes);
  return { rm, rn, mb, nb, kt, fullRows, fullCols, fullK: typeof K === 'number' && K % kt === 0 };
}

/**
 * Whether one operand's tiles (op() extents, and which modes never pass the matrix) can be read as
 * vectors of w: a global f32/f64 matrix of C's type, first stride 1 and a static second stride that
 * w divides, and a tile that covers the first mode whole, in whole vectors (its starts along that
 * mode are multiples of its extent, so of w).
 */
function readableAsVectors(
  v: SView,
  trans: Trans,
  e: SView['element'],
  extent: readonly [number, number],
  full: readonly [boolean, boolean],
  w: number,
): boolean {
  const f = trans === 't' ? 1 : 0;
  const ld = v.stride[1];
  return (
    (e === 'f32' || e === 'f64') &&
    v.element === e &&
    v.shape.length === 2 &&
    globalContiguous(v) &&
    typeof ld === 'number' &&
    ld % w === 0 &&
    full[f] &&
    extent[f] % w === 0
  );
}

/**
 * The operands of a staged GEMM that `vload` (w > 1) reads as vectors: the run-time condition under which
 * all of them are aligned (a boolean where it is known statically), and their readers, made where
 * they are used (inside the branch the condition guards). None where no operand qualifies.
 */
export function gemmVectorReads(
  ctx: SCollectiveContext,
  variant: StagedVariantName,
  w: number,
  ta: Trans,
  tb: Trans,
  a: SView,
  b: SView,
  c: SView,
  tile: readonly [number, number],
): { aligned: number | boolean; readers: () => Map<SView, VectorReads> } | null {
  const K = op(a, ta).cols;
  const s = stagedShape(ctx, variant, K, c, tile);
  const ok = (v: SView, t: Trans, extent: [number, number], full: [boolean, boolean]) =>
    readableAsVectors(v, t, c.element, extent, full, w);
  const okA = ok(a, ta, [s.mb, s.kt], [s.fullRows, s.fullK]);
  const okB = ok(b, tb, [s.kt, s.nb], [s.fullK, s.fullCols]);
  // One view as both operands: vectors only where both tiles can take them.
  const views = a === b ? (okA && okB ? [a] : []) : [...(okA ? [a] : []), ...(okB ? [b] : [])];
  const checks = views.map((v) => ({ v, ...vectorOperand(ctx, v, w) }));
  const aligned = checks.reduce<number | boolean>((acc, x) => both(ctx, acc, x.aligned), true);
  if (checks.length === 0 || aligned === false) return null;
  return { aligned, readers: () => new Map(checks.map((x) => [x.v, { w, ...x.operand() }])) };
}

/**
 * Where each trip of a work-item's share of a tile lies, vector by vector (the tile's first-mode
 * extent nf in nv = nf / w vectors, the work-group's W work-items taking vector items lid, lid + W, …):
 * the vector's first element along the fast tile mode, its index along the slow one, whether the
 * trip is inside the tile (only the last can pass it), and its vector index from the tile's origin in
 * the operand (64-bit: the work-item's own part widened once, then static steps, which a compiler
 * can fold into its loads' immediate offsets where a 32-bit sum widened could not be).
 */
function vectorTrips(ctx: SCollectiveContext, sp: Spelling, t: Omit<TileLoad, 'base'>, w: number) {
  const g = ctx.g;
  const x = sp.x;
  const f = t.trans === 't' ? 1 : 0;
  const nv = t.extent[f] / w;
  const ns = t.extent[1 - f];
  const ldv = (t.view.stride[1] as number) / w;
  const W = ctx.wg[0] * ctx.wg[1];
  const total = nv * ns;
  const wide = (e: SExt): SExt => (typeof e === 'number' ? e : { id: g.idx(e) });
  const at = (fastv: SExt, slow: SExt) => wide(x.add(fastv, x.mul(slow, ldv)));
  const split = (it: SExt): [SExt, SExt] =>
    nv === 1 ? [0, it] : [divideBy(ctx, sp, it, nv, Op.UMod), divideBy(ctx, sp, it, nv, Op.UDiv)];
  // Where W is a multiple of nv, every trip keeps the work-item's fast index and steps the slow one by W / nv.
  const hoisted = W % nv === 0;
  const [fast0, slow0] = split(sp.lid);
  const own = hoisted ? at(fast0, slow0) : 0;
  return Array.from({ length: Math.ceil(total / W) }, (_, s) => {
    const [fastv, slow] = hoisted ? [fast0, x.add(slow0, (s * W) / nv)] : split(x.add(sp.lid, s * W));
    const k = hoisted ? g.ext.add(own, (s * W * ldv) / nv) : at(fastv, slow);
    const inTile = (s + 1) * W > total ? g.lessThan(x.add(sp.lid, s * W), total) : null;
    return { fast: x.mul(fastv, w), slow, k, inTile };
  });
}

/** The vector index of a tile's origin (op() coordinates, the first mode's a multiple of w) from the view's start. */
function originVector(
  ctx: SCollectiveContext,
  t: Omit<TileLoad, 'base'>,
  base: readonly [SExt, SExt],
  w: number,
): SExt {
  const g = ctx.g;
  const f = t.trans === 't' ? 1 : 0;
  const ldv = (t.view.stride[1] as number) / w;
  return g.ext.add(g.ext.div(wideSym(ctx, base[f]), w), g.ext.mul(wideSym(ctx, base[1 - f]), ldv));
}

/** A 32-bit Sym widened (64-bit sums with it fold constants freely); numbers and 64-bit Syms as they are. */
const wideSym = (ctx: SCollectiveContext, e: SExt): SExt =>
  typeof e === 'number' || !e.i32 ? e : { id: ctx.g.idx(e) };

/**
 * A tile filled through vectors: `readOne(origin, base, trip, vector)` loads a trip's vector (zeros where the
 * tile's second mode passes the matrix), as one vector load or (`vector` false: its alignment not given) its
 * elements one by one, and `writeOne(offset, trip, value)` stores its components where the element-by-element
 * fill puts them, `offset` into the work-group array. `readAll(sp, read)` calls `read(true)`, or where the
 * alignment is a run-time condition, branches on it once around `read(true)` and `read(false)`.
 */
function vectorTile(ctx: SCollectiveContext, sp: Spelling, t: Omit<TileLoad, 'base'>, vr: VectorReads) {
  const g = ctx.g;
  const x = sp.x;
  const w = vr.w;
  const e = t.view.element;
  const f = t.trans === 't' ? 1 : 0;
  const vec = g.b.typeVector(g.type(e), w);
  const zero = g.b.constantComposite(
    vec,
    Array.from({ length: w }, () => g.constant(e, 0)),
  );
  const trips = vectorTrips(ctx, sp, t, w);
  const each = (inTile: number | null, body: () => void) => (inTile === null ? body() : g.f.ifThen(inTile, body));
  // The trip's components in op() coordinates of the tile: the fast mode's w neighbours, the slow mode's one.
  const coords = (trip: (typeof trips)[number], q: number): [SExt, SExt] => {
    const fast = x.add(trip.fast, q);
    return f === 0 ? [fast, trip.slow] : [trip.slow, fast];
  };
  const readOne = (
    origin: SExt,
    base: readonly [SExt, SExt],
    trip: (typeof trips)[number],
    vector: boolean,
  ): number => {
    const load = () => {
      if (vector) {
        const { ptr, align } = vr.pointer(g.ext.add(origin, trip.k));
        return g.f.load(vec, ptr, align);
      }
      const parts = Array.from({ length: w }, (_, q) => {
        const [i0, i1] = coords(trip, q);
        return opAt(ctx, t.view, t.trans, x.add(base[0], i0), x.add(base[1], i1), e);
      });
      return g.f.op(Op.CompositeConstruct, vec, ...parts);
    };
    if (t.full[1 - f]) return load();
    const inside = g.lessThan(x.add(base[1 - f], trip.slow), t.limit[1 - f]);
    const v = g.f.local(vec);
    g.f.store(v, zero);
    g.f.ifThen(inside, () => g.f.store(v, load()));
    return g.f.load(vec, v);
  };
  const writeOne = (offset: SExt, trip: (typeof trips)[number], value: number) => {
    for (let q = 0; q < w; q++) {
      const [i0, i1] = coords(trip, q);
      g.store(t.tile, [x.add(offset, t.at(i0, i1))], g.f.op(Op.CompositeExtract, g.type(e), value, q));
    }
  };
  const readAll = (read: (vector: boolean) => void) =>
    sp.aligned === null
      ? read(true)
      : g.f.ifThen(
          sp.aligned,
          () => read(true),
          () => read(false),
        );
  return { vec, zero, trips, each, readOne, writeOne, readAll };
}

/**
 * loadTile's fill with vector reads: each trip's vector loaded and stored into the tile at once; where the
 * alignment is known at run time only, all of the work-item's reads first (into Function variables, behind one
 * branch), then its stores.
 */
export function loadTileVectors(ctx: SCollectiveContext, sp: Spelling, t: TileLoad, vr: VectorReads): void {
  const g = ctx.g;
  const v = vectorTile(ctx, sp, t, vr);
  const origin = originVector(ctx, t, t.base, vr.w);
  if (sp.aligned === null) {
    for (const trip of v.trips) v.each(trip.inTile, () => v.writeOne(0, trip, v.readOne(origin, t.base, trip, true)));
    return;
  }
  const regs = v.trips.map(() => g.f.local(v.vec));
  v.readAll((vector) =>
    v.trips.forEach((trip, i) =>
      v.each(trip.inTile, () => g.f.store(regs[i], v.readOne(origin, t.base, trip, vector))),
    ),
  );
  v.trips.forEach((trip, i) => v.each(trip.inTile, () => v.writeOne(0, trip, g.f.load(v.vec, regs[i]))));
}

/**
 * prefetchTile's (gemm-overlap.ts) registers with vector reads: `load(k0)` reads each trip's vector of
 * the tile whose K starts at k0 into a Function variable (behind one alignment branch where that is
 * known at run time only), `store(offset)` writes their components.
 */
export function prefetchVectors(
  ctx: SCollectiveContext,
  sp: Spelling,
  t: Omit<TileLoad, 'base'>,
  base: (k0: SExt) => readonly [SExt, SExt],
  vr: VectorReads,
) {
  const g = ctx.g;
  const v = vectorTile(ctx, sp, t, vr);
  const regs = v.trips.map(() => {
    const r = g.f.local(v.vec);
    g.f.store(r, v.zero);
    return r;
  });
  const load = (k0: SExt) => {
    const b = base(k0);
    const origin = originVector(ctx, t, b, vr.w);
    v.readAll((vector) =>
      v.trips.forEach((trip, i) => v.each(trip.inTile, () => g.f.store(regs[i], v.readOne(origin, b, trip, vector)))),
    );
  };
  const store = (offset: SExt) =>
    v.trips.forEach((trip, i) => v.each(trip.inTile, () => v.writeOne(offset, trip, g.f.load(v.vec, regs[i]))));
  return { load, store };
}
