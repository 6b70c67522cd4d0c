// A staged GEMM's C written back through work-group memory (the SPIR-V knob `cstage`, spirv-knobs.ts): each invocation
// stores alpha · acc of its register tile into a work-group array of the block, then, after a barrier, the work-group
// writes the block to C as 16-byte vectors (2 f64s, 4 f32s), neighbouring invocations neighbouring vectors of a column
// (a warp's store 512 contiguous bytes where element by element it writes 8 bytes a work-item in 64-byte pieces). The
// register tile's layout and A's and B's tiles stay as they are (where `cvec` changes the rows an invocation keeps).
import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import { Op } from '../../emit/spirv/spec.js';
import type { AtomicMode } from '../atomic-mode.js';
import { type SCollectiveContext, type SScalar, update } from './collective.js';
import type { SExt, SView } from './gen.js';
import { type RegisterTile, type Spelling, divideBy } from './gemm-tiles.js';
import { globalContiguous, vectorOperand } from './vector-axpby.js';

/** The staged block's column stride: its rows and 64 bytes, so that a warp's columns fall in two halves of the banks. */
const stagedStride = (mb: number, bytes: number) => mb + 64 / bytes;

/**
 * How `cstage` writes C: the vector width w and the register tile's columns staged at a time (m, dividing rn; the knob's
 * figure, at most rn), or null where it does not apply: not in the 32-bit spelling, an atomic update, C not a global
 * f32/f64 matrix with first stride 1 and a static second stride the vector divides, the block's rows not a multiple of
 * the vector, rows or columns not whole blocks, or the staged columns beside A's and B's tiles (`tiles` elements) past the
 * work-group memory the tiles were sized for (`localBytes`). Fewer than rn columns at a time only where the register
 * tile's columns are wg1 apart (`neighbours` false): then each stage is wg1·m neighbouring columns of C.
 */
export function cStagePlan(
  sp: Spelling,
  c: SView,
  block: { mb: number; wg1: number; rn: number; full: boolean; neighbours: boolean },
  tiles: number,
  localBytes: number,
  atomic: AtomicMode | null,
): { w: number; m: number } | null {
  const e = c.element;
  if (!sp.cstage || !sp.i32 || atomic || !block.full || (e !== 'f32' && e !== 'f64')) return null;
  const bytes = SCALAR_BYTES[e];
  const w = 16 / bytes;
  const ld = c.stride[1];
  let m = block.neighbours ? block.rn : Math.min(sp.cstage, block.rn);
  while (block.rn % m !== 0) m--;
  const fits = (tiles + stagedStride(block.mb, bytes) * block.wg1 * m) * bytes <= localBytes;
  const ok =
    c.shape.length === 2 && globalContiguous(c) && typeof ld === 'number' && ld % w === 0 && block.mb % w === 0;
  return ok && fits ? { w, m } : null;
}

/**
 * The work-group array C is staged in, `cols` columns of the block's mb rows (column-major, stagedStride apart): of
 * elements, each read back w at a time into a vector. An array of vectors instead had each invocation store its
 * accumulators into vectors' components chosen at run time (lid0's parity); that ran as slowly on the H200.
 */
export function cStageTile(ctx: SCollectiveContext, c: SView, mb: number, cols: number): SView {
  return ctx.workgroupArray(c.element, stagedStride(mb, SCALAR_BYTES[c.element]) * cols);
}

/**
 * After the K loop (which ends at a barrier: A's and B's tiles are free, and so is `tile` from the block before), for
 * each stage of m of the register tile's rn columns: alpha · acc into `tile` at the register tile's places (`rowAt`:
 * an accumulator's row in the block; `colAt`: its column among the stage's wg1·m, the block's whole where m = rn), a
 * barrier, then the stage's vectors, item lid, lid + W, … of the work-group's W invocations, written to C (plus beta · C
 * where beta is not 0), behind a run-time test of C's alignment where it is not known statically, else element by
 * element from the same vectors; a barrier before the next stage overwrites `tile`.
 */
