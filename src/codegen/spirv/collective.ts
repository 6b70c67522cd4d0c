import { assertNever } from '../../assert-never.js';
import { Op } from '../../emit/spirv/spec.js';
import type { AtomicMode } from '../atomic-mode.js';
import { type BlasLoops, type TotalLoop, type Trans, opIndex, readFactors } from '../blas-loops.js';
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
  /** A work-group array of n elements of the type, at module scope (in vectors of `lanes`, n a multiple: gemm.ts's `lvec`). */
  workgroupArray(t: SView['element'], n: number, lanes?: number): SView;
  /** A barrier over work-group memory. */
  localBarrier(): void;
}

export { type Trans, op } from '../blas-loops.js';
/** Element (i, j) of op(v), converted to type e (the BLAS operation's: mixed-type operands convert as C assigns). */
export const opAt = (ctx: SCollectiveContext, v: SView, t: Trans, i: SExt, j: SExt, e: SView['element'] = v.element) =>
  ctx.g.loadAs(v, opIndex(t, i, j), e);

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

/** Code that work-item 0 alone runs. */
const firstOnly = (ctx: SCollectiveContext, body: () => void) =>
  ctx.g.f.ifThen(ctx.g.f.op(Op.IEqual, ctx.g.boolt, ctx.lid.id, ctx.g.i64(0)), body);

const times = (ctx: SCollectiveContext, t: SView['element'], ...xs: number[]) =>
  xs.reduce((a, x) => ctx.g.mul(t, a, x));

/**
 * A BLAS call other than GEMM, its loops as blas-loops.ts decided them, as SPIR-V: each factor loaded
 * as C's element type, then multiplied by alpha in order (alpha × acc, acc the sum over k).
 */
export function collective(ctx: SCollectiveContext, l: BlasLoops<SScalar, SView>): void {
  const { g } = ctx;
  const { c, alpha, beta, atomic } = l;
  const e = c.element;
  const load = (v: SView, index: SExt[]) => g.loadAs(v, index, e);
  const set = (index: SExt[], ...values: number[]) =>
    update(ctx, c, index, times(ctx, e, alpha.id, ...values), beta, atomic);
  switch (l.kind) {
    case 'once':
      firstOnly(ctx, () => set([], ...readFactors(l.factors, {}, load)));
      return;
    case 'linear': {
      const { sum, factors } = l;
      if (sum !== null) {
        linear(ctx, l.n, (i) => {
          const acc = g.variable(e, g.constant(e, 0));
          g.forIndex(0, sum, 1, (k) =>
            acc.set(g.add(e, acc.get(), times(ctx, e, ...readFactors(factors, { i, k }, load)))),
          );
          set([i], acc.get());
        });
        return;
      }
      const scalar = (from: SExt) => linear(ctx, l.n, (i) => set([i], ...readFactors(factors, { i }, load)), from);
      const x = l.vectors;
      if (!x || !vectorizable(x.a, x.b)) scalar(0);
      else vectorAxpby(ctx, ctx.blas.axpbyVector, alpha, x.a, beta, x.b, scalar);
      return;
    }
    case 'grid':
      grid(ctx, l.rows, l.cols, (i, j) => set([i, j], ...readFactors(l.factors, { i, j }, load)));
      return;
    case 'total':
      total(ctx, l);
      return;
    default:
      assertNever(l);
  }
}

/** A vector into a scalar: partial sums per work-item, then work-item 0 adds them up. */
function total(ctx: SCollectiveContext, { n, a, alpha, beta, c: b, atomic }: TotalLoop<SScalar, SView>): void {
  const g = ctx.g;
  const e = b.element;
  const wi = ctx.wg[0] * ctx.wg[1];
  const partial = ctx.workgroupArray(e, wi);
  const acc = g.variable(e, g.constant(e, 0));
  linear(ctx, n, (i) => acc.set(g.add(e, acc.get(), g.loadAs(a, [i], e))));
  g.store(partial, [ctx.lid], acc.get());
  ctx.localBarrier();
  firstOnly(ctx, () => {
    g.forIndex(1, wi, 1, (k) => acc.set(g.add(e, acc.get(), g.load(partial, [k]))));
    update(ctx, b, [], g.mul(e, alpha.id, acc.get()), beta, atomic);
  });
  ctx.localBarrier();
}
