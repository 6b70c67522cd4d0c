// A staged GEMM's C written back as 16-byte vectors (the SPIR-V knob `cvec`, spirv-knobs.ts): which C can be
// written so, and the write-back itself. Element by element, each work-item of a warp stores 8 bytes (f64) per
// store; with its rows of C neighbours (lid0·rm + r), each store takes 2 f64s (4 f32s) of one column at once.
// The values are writeBack's (gemm-tiles.ts), component by component: alpha · acc, plus beta · C where beta is not 0.
import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import { Op } from '../../emit/spirv/spec.js';
import type { AtomicMode } from '../atomic-mode.js';
import type { SCollectiveContext, SScalar } from './collective.js';
import type { SExt, SView } from './gen.js';
import { type RegisterTile, type Spelling, divideBy, writeBack } from './gemm-tiles.js';
import { globalContiguous, vectorOperand } from './vector-axpby.js';

/**
 * The vector width `cvec` writes C at (2 for f64, 4 for f32), or 0 where it does not apply: not in the 32-bit spelling
 * (gemm.ts: NVIDIA's Vulkan miscompiled 64-bit vector spellings), an atomic update, C not a global f32/f64 matrix with
 * first stride 1 and a static second stride the vector divides, rm not a multiple of it, or C's rows not whole blocks.
 */
export function cVectorWidth(sp: Spelling, c: SView, rm: number, fullRows: boolean, atomic: AtomicMode | null): number {
  const e = c.element;
  if (!sp.cvec || !sp.i32 || atomic || !fullRows || (e !== 'f32' && e !== 'f64')) return 0;
  const w = 16 / SCALAR_BYTES[e];
  const ld = c.stride[1];
  const ok = c.shape.length === 2 && globalContiguous(c) && typeof ld === 'number' && ld % w === 0 && rm % w === 0;
  return ok ? w : 0;
}

/**
 * After the K loop, C's tile at (ib, ·) written back w rows at a time (the register tile's rows neighbours, from
 * ib + lid0·rm): behind a run-time test of C's alignment where it is not known statically, else writeBack's
 * element-by-element stores. Columns outside C are skipped as writeBack skips them.
 */
export function writeBackVectors(
  ctx: SCollectiveContext,
  sp: Spelling,
  c: SView,
  t: RegisterTile,
  ib: SExt,
  w: number,
  alpha: SScalar,
  beta: SScalar,
): void {
  const g = ctx.g;
  const x = sp.x;
  const e = c.element;
  const { aligned, operand } = vectorOperand(ctx, c, w);
  const scalar = () => writeBack(ctx, c, t, alpha, beta, null);
  if (aligned === false) return scalar();
  const vec = g.b.typeVector(g.type(e), w);
  const ldv = (c.stride[1] as number) / w;
  // The vector of row ib + lid0·rm (ib a multiple of the block's rows, so of w) from the view's first element.
  const first = x.add(typeof ib === 'number' ? ib / w : divideBy(ctx, sp, ib, w, Op.UDiv), x.mul(sp.lid0, t.rm / w));
  const wide = (v: SExt): SExt => (typeof v === 'number' || !v.i32 ? v : { id: g.idx(v) });
  const vectors = () => {
    const o = operand();
    t.cols.forEach((q, j) => {
      const write = () => {
        for (let v = 0; v < t.rm / w; v++) {
          const parts = Array.from({ length: w }, (_, r) => t.accs[v * w + r][j].get());
          const acc = g.f.op(Op.CompositeConstruct, vec, ...parts);
          let value = g.f.op(Op.VectorTimesScalar, vec, acc, alpha.id);
          const { ptr, align } = o.pointer(g.ext.add(wide(x.add(first, v)), g.ext.mul(wide(q), ldv)));
          if (beta.imm !== 0) {
            const old = g.f.load(vec, ptr, align);
            const scaled = beta.imm === 1 ? old : g.f.op(Op.VectorTimesScalar, vec, old, beta.id);
            value = g.f.op(Op.FAdd, vec, value, scaled);
          }
          g.f.store(ptr, value, align);
        }
      };
      if (t.inCol[j] === null) write();
      else g.f.ifThen(t.inCol[j], write);
    });
  };
  if (aligned === true) vectors();
  else g.f.ifThen(aligned, vectors, scalar);
}
