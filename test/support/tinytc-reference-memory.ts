// The JS reference's memory (tinytc-reference.ts): host arrays as memrefs (data, first element, shape,
// strides), group members, local allocations, and element reads and writes that refuse an address out
// of bounds rather than read past the data.
import type { MemrefType, ScalarTypeName } from '../../src/frontend/tinytc/ast.js';
import { canonicalStride } from '../../src/frontend/tinytc/ast.js';
import { allocateNumber, entriesPer, isV04Type, readNumber, writeNumber } from './tinytc-reference-numbers.js';
import { type Scalar, big } from './tinytc-reference-scalars.js';

type Typed = Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | BigInt64Array | Uint16Array;

export interface Mem {
  readonly data: Typed;
  readonly base: number;
  readonly shape: readonly number[];
  readonly stride: readonly number[];
  readonly element: ScalarTypeName;
}

export interface GroupMem {
  readonly members: readonly Mem[];
  readonly offset: number;
}

export interface RefMemref {
  readonly data: ArrayBufferView;
  readonly shape: readonly number[];
  readonly stride?: readonly number[];
}

export function allocate(t: ScalarTypeName, n: number): Typed {
  if (isV04Type(t)) return allocateNumber(t, n);
  switch (t) {
    case 'f32':
      return new Float32Array(n);
    case 'f64':
      return new Float64Array(n);
    case 'i8':
      return new Int8Array(n);
    case 'i16':
      return new Int16Array(n);
    case 'i32':
      return new Int32Array(n);
    default:
      return new BigInt64Array(n);
  }
}

export function toMem(v: RefMemref, t: MemrefType): Mem {
  return {
    data: v.data as Typed,
    base: 0,
    shape: [...v.shape],
    stride: v.stride ? [...v.stride] : (canonicalStride(v.shape) as number[]),
    element: t.element,
  };
}

function address(m: Mem, index: readonly number[]): number {
  // A plain loop, not reduce with a closure: see readAt.
  let a = m.base;
  for (let k = 0; k < index.length; k++) a += index[k] * m.stride[k];
  return a;
}

export function readElement(m: Mem, index: readonly number[]): Scalar {
  return readAt(m, address(m, index));
}

/**
 * The element at address `a` of m's data (a = base + Σ index·stride). The BLAS loops compute it with plain
 * arithmetic: an index array per read made V8 11.3 (Node 20) drop one product from a sum now and then
 * (tinytc-reference-blas.ts says more).
 */
export function readAt(m: Mem, a: number): Scalar {
  if (a < 0 || a * entriesPer(m.element) >= m.data.length)
    throw new Error(`reference: read out of bounds at ${a} (length ${m.data.length})`);
  if (isV04Type(m.element)) return readNumber(m.element, m.data as ArrayLike<number>, a);
  return m.data[a];
}

export function write(m: Mem, index: readonly number[], v: Scalar): void {
  const a = address(m, index);
  if (a < 0 || a * entriesPer(m.element) >= m.data.length)
    throw new Error(`reference: write out of bounds at ${a} (length ${m.data.length})`);
  if (isV04Type(m.element)) writeNumber(m.element, m.data as { [i: number]: number }, a, v);
  else if (m.data instanceof BigInt64Array) m.data[a] = big(v);
  else m.data[a] = Number(v);
}