export function writeBackStaged(
  ctx: SCollectiveContext,
  sp: Spelling,
  c: SView,
  t: RegisterTile,
  at: { ib: SExt; jb: SExt; rowAt: (r: number) => SExt; colAt: (q: number) => SExt },
  block: { mb: number; cols: number; m: number; w: number; tile: SView },
  alpha: SScalar,
  beta: SScalar,
): void {
  const g = ctx.g;
  const x = sp.x;
  const e = c.element;
  const { mb, cols, m, w, tile } = block;
  const stride = stagedStride(mb, SCALAR_BYTES[e]);
  const nv = mb / w;
  const total = nv * cols;
  const W = ctx.wg[0] * ctx.wg[1];
  const vec = g.b.typeVector(g.type(e), w);
  const { aligned, operand } = vectorOperand(ctx, c, w);
  const ldv = (c.stride[1] as number) / w;
  const wide = (v: SExt): SExt => (typeof v === 'number' || !v.i32 ? v : { id: g.idx(v) });
  const ibv = typeof at.ib === 'number' ? at.ib / w : divideBy(ctx, sp, at.ib, w, Op.UDiv);
  // Where W is a multiple of a column's vectors, each invocation keeps its vector of the column and steps columns.
  const hoisted = W % nv === 0;
  const rv0 = nv === 1 ? 0 : divideBy(ctx, sp, sp.lid, nv, Op.UMod);
  const col0 = nv === 1 ? sp.lid : divideBy(ctx, sp, sp.lid, nv, Op.UDiv);
  for (let stage = 0; stage * m < t.rn; stage++) {
    if (stage > 0) ctx.localBarrier();
    for (let q = stage * m; q < (stage + 1) * m; q++)
      t.accs.forEach((row, r) =>
        g.store(tile, [x.add(at.rowAt(r), x.mul(at.colAt(q), stride))], g.mul(e, alpha.id, row[q].get())),
      );
    ctx.localBarrier();
    // The stage's first column of C.
    const jb = x.add(at.jb, stage * cols);
    const write = (vectors: boolean) => {
      const o = vectors ? operand() : null;
      for (let s = 0; s * W < total; s++) {
        const item = () => {
          const it = x.add(sp.lid, s * W);
          const [rv, col] = hoisted
            ? [rv0, x.add(col0, (s * W) / nv)]
            : [divideBy(ctx, sp, it, nv, Op.UMod), divideBy(ctx, sp, it, nv, Op.UDiv)];
          const first = x.add(x.mul(rv, w), x.mul(col, stride));
          const parts = Array.from({ length: w }, (_, p) => g.load(tile, [x.add(first, p)]));
          const value = g.f.op(Op.CompositeConstruct, vec, ...parts);
          const q = x.add(jb, col);
          if (!o) {
            // Misaligned C: the vector's elements one by one, as writeBack updates them.
            const row0 = x.add(at.ib, x.mul(rv, w));
            for (let p = 0; p < w; p++)
              update(ctx, c, [x.add(row0, p), q], g.f.op(Op.CompositeExtract, g.type(e), value, p), beta, null);
            return;
          }
          const { ptr, align } = o.pointer(g.ext.add(wide(x.add(ibv, rv)), g.ext.mul(wide(q), ldv)));
          let out = value;
          if (beta.imm !== 0) {
            const old = g.f.load(vec, ptr, align);
            out = g.f.op(Op.FAdd, vec, value, beta.imm === 1 ? old : g.f.op(Op.VectorTimesScalar, vec, old, beta.id));
          }
          g.f.store(ptr, out, align);
        };
        if ((s + 1) * W <= total) item();
        else g.f.ifThen(g.lessThan(x.add(sp.lid, s * W), total), item);
      }
    };
    if (aligned === true) write(true);
    else if (aligned === false) write(false);
    else
      g.f.ifThen(
        aligned,
        () => write(true),
        () => write(false),
      );
  }
}
