// The reference evaluator's tinytc v0.4 number types: f16 and bf16 values as the numbers they encode
// (rounded after every operation: f16 to binary16, bf16 computed in f32 and rounded to bfloat16, as
// tinytc's SPIR-V does), complex numbers as { re, im } (c32 parts rounded to f32). In memory: f16 and
// bf16 as their bits (Uint16Array), complex numbers interleaved, real part first.
import { halfBits, halfValue } from '../../src/layout/half.js';
import { bf16Bits, bf16Value } from '../../src/layout/bfloat16.js';
import type { ScalarTypeName } from '../../src/frontend/tinytc/ast.js';

export interface Complex {
  readonly re: number;
  readonly im: number;
}
export const isComplexValue = (x: unknown): x is Complex =>
  typeof x === 'object' && x !== null && 're' in x && 'im' in x;

export const isV04Type = (t: ScalarTypeName): boolean => t === 'f16' || t === 'bf16' || t === 'c32' || t === 'c64';
const complex = (t: ScalarTypeName): t is 'c32' | 'c64' => t === 'c32' || t === 'c64';

/** The binary16 value nearest x (rounded through float, as the code generators round constants). */
const f16Round = (x: number): number => halfValue(halfBits(x));

const bf16Round = (x: number): number => bf16Value(bf16Bits(Math.fround(x)));

/** A value of one of v0.4's types, from a number, a bigint, a bool or a complex value. */
export function wrapNumber(t: ScalarTypeName, x: unknown): number | Complex {
  const real = (v: unknown) => Number(v);
  if (complex(t)) {
    const r = t === 'c32' ? Math.fround : (v: number) => v;
    if (isComplexValue(x)) return { re: r(x.re), im: r(x.im) };
    if (Array.isArray(x)) return { re: r(Number(x[0])), im: r(Number(x[1])) };
    return { re: r(real(x)), im: 0 };
  }
  const v = isComplexValue(x) ? x.re : real(x);
  return t === 'f16' ? f16Round(v) : bf16Round(v);
}

/** A binary arith of f16, bf16 (in f32) or complex numbers. */
export function arithNumber(fn: string, t: ScalarTypeName, a: unknown, b: unknown): number | Complex {
  if (complex(t)) {
    const x = wrapNumber(t, a) as Complex;
    const y = wrapNumber(t, b) as Complex;
    switch (fn) {
      case 'add':
        return wrapNumber(t, { re: x.re + y.re, im: x.im + y.im });
      case 'sub':
        return wrapNumber(t, { re: x.re - y.re, im: x.im - y.im });
      case 'mul':
        return wrapNumber(t, { re: x.re * y.re - x.im * y.im, im: x.re * y.im + x.im * y.re });
      case 'div': {
        const d = y.re * y.re + y.im * y.im;
        return wrapNumber(t, { re: (x.re * y.re + x.im * y.im) / d, im: (x.im * y.re - x.re * y.im) / d });
      }
    }
    throw new Error(`reference: ${fn} of ${t}`);
  }
  const inF32 = t === 'bf16' ? Math.fround : (v: number) => v;
  const x = Number(a);
  const y = Number(b);
  // fmin/fmax: the other operand where one is NaN.
  const pick = (m: (p: number, q: number) => number) => (Number.isNaN(x) ? y : Number.isNaN(y) ? x : m(x, y));
  const r =
    fn === 'add'
      ? x + y
      : fn === 'sub'
        ? x - y
        : fn === 'mul'
          ? x * y
          : fn === 'div'
            ? x / y
            : fn === 'min'
              ? pick(Math.min)
              : fn === 'max'
                ? pick(Math.max)
                : x % y;
  return wrapNumber(t, inF32(r));
}

const MATH: Readonly<Record<string, (x: number) => number>> = {
  cos: Math.cos,
  sin: Math.sin,
  exp: Math.exp,
  exp2: (x) => 2 ** x,
  log: Math.log,
  log2: Math.log2,
};

