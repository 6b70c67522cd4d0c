import { Op } from '../../../emit/spirv/spec.js';
import type { AtomicMode } from '../../../tinytc/codegen/atomic-mode.js';
import { gemmTiling } from '../../../tinytc/codegen/tiling.js';
import { atomicUpdate } from './atomics.js';
import type { Gen, SExt, SView, Sym } from './gen.js';

/** alpha or beta: its id, and its value when it is an immediate. */
export interface SScalar {
  readonly id: number;
  readonly imm?: number;
}

/** What a collective instruction needs from the kernel around it (as the OpenCL C backend's CollectiveContext). */
export interface SCollectiveContext {
  readonly g: Gen;
  readonly lid0: Sym;
  readonly lid1: Sym;
  readonly lid: Sym;
  readonly wg: readonly [number, number];
  readonly floatAtomicAdd: boolean;
  /** A work-group array of n elements of the type, at module scope. */
  workgroupArray(t: SView['element'], n: number): SView;
  /** A barrier over work-group memory. */
  localBarrier(): void;
}

type Trans = 'n' | 't' | null;
const op = (v: SView, t: Trans) => (t === 't' && v.shape.length === 2 ? { rows: v.shape[1], cols: v.shape[0] } : { rows: v.shape[0], cols: v.shape[1] ?? 1 });
const opAt = (ctx: SCollectiveContext, v: SView, t: Trans, i: SExt, j: SExt) => (t === 't' ? ctx.g.load(v, [j, i]) : ctx.g.load(v, [i, j]));

/** `C := value + beta C`, plain or atomic; beta 0 does not read C. */
function update(ctx: SCollectiveContext, c: SView, index: SExt[], value: number, beta: SScalar, atomic: AtomicMode | null): void {
  const g = ctx.g;
  const t = c.element;
  if (atomic) {
    atomicUpdate(g, c, index, value, atomic, beta.id, ctx.floatAtomicAdd);
    return;
  }
  if (beta.imm === 0) {
    g.store(c, index, value);
    return;
  }
  const old = g.load(c, index);
  g.store(c, index, g.add(t, value, beta.imm === 1 ? old : g.mul(t, beta.id, old)));
}

/** Rows over local id 0, columns over local id 1. */
function grid(ctx: SCollectiveContext, rows: SExt, cols: SExt, body: (i: Sym, j: Sym) => void): void {
  ctx.g.forIndex(ctx.lid1, cols, ctx.wg[1], (j) => ctx.g.forIndex(ctx.lid0, rows, ctx.wg[0], (i) => body(i, j)));
}

/** One index per work-item, all of them in turn. */
function linear(ctx: SCollectiveContext, n: SExt, body: (i: Sym) => void): void {
  ctx.g.forIndex(ctx.lid, n, ctx.wg[0] * ctx.wg[1], body);
}

const times = (ctx: SCollectiveContext, t: SView['element'], ...xs: number[]) => xs.reduce((a, x) => ctx.g.mul(t, a, x));

export function axpby(ctx: SCollectiveContext, t: Trans, atomic: AtomicMode | null, alpha: SScalar, a: SView, beta: SScalar, b: SView): void {
  const g = ctx.g;
  const e = b.element;
  if (b.shape.length === 0) {
    g.f.ifThen(g.f.op(Op.IEqual, g.boolt, ctx.lid.id, g.i64(0)), () => update(ctx, b, [], times(ctx, e, alpha.id, g.load(a, [])), beta, atomic));
  } else if (b.shape.length === 1) linear(ctx, b.shape[0], (i) => update(ctx, b, [i], times(ctx, e, alpha.id, g.load(a, [i])), beta, atomic));
  else grid(ctx, b.shape[0], b.shape[1], (i, j) => update(ctx, b, [i, j], times(ctx, e, alpha.id, opAt(ctx, a, t, i, j)), beta, atomic));
}

export function hadamard(ctx: SCollectiveContext, atomic: AtomicMode | null, alpha: SScalar, a: SView, b: SView, beta: SScalar, c: SView): void {
  linear(ctx, c.shape[0], (i) => update(ctx, c, [i], times(ctx, c.element, alpha.id, ctx.g.load(a, [i]), ctx.g.load(b, [i])), beta, atomic));
}

export function ger(ctx: SCollectiveContext, atomic: AtomicMode | null, alpha: SScalar, a: SView, b: SView, beta: SScalar, c: SView): void {
  grid(ctx, c.shape[0], c.shape[1], (i, j) => update(ctx, c, [i, j], times(ctx, c.element, alpha.id, ctx.g.load(a, [i]), ctx.g.load(b, [j])), beta, atomic));
}

