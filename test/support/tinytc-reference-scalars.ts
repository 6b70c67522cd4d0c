// The JS reference's scalar arithmetic (tinytc-reference.ts): rounding and wrapping into a type, the
// arith and cmp functions of tinytc v0.3 (v0.4's number types in tinytc-reference-numbers.ts), the adds
// and multiplies BLAS and atomics compute with, and the subgroup reductions and scans.
import type { ScalarTypeName } from '../../src/frontend/tinytc/ast.js';
import { INT_BITS, isFloating, isUnaryArith } from '../../src/frontend/tinytc/ast.js';
import {
  type Complex,
  arithNumber,
  compareComplex,
  isComplexValue,
  isV04Type,
  unaryNumber,
  wrapNumber,
} from './tinytc-reference-numbers.js';
import { groupOperation } from './tinytc-reference-spmd.js';

export type Scalar = number | bigint | boolean | Complex;

const wide = (t: ScalarTypeName) => t === 'i64' || t === 'index';
export const isF = (t: ScalarTypeName) => t === 'f32' || t === 'f64';

/** Rounds or wraps a mathematical result into type t. */
export function wrap(t: ScalarTypeName, x: Scalar): Scalar {
  if (isV04Type(t)) return wrapNumber(t, x);
  if (isComplexValue(x)) x = x.re;
  switch (t) {
    case 'i1':
      return typeof x === 'boolean' ? x : typeof x === 'bigint' ? x !== 0n : x !== 0;
    case 'f32':
      return Math.fround(Number(x));
    case 'f64':
      return Number(x);
    case 'i64':
    case 'index':
      return BigInt.asIntN(64, typeof x === 'bigint' ? x : BigInt(typeof x === 'boolean' ? Number(x) : Math.trunc(x)));
    default: {
      const bits = t === 'i8' ? 8 : t === 'i16' ? 16 : 32;
      const b = typeof x === 'bigint' ? x : BigInt(typeof x === 'boolean' ? Number(x) : Math.trunc(x));
      return Number(BigInt.asIntN(bits, b));
    }
  }
}

export const big = (x: Scalar) =>
  typeof x === 'bigint' ? x : BigInt(typeof x === 'boolean' ? Number(x) : isComplexValue(x) ? x.re : x);

export function arith(fn: string, t: ScalarTypeName, a: Scalar, b: Scalar): Scalar {
  // tinytc v0.4's one-operand functions and number types (tinytc-reference-numbers.ts).
  if (isUnaryArith(fn) && ((fn !== 'neg' && fn !== 'not') || isV04Type(t)))
    return unaryNumber(fn, t, a, (x) => wrap(t, x as Scalar)) as Scalar;
  if (isV04Type(t)) return arithNumber(fn, t, a, b);
  if (t === 'i1') {
    const x = a as boolean;
    const y = b as boolean;
    return fn === 'and' ? x && y : fn === 'or' ? x || y : fn === 'xor' ? x !== y : !x;
  }
  if (isF(t)) {
    const x = a as number;
    const y = b as number;
    const r =
      fn === 'add'
        ? x + y
        : fn === 'sub'
          ? x - y
          : fn === 'mul'
            ? x * y
            : fn === 'div'
              ? x / y
              : fn === 'rem'
                ? x % y
                : -x;
    return wrap(t, r);
  }
  const bits = BigInt(wide(t) ? 64 : t === 'i32' ? 32 : t === 'i16' ? 16 : 8);
  const x = big(a);
  const y = fn === 'neg' || fn === 'not' ? 0n : big(b);
  if ((fn === 'div' || fn === 'rem') && y === 0n) throw new Error('integer division by zero');
  switch (fn) {
    case 'add':
      return wrap(t, x + y);
    case 'sub':
      return wrap(t, x - y);
    case 'mul':
      return wrap(t, x * y);
    case 'div':
      return wrap(t, x / y);
    case 'rem':
      return wrap(t, x % y);
    case 'shl':
      return wrap(t, x << (y & (bits - 1n)));
    case 'shr':
      return wrap(t, x >> (y & (bits - 1n)));
    case 'and':
      return wrap(t, x & y);
    case 'or':
      return wrap(t, x | y);
    case 'xor':
      return wrap(t, x ^ y);
    case 'neg':
      return wrap(t, -x);
    default:
      return wrap(t, ~x);
  }
}

export function compare(fn: string, a: Scalar, b: Scalar): boolean {
  if (isComplexValue(a) && isComplexValue(b)) return compareComplex(fn, a, b);
  const [x, y] = typeof a === 'bigint' || typeof b === 'bigint' ? [big(a), big(b)] : [Number(a), Number(b)];
  switch (fn) {
    case 'eq':
      return x === y;
    case 'ne':
      return x !== y;
    case 'gt':
      return x > y;
    case 'ge':
      return x >= y;
    case 'lt':
      return x < y;
    default:
      return x <= y;
  }
}

/** Adds, multiplies in type t (exact for integers up to the final wrap, rounded per step for f32). */
export const add = (t: ScalarTypeName, a: Scalar, b: Scalar): Scalar =>
  isF(t) ? wrap(t, Number(a) + Number(b)) : big(a) + big(b);
export const mul = (t: ScalarTypeName, a: Scalar, b: Scalar): Scalar =>
  isF(t) ? wrap(t, Number(a) * Number(b)) : big(a) * big(b);

/** The smallest and largest value of a type: the identities of an exclusive max and min scan. */
function extreme(t: ScalarTypeName, largest: boolean): Scalar {
  if (isFloating(t)) return wrap(t, largest ? Infinity : -Infinity);
  const bits = BigInt(INT_BITS[t]!);
  const v = largest ? (1n << (bits - 1n)) - 1n : -(1n << (bits - 1n));
  return wrap(t, v);
}

/** What each lane of a subgroup gets from a reduction or scan of `values` (in lane order), computed in type t. */
export function subgroupCombine(
  group: 'reduce' | 'inclusive_scan' | 'exclusive_scan',
  fn: 'add' | 'max' | 'min',
  t: ScalarTypeName,
  values: readonly Scalar[],
): Scalar[] {
  if (fn === 'add') return groupOperation(group, values, (a, b) => arith('add', t, a, b), wrap(t, 0));
  const pick = (a: Scalar, b: Scalar) => (compare(fn === 'max' ? 'gt' : 'lt', b, a) ? b : a);
  return groupOperation(group, values, pick, extreme(t, fn === 'min'));
}
