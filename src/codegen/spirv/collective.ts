import { Op } from '../../emit/spirv/spec.js';
import type { AtomicMode } from '../atomic-mode.js';
import type { BlasPolicy } from '../blas-policy.js';
import { atomicUpdate } from './atomics.js';
import { vectorAxpby, vectorizable } from './vector-axpby.js';
import type { Gen, SExt, SView, Sym } from './gen.js';

/** alpha or beta, converted to the C operand's element type: its id, and its value when it is an immediate. */
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
  /** GEMM variants (gemm.ts) and the work-group memory a staged one may take. */
  readonly blas: BlasPolicy;
  /** A storage-buffer variable's data as a runtime array of `count`-component vectors (interface.ts). */
  vectorBuffer(variable: number, t: SView['element'], count: number): number;
  /** A work-group array of n elements of the type, at module scope. */
  workgroupArray(t: SView['element'], n: number): SView;
  /** A barrier over work-group memory. */
  localBarrier(): void;
}

export type Trans = 'n' | 't' | null;
export const op = (v: SView, t: Trans) =>
  t === 't' && v.shape.length === 2
    ? { rows: v.shape[1], cols: v.shape[0] }
    : { rows: v.shape[0], cols: v.shape[1] ?? 1 };
/** Element (i, j) of op(v), converted to type e (the BLAS operation's: mixed-type operands convert as C assigns). */
export const opAt = (ctx: SCollectiveContext, v: SView, t: Trans, i: SExt, j: SExt, e: SView['element'] = v.element) =>
  ctx.g.loadAs(v, t === 't' ? [j, i] : [i, j], e);

/** `C := value + beta C`, plain or atomic; beta 0 does not read C. */
export function update(
  ctx: SCollectiveContext,
  c: SView,
  index: SExt[],
  value: number,
  beta: SScalar,
  atomic: AtomicMode | null,
): void {
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

/** One index per work-item, all of them in turn (from `from` on). */
function linear(ctx: SCollectiveContext, n: SExt, body: (i: Sym) => void, from: SExt = 0): void {
  ctx.g.forIndex(ctx.g.ext.add(from, ctx.lid), n, ctx.wg[0] * ctx.wg[1], body);
}

const times = (ctx: SCollectiveContext, t: SView['element'], ...xs: number[]) =>
  xs.reduce((a, x) => ctx.g.mul(t, a, x));

export function axpby(
  ctx: SCollectiveContext,
  t: Trans,
  atomic: AtomicMode | null,
  alpha: SScalar,
  a: SView,
  beta: SScalar,
  b: SView,
): void {
  const g = ctx.g;
  const e = b.element;
  if (b.shape.length === 0) {
    g.f.ifThen(g.f.op(Op.IEqual, g.boolt, ctx.lid.id, g.i64(0)), () =>
      update(ctx, b, [], times(ctx, e, alpha.id, g.loadAs(a, [], e)), beta, atomic),
    );
  } else if (b.shape.length === 1) {
    const scalar = (from: SExt) =>
      linear(
        ctx,
        b.shape[0],
        (i) => update(ctx, b, [i], times(ctx, e, alpha.id, g.loadAs(a, [i], e)), beta, atomic),
        from,
      );
    if (atomic || !vectorizable(a, b)) scalar(0);
    else vectorAxpby(ctx, ctx.blas.axpbyVector, alpha, a, beta, b, scalar);
  } else
    grid(ctx, b.shape[0], b.shape[1], (i, j) =>
      update(ctx, b, [i, j], times(ctx, e, alpha.id, opAt(ctx, a, t, i, j, e)), beta, atomic),
    );
}

export function hadamard(
  ctx: SCollectiveContext,
  atomic: AtomicMode | null,
  alpha: SScalar,
  a: SView,
  b: SView,
  beta: SScalar,
  c: SView,
): void {
  linear(ctx, c.shape[0], (i) =>
    update(
      ctx,
      c,
      [i],
      times(ctx, c.element, alpha.id, ctx.g.loadAs(a, [i], c.element), ctx.g.loadAs(b, [i], c.element)),
      beta,
      atomic,
    ),
  );
}

export function ger(
  ctx: SCollectiveContext,
  atomic: AtomicMode | null,
  alpha: SScalar,
  a: SView,
  b: SView,
  beta: SScalar,
  c: SView,
): void {
  grid(ctx, c.shape[0], c.shape[1], (i, j) =>
    update(
      ctx,
      c,
      [i, j],
      times(ctx, c.element, alpha.id, ctx.g.loadAs(a, [i], c.element), ctx.g.loadAs(b, [j], c.element)),
      beta,
      atomic,
    ),
  );
}

export function gemv(
  ctx: SCollectiveContext,
  t: Trans,
  atomic: AtomicMode | null,
  alpha: SScalar,
  a: SView,
  b: SView,
  beta: SScalar,
  c: SView,
): void {
  const g = ctx.g;
  const e = c.element;
  linear(ctx, c.shape[0], (i) => {
    const acc = g.variable(e, g.constant(e, 0));
    g.forIndex(0, op(a, t).cols, 1, (k) =>
      acc.set(g.add(e, acc.get(), g.mul(e, opAt(ctx, a, t, i, k, e), g.loadAs(b, [k], e)))),
    );
    update(ctx, c, [i], g.mul(e, alpha.id, acc.get()), beta, atomic);
  });
}

export function sum(
  ctx: SCollectiveContext,
  t: Trans,
  atomic: AtomicMode | null,
  alpha: SScalar,
  a: SView,
  beta: SScalar,
  b: SView,
): void {
  const g = ctx.g;
  const e = b.element;
  if (a.shape.length === 2) {
    linear(ctx, b.shape[0], (i) => {
      const acc = g.variable(e, g.constant(e, 0));
      g.forIndex(0, op(a, t).cols, 1, (k) => acc.set(g.add(e, acc.get(), opAt(ctx, a, t, i, k, e))));
      update(ctx, b, [i], g.mul(e, alpha.id, acc.get()), beta, atomic);
    });
    return;
  }
  // A vector into a scalar: partial sums per work-item, then work-item 0 adds them up.
  const n = ctx.wg[0] * ctx.wg[1];
  const partial = ctx.workgroupArray(e, n);
  const acc = g.variable(e, g.constant(e, 0));
  linear(ctx, a.shape[0], (i) => acc.set(g.add(e, acc.get(), g.loadAs(a, [i], e))));
  g.store(partial, [ctx.lid], acc.get());
  ctx.localBarrier();
  g.f.ifThen(g.f.op(Op.IEqual, g.boolt, ctx.lid.id, g.i64(0)), () => {
    g.forIndex(1, n, 1, (k) => acc.set(g.add(e, acc.get(), g.load(partial, [k]))));
    update(ctx, b, [], g.mul(e, alpha.id, acc.get()), beta, atomic);
  });
  ctx.localBarrier();
}
