import { halfBits } from '../layout/half.js';
import type { ScalarEncoding } from '../layout/encoding.js';
import { ValueError } from './errors.js';

export function intRange(size: number, signed: boolean): [bigint, bigint] {
  const bits = BigInt(size * 8);
  return signed ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

/**
 * Writes one integer of an integer encoding (`bool` also takes true and false), refusing values outside its range
 * (nothing is truncated); `type` names it in refusals.
 */
export function writeInt(
  view: DataView,
  offset: number,
  v: unknown,
  size: number,
  encoding: ScalarEncoding,
  type: string,
  path: string,
): void {
  const signed = encoding === 'int';
  let n: bigint;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new ValueError(path, `${v} is not an integer (type ${type})`);
    const [lo, hi] = intRange(size, signed);
    if (BigInt(v) < lo || BigInt(v) > hi) throw new ValueError(path, `${v} is out of range for ${type} (${lo}..${hi})`);
    if (!Number.isSafeInteger(v))
      throw new ValueError(path, `${v} is beyond 2^53: pass a bigint for exact 64-bit values`);
    n = BigInt(v);
  } else if (typeof v === 'boolean' && encoding === 'bool') n = v ? 1n : 0n;
  else throw new ValueError(path, `expected an integer for ${type}, got ${describe(v)}`);
  const [lo, hi] = intRange(size, signed);
  if (n < lo || n > hi) throw new ValueError(path, `${n} is out of range for ${type} (${lo}..${hi})`);
  switch (size) {
    case 1:
      view.setUint8(offset, Number(BigInt.asUintN(8, n)));
      return;
    case 2:
      view.setUint16(offset, Number(BigInt.asUintN(16, n)), true);
      return;
    case 4:
      view.setUint32(offset, Number(BigInt.asUintN(32, n)), true);
      return;
    default:
      view.setBigUint64(offset, BigInt.asUintN(64, n), true);
  }
}

/** Writes one IEEE float (`half`: binary16; `float`: binary32 or binary64 by its size). */
export function writeFloat(
  view: DataView,
  offset: number,
  v: unknown,
  size: number,
  encoding: ScalarEncoding,
  type: string,
  path: string,
): void {
  if (typeof v !== 'number') throw new ValueError(path, `expected a number for ${type}, got ${describe(v)}`);
  if (encoding === 'half') {
    if (Number.isFinite(v) && Math.abs(v) >= 65520) throw new ValueError(path, `${v} is out of range for half`);
    view.setUint16(offset, halfBits(v), true);
  } else if (size === 4) {
    if (Number.isFinite(v) && Math.abs(v) > 3.4028234663852886e38)
      throw new ValueError(path, `${v} is out of range for float`);
    view.setFloat32(offset, v, true);
  } else view.setFloat64(offset, v, true);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}
