// What both printers decide alike about a BLAS-like instruction, said once: which operand is which
// (tinytc's order alpha, A, [B], beta, C), and, for every function but GEMM (gemm.ts in each printer),
// the loops that compute C as data: which loop nest, over which extents, and which operand each
// element reads at which loop variables. Each printer (opencl-c/collective.ts, spirv/collective.ts)
// keeps only its spelling of these loops.
import { assertNever } from '../assert-never.js';
import type { Inst, Operand, ScalarTypeName } from '../frontend/tinytc/ast.js';
import type { AtomicMode } from './atomic-mode.js';

type BlasInst = Extract<Inst, { op: 'blas' }>;
type BlasFn = BlasInst['fn'];

/** op(X): X itself, or transposed (`t`; only a matrix is). */
export type Trans = 'n' | 't' | null;

/** What the decisions read of a printer's view of a memref: its extents and its element type. */
export interface ShapedView {
  readonly shape: readonly unknown[];
  readonly element: ScalarTypeName;
}

/** An extent of a view: one of its shape's entries, or a literal count. */
export type ExtentOf<V extends ShapedView> = V['shape'][number] | number;

/** The rows and columns of op(v); a vector is one column. */
export const op = <V extends ShapedView>(v: V, t: Trans): { rows: ExtentOf<V>; cols: ExtentOf<V> } =>
  t === 't' && v.shape.length === 2
    ? { rows: v.shape[1], cols: v.shape[0] }
    : { rows: v.shape[0], cols: v.shape[1] ?? 1 };

/** The index of element (i, j) of op(v) in v. */
export const opIndex = <X>(t: Trans, i: X, j: X): [X, X] => (t === 't' ? [j, i] : [i, j]);

/** Where B stands among the operands: the functions of two inputs have one, axpby and sum do not. */
const B_OPERAND = {
  axpby: false,
  sum: false,
  gemm: true,
  gemv: true,
  ger: true,
  hadamard: true,
} as const satisfies Record<BlasFn, boolean>;

/** One BLAS instruction's operands by role as a printer reads them (alpha, beta: S; memrefs: V). */
interface BlasOperands<S, V> {
  readonly transA: Trans;
  readonly transB: Trans;
  /** How C is updated: plainly (null), or atomically in this mode. */
  readonly atomic: AtomicMode | null;
  readonly alpha: S;
  readonly a: V;
  readonly beta: S;
  readonly c: V;
}

/** A BLAS call other than GEMM: B where B_OPERAND says there is one. */
export type CollectiveCall<S, V> = BlasOperands<S, V> &
  ({ readonly fn: 'axpby' | 'sum'; readonly b: null } | { readonly fn: 'gemv' | 'ger' | 'hadamard'; readonly b: V });

export type BlasCall<S, V> = CollectiveCall<S, V> | (BlasOperands<S, V> & { readonly fn: 'gemm'; readonly b: V });

/** What a printer's body scope offers to read a BLAS instruction's operands (both BodyScopes are one). */
export interface BlasOperandReader<S, V extends ShapedView> {
  view(o: Operand): V;
  /** alpha or beta, of IR type t, as the C operand's element type `as`. */
  scalarArg(o: Operand, t: ScalarTypeName, as: ScalarTypeName): S;
}

/** The operands of a BLAS instruction by role; alpha is read before beta (a printer may emit code for each). */
export function blasCall<S, V extends ShapedView>(
  inst: BlasInst,
  atomic: AtomicMode | null,
  r: BlasOperandReader<S, V>,
): BlasCall<S, V> {
  const o = inst.operands;
  const t = (i: number) => (inst.types[i].type as { name: ScalarTypeName }).name;
  const last = o.length - 1;
  const e = r.view(o[last]).element;
  const alpha = r.scalarArg(o[0], t(0), e);
  const a = r.view(o[1]);
  const b = B_OPERAND[inst.fn] ? r.view(o[2]) : null;
  const beta = r.scalarArg(o[last - 1], t(last - 1), e);
  const { fn, transA, transB } = inst;
  return { fn, transA, transB, atomic, alpha, a, b, beta, c: r.view(o[last]) } as BlasCall<S, V>;
}

/** A GEMM's operands in the order both printers' gemm() takes them (after the context). */
export const gemmOperands = <S, V>(g: BlasOperands<S, V> & { readonly b: V }) =>
  [g.transA, g.transB, g.atomic, g.alpha, g.a, g.b, g.beta, g.c] as const;