/**
 * A one-operand function of any type (v0.4's abs, conj, im, re and math-unary; neg of its new types).
 * `round` rounds a real result to the operand's type (f32 and f64 are the caller's).
 */
export function unaryNumber(
  fn: string,
  t: ScalarTypeName,
  a: unknown,
  round: (x: number | bigint) => unknown,
): unknown {
  const math = MATH[fn.replace(/^native_/, '')];
  if (complex(t)) {
    const x = wrapNumber(t, a) as Complex;
    const r = t === 'c32' ? Math.fround : (v: number) => v;
    switch (fn) {
      case 'neg':
        return { re: -x.re, im: -x.im };
      case 'abs':
        return r(Math.hypot(x.re, x.im));
      case 'conj':
        return { re: x.re, im: -x.im };
      case 'im':
        return x.im;
      case 're':
        return x.re;
    }
    if (fn.replace(/^native_/, '') === 'exp' || fn.replace(/^native_/, '') === 'exp2') {
      const two = fn.endsWith('2');
      const e = two ? 2 ** x.re : Math.exp(x.re);
      const y = two ? x.im * Math.LN2 : x.im;
      return wrapNumber(t, { re: e * Math.cos(y), im: e * Math.sin(y) });
    }
    throw new Error(`reference: ${fn} of ${t}`);
  }
  if (fn === 'neg') return round(-Number(a));
  if (fn === 'abs') return typeof a === 'bigint' ? round(a < 0n ? -a : a) : round(Math.abs(Number(a)));
  if (math) return round(math(Number(a)));
  throw new Error(`reference: ${fn} of ${t}`);
}

/** equal / not_equal of complex numbers (both parts equal; either part differs). */
export function compareComplex(fn: string, a: Complex, b: Complex): boolean {
  const eq = a.re === b.re && a.im === b.im;
  if (fn === 'eq') return eq;
  if (fn === 'ne') return a.re !== b.re || a.im !== b.im;
  throw new Error(`reference: ${fn} of complex numbers`);
}

/** Host memory for n elements of a v0.4 type. */
export function allocateNumber(t: ScalarTypeName, n: number): Uint16Array | Float32Array | Float64Array {
  if (t === 'c32') return new Float32Array(2 * n);
  if (t === 'c64') return new Float64Array(2 * n);
  return new Uint16Array(n);
}

/** The number of host array entries one element of a type takes. */
export const entriesPer = (t: ScalarTypeName): number => (complex(t) ? 2 : 1);

/** Reads element `a` of host memory of a v0.4 type. */
export function readNumber(t: ScalarTypeName, data: ArrayLike<number>, a: number): number | Complex {
  if (complex(t)) return { re: data[2 * a], im: data[2 * a + 1] };
  return t === 'f16' ? halfValue(data[a]) : bf16Value(data[a]);
}

/** Writes element `a` of host memory of a v0.4 type. */
export function writeNumber(t: ScalarTypeName, data: { [i: number]: number }, a: number, v: unknown): void {
  const x = wrapNumber(t, v);
  if (isComplexValue(x)) {
    data[2 * a] = x.re;
    data[2 * a + 1] = x.im;
  } else data[a] = t === 'f16' ? halfBits(x) : bf16Bits(x);
}

/**
 * The value a complex atomic_add, atomic_max or atomic_min leaves: one part at a time, as kernarg's SPIR-V and OpenCL C
 * make them (tinytc's split_re_im): the parts' sums, or each part's own maximum or minimum.
 */
export function complexAtomicNext(fn: 'add' | 'max' | 'min', t: 'c32' | 'c64', old: unknown, v: unknown): Complex {
  const x = wrapNumber(t, old) as Complex;
  const y = wrapNumber(t, v) as Complex;
  const pick = (a: number, b: number) => (fn === 'add' ? a + b : (fn === 'max' ? b > a : b < a) ? b : a);
  return wrapNumber(t, { re: pick(x.re, y.re), im: pick(x.im, y.im) }) as Complex;
}