export function gemv(ctx: SCollectiveContext, t: Trans, atomic: AtomicMode | null, alpha: SScalar, a: SView, b: SView, beta: SScalar, c: SView): void {
  const g = ctx.g;
  const e = c.element;
  linear(ctx, c.shape[0], (i) => {
    const acc = g.variable(e, g.constant(e, 0));
    g.forIndex(0, op(a, t).cols, 1, (k) => acc.set(g.add(e, acc.get(), g.mul(e, opAt(ctx, a, t, i, k), g.load(b, [k])))));
    update(ctx, c, [i], g.mul(e, alpha.id, acc.get()), beta, atomic);
  });
}

export function sum(ctx: SCollectiveContext, t: Trans, atomic: AtomicMode | null, alpha: SScalar, a: SView, beta: SScalar, b: SView): void {
  const g = ctx.g;
  const e = b.element;
  if (a.shape.length === 2) {
    linear(ctx, b.shape[0], (i) => {
      const acc = g.variable(e, g.constant(e, 0));
      g.forIndex(0, op(a, t).cols, 1, (k) => acc.set(g.add(e, acc.get(), opAt(ctx, a, t, i, k))));
      update(ctx, b, [i], g.mul(e, alpha.id, acc.get()), beta, atomic);
    });
    return;
  }
  // A vector into a scalar: partial sums per work-item, then work-item 0 adds them up.
  const n = ctx.wg[0] * ctx.wg[1];
  const partial = ctx.workgroupArray(e, n);
  const acc = g.variable(e, g.constant(e, 0));
  linear(ctx, a.shape[0], (i) => acc.set(g.add(e, acc.get(), g.load(a, [i]))));
  g.store(partial, [ctx.lid], acc.get());
  ctx.localBarrier();
  g.f.ifThen(g.f.op(Op.IEqual, g.boolt, ctx.lid.id, g.i64(0)), () => {
    g.forIndex(1, n, 1, (k) => acc.set(g.add(e, acc.get(), g.load(partial, [k]))));
    update(ctx, b, [], g.mul(e, alpha.id, acc.get()), beta, atomic);
  });
  ctx.localBarrier();
}

/** C := alpha op(A) op(B) + beta C with the register tile gemmTiling chooses (as the OpenCL C backend). */
export function gemm(ctx: SCollectiveContext, ta: Trans, tb: Trans, atomic: AtomicMode | null, alpha: SScalar, a: SView, b: SView, beta: SScalar, c: SView): void {
  const g = ctx.g;
  const e = c.element;
  const [wg0, wg1] = ctx.wg;
  const M = c.shape[0];
  const N = c.shape[1];
  const K = op(a, ta).cols;
  const { rm, rn, fullRows, fullCols } = gemmTiling(ctx.wg, M, N);
  const zero = g.constant(e, 0);
  g.forIndex(0, N, wg1 * rn, (jb) =>
    g.forIndex(0, M, wg0 * rm, (ib) => {
      const row = (r: number): SExt => g.ext.add(g.ext.add(ib, ctx.lid0), r * wg0);
      const col = (q: number): SExt => g.ext.add(g.ext.add(jb, ctx.lid1), q * wg1);
      const rows = Array.from({ length: rm }, (_, r) => row(r));
      const cols = Array.from({ length: rn }, (_, q) => col(q));
      const inRow = rows.map((r) => (fullRows ? null : g.lessThan(r, M)));
      const inCol = cols.map((q) => (fullCols ? null : g.lessThan(q, N)));
      const accs = rows.map(() => cols.map(() => g.variable(e, zero)));
      // A guarded operand is read only where it is in range (OpSelect would read it anyway).
      const guarded = (cond: number | null, read: () => number) => {
        if (cond === null) return read();
        const v = g.variable(e, zero);
        g.f.ifThen(cond, () => v.set(read()));
        return v.get();
      };
      g.forIndex(0, K, 1, (k) => {
        const as = rows.map((r, i) => guarded(inRow[i], () => opAt(ctx, a, ta, r, k)));
        const bs = cols.map((q, j) => guarded(inCol[j], () => opAt(ctx, b, tb, k, q)));
        rows.forEach((_, i) => cols.forEach((_, j) => accs[i][j].set(g.add(e, accs[i][j].get(), g.mul(e, as[i], bs[j])))));
      });
      rows.forEach((r, i) =>
        cols.forEach((q, j) => {
          const write = () => update(ctx, c, [r, q], g.mul(e, alpha.id, accs[i][j].get()), beta, atomic);
          const conds = [inRow[i], inCol[j]].filter((x): x is number => x !== null);
          if (conds.length === 0) write();
          else g.f.ifThen(conds.length === 2 ? g.and(conds[0], conds[1]) : conds[0], write);
        }),
      );
    }),
  );
}
