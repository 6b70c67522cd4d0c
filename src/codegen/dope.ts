// The dope-vector rules of tinytc views, made once for every backend: how subview, expand and
// fuse derive offset, shape and stride from their operand. Static entries fold to numbers; a
// backend supplies how a dynamic product, sum, difference or quotient is spelled (a C
// expression, a SPIR-V result id).

/** A static extent, stride or index, or a backend's run-time value of it. */
export type Ext<S> = number | S;

/** How a backend builds the run-time operations the folding rules leave. */
export interface ExtBuild<S> {
  mul(a: Ext<S>, b: Ext<S>): S;
  add(a: Ext<S>, b: Ext<S>): S;
  sub(a: Ext<S>, b: Ext<S>): S;
  div(a: Ext<S>, b: Ext<S>): S;
}

export interface ExtOps<S> {
  /** a × b, folded where both are static or one is 0 or 1. */
  mul(a: Ext<S>, b: Ext<S>): Ext<S>;
  /** a + b, folded. */
  add(a: Ext<S>, b: Ext<S>): Ext<S>;
  /** a − b, folded. */
  sub(a: Ext<S>, b: Ext<S>): Ext<S>;
  /** a / b (exact division of extents), folded. */
  div(a: Ext<S>, b: Ext<S>): Ext<S>;
  /** The element offset of an index tuple: Σ index_i × stride_i. */
  offsetOf(stride: readonly Ext<S>[], index: readonly Ext<S>[]): Ext<S>;
}

export function extOps<S>(build: ExtBuild<S>): ExtOps<S> {
  const num = (x: Ext<S>): x is number => typeof x === 'number';
  const ops: ExtOps<S> = {
    mul: (a, b) => (num(a) && num(b) ? a * b : a === 0 || b === 0 ? 0 : a === 1 ? b : b === 1 ? a : build.mul(a, b)),
    add: (a, b) => (num(a) && num(b) ? a + b : a === 0 ? b : b === 0 ? a : build.add(a, b)),
    sub: (a, b) => (num(a) && num(b) ? a - b : b === 0 ? a : build.sub(a, b)),
    div: (a, b) => (num(a) && num(b) ? a / b : b === 1 ? a : build.div(a, b)),
    offsetOf: (stride, index) => index.reduce<Ext<S>>((acc, i, k) => ops.add(acc, ops.mul(i, stride[k])), 0),
  };
  return ops;
}

/** A view's extents and strides, per mode. */
export interface Dope<S> {
  readonly shape: readonly Ext<S>[];
  readonly stride: readonly Ext<S>[];
}

/** A subview slice with its operands already evaluated. */
export type EvalSlice<S> =
  | { readonly kind: 'index'; readonly index: Ext<S> }
  | { readonly kind: 'range'; readonly offset: Ext<S>; readonly size: Ext<S> | null }
  | { readonly kind: 'all' };

/** subview: the element offset of the first element, and the kept modes' shape and stride. */
export function subviewDope<S>(
  ops: ExtOps<S>,
  v: Dope<S>,
  slices: readonly EvalSlice<S>[],
): { offset: Ext<S>; shape: Ext<S>[]; stride: Ext<S>[] } {
  const offsets: Ext<S>[] = [];
  const shape: Ext<S>[] = [];
  const stride: Ext<S>[] = [];
  slices.forEach((s, k) => {
    if (s.kind === 'index') {
      offsets.push(s.index);
      return;
    }
    const off = s.kind === 'all' ? 0 : s.offset;
    offsets.push(off);
    shape.push(s.kind === 'all' ? v.shape[k] : s.size !== null ? s.size : ops.sub(v.shape[k], off));
    stride.push(v.stride[k]);
  });
  return { offset: ops.offsetOf(v.stride, offsets), shape, stride };
}

/** expand: mode m split into the given extents (null: the one dynamic extent, the quotient of the rest). */
export function expandDope<S>(
  ops: ExtOps<S>,
  v: Dope<S>,
  m: number,
  given: readonly (Ext<S> | null)[],
): { shape: Ext<S>[]; stride: Ext<S>[] } {
  const known = given.reduce<Ext<S>>((acc, e) => (e === null ? acc : ops.mul(acc, e)), 1);
  const ext = given.map((e) => e ?? ops.div(v.shape[m], known));
  const strides: Ext<S>[] = [];
  let s = v.stride[m];
  for (const e of ext) {
    strides.push(s);
    s = ops.mul(s, e);
  }
  return {
    shape: [...v.shape.slice(0, m), ...ext, ...v.shape.slice(m + 1)],
    stride: [...v.stride.slice(0, m), ...strides, ...v.stride.slice(m + 1)],
  };
}

/** fuse: modes from..to become one, with the first one's stride. */
export function fuseDope<S>(
  ops: ExtOps<S>,
  v: Dope<S>,
  from: number,
  to: number,
): { shape: Ext<S>[]; stride: Ext<S>[] } {
  let e: Ext<S> = 1;
  for (let i = from; i <= to; i++) e = ops.mul(e, v.shape[i]);
  return {
    shape: [...v.shape.slice(0, from), e, ...v.shape.slice(to + 1)],
    stride: [...v.stride.slice(0, from), v.stride[from], ...v.stride.slice(to + 1)],
  };
}

/** The elements an alloca of this static shape and stride spans. */
export function allocaElements(shape: readonly (number | null)[], stride: readonly (number | null)[]): number {
  return 1 + shape.reduce<number>((acc, e, i) => acc + ((e ?? 1) - 1) * (stride[i] ?? 0), 0);
}