/** A loop variable: i over C's rows (or elements), j over its columns, k over a sum. */
export type LoopVar = 'i' | 'j' | 'k';

/** One factor of an element's product: an operand's element at these loop variables, read as C's element type. */
export interface Factor<V> {
  readonly view: V;
  readonly index: readonly LoopVar[];
}

/** Reads each factor (`read`, a printer's) at its index, its loop variables given the values they have there. */
export const readFactors = <V, X, R>(
  factors: readonly Factor<V>[],
  at: Partial<Record<LoopVar, X>>,
  read: (view: V, index: X[]) => R,
): R[] =>
  // The loops around a factor define every variable it names (blasLoops builds them so).
  factors.map((f) =>
    read(
      f.view,
      f.index.map((v) => at[v]!),
    ),
  );

/**
 * How one BLAS call other than GEMM computes C := alpha × (product of the factors) + beta C, as
 * loops each printer spells: `once`, work-item 0 updates a scalar C; `linear`, C[i] with the
 * work-items taking the indices in turn, the product summed over k < `sum` first where there is one
 * (`vectors`: a plain elementwise b := alpha a + beta b, which a printer may do a vector at a time
 * where it can); `grid`, C[i, j] with rows over local id 0 and columns over local id 1; `total`, the
 * sum of vector a into scalar C, partial sums per work-item added up by work-item 0.
 */
export type BlasLoops<S, V extends ShapedView> = {
  readonly atomic: AtomicMode | null;
  readonly alpha: S;
  readonly beta: S;
  readonly c: V;
} & (
  | { readonly kind: 'once'; readonly factors: readonly Factor<V>[] }
  | {
      readonly kind: 'linear';
      readonly n: ExtentOf<V>;
      readonly sum: ExtentOf<V> | null;
      readonly factors: readonly Factor<V>[];
      readonly vectors: { readonly a: V; readonly b: V } | null;
    }
  | {
      readonly kind: 'grid';
      readonly rows: ExtentOf<V>;
      readonly cols: ExtentOf<V>;
      readonly factors: readonly Factor<V>[];
    }
  | { readonly kind: 'total'; readonly n: ExtentOf<V>; readonly a: V }
);

/** The loops of a BLAS call other than GEMM (the checker has fixed the operands' orders). */
export function blasLoops<S, V extends ShapedView>(call: CollectiveCall<S, V>): BlasLoops<S, V> {
  const { atomic, alpha, beta, c, a } = call;
  const common = { atomic, alpha, beta, c };
  const at = (view: V, ...index: LoopVar[]): Factor<V> => ({ view, index });
  switch (call.fn) {
    case 'axpby':
      if (c.shape.length === 0) return { ...common, kind: 'once', factors: [at(a)] };
      if (c.shape.length === 1)
        return {
          ...common,
          kind: 'linear',
          n: c.shape[0],
          sum: null,
          factors: [at(a, 'i')],
          vectors: atomic ? null : { a, b: c },
        };
      return {
        ...common,
        kind: 'grid',
        rows: c.shape[0],
        cols: c.shape[1],
        factors: [at(a, ...opIndex<LoopVar>(call.transA, 'i', 'j'))],
      };
    case 'sum':
      if (a.shape.length === 2) {
        const factors = [at(a, ...opIndex<LoopVar>(call.transA, 'i', 'k'))];
        return { ...common, kind: 'linear', n: c.shape[0], sum: op(a, call.transA).cols, factors, vectors: null };
      }
      return { ...common, kind: 'total', n: a.shape[0], a };
    case 'gemv': {
      const factors = [at(a, ...opIndex<LoopVar>(call.transA, 'i', 'k')), at(call.b, 'k')];
      return { ...common, kind: 'linear', n: c.shape[0], sum: op(a, call.transA).cols, factors, vectors: null };
    }
    case 'ger':
      return { ...common, kind: 'grid', rows: c.shape[0], cols: c.shape[1], factors: [at(a, 'i'), at(call.b, 'j')] };
    case 'hadamard':
      return {
        ...common,
        kind: 'linear',
        n: c.shape[0],
        sum: null,
        factors: [at(a, 'i'), at(call.b, 'i')],
        vectors: null,
      };
    default:
      return assertNever(call);
  }
}

/** The sum of a vector into a scalar (the one loop kind with no factors). */
export type TotalLoop<S, V extends ShapedView> = Extract<BlasLoops<S, V>, { kind: 'total' }>;
