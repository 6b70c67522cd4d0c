// The value writers before value layouts carried encodings (they read C scalar names), kept only as
// the oracle of test/pack-registry.test.ts through test/support/old-packers.ts.
import { halfBits } from '../../../src/layout/half.js';
import { ValueError } from '../../../src/runtime/pack/errors.js';

export interface ScalarInfo {
  readonly size: number;
  readonly kind: 'int' | 'float';
  readonly signed: boolean;
}

export const SCALAR_INFO: Record<string, ScalarInfo> = {
  bool: { size: 1, kind: 'int', signed: false },
  char: { size: 1, kind: 'int', signed: true },
  uchar: { size: 1, kind: 'int', signed: false },
  short: { size: 2, kind: 'int', signed: true },
  ushort: { size: 2, kind: 'int', signed: false },
  int: { size: 4, kind: 'int', signed: true },
  uint: { size: 4, kind: 'int', signed: false },
  long: { size: 8, kind: 'int', signed: true },
  ulong: { size: 8, kind: 'int', signed: false },
  half: { size: 2, kind: 'float', signed: true },
  float: { size: 4, kind: 'float', signed: true },
  double: { size: 8, kind: 'float', signed: true },
  handle: { size: 8, kind: 'int', signed: false },
};

/** Scalars named by the frontend's size_t family, by the layout's size. */
export function scalarInfo(name: string, size: number): ScalarInfo {
  const info = Object.hasOwn(SCALAR_INFO, name) ? SCALAR_INFO[name] : undefined;
  if (info) return info.size === size || name === 'handle' ? { ...info, size } : info;
  // size_t, ptrdiff_t, intptr_t, uintptr_t
  return { size, kind: 'int', signed: name === 'ptrdiff_t' || name === 'intptr_t' };
}

export function intRange(size: number, signed: boolean): [bigint, bigint] {
  const bits = BigInt(size * 8);
  return signed ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
}

/** Writes one integer, refusing values outside the type's range (nothing is truncated). */
export function writeInt(view: DataView, offset: number, v: unknown, size: number, signed: boolean, type: string, path: string): void {
  let n: bigint;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new ValueError(path, `${v} is not an integer (type ${type})`);
    const [lo, hi] = intRange(size, signed);
    if (BigInt(v) < lo || BigInt(v) > hi) throw new ValueError(path, `${v} is out of range for ${type} (${lo}..${hi})`);
    if (!Number.isSafeInteger(v)) throw new ValueError(path, `${v} is beyond 2^53: pass a bigint for exact 64-bit values`);
    n = BigInt(v);
  } else if (typeof v === 'boolean' && type === 'bool') n = v ? 1n : 0n;
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

export function writeFloat(view: DataView, offset: number, v: unknown, size: number, type: string, path: string): void {
  if (typeof v !== 'number') throw new ValueError(path, `expected a number for ${type}, got ${describe(v)}`);
  if (size === 4) {
    if (Number.isFinite(v) && Math.abs(v) > 3.4028234663852886e38) throw new ValueError(path, `${v} is out of range for float`);
    view.setFloat32(offset, v, true);
  } else if (size === 8) view.setFloat64(offset, v, true);
  else {
    if (Number.isFinite(v) && Math.abs(v) >= 65520) throw new ValueError(path, `${v} is out of range for half`);
    view.setUint16(offset, halfBits(v), true);
  }
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}
