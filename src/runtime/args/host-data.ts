import { PackError } from '../../pack/errors.js';
import { ArgProblems } from './arg-problems.js';

/** A typed array of one element type: what a buffer, memref or image is filled from and read back into. */
export type HostArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

interface ElementInfo {
  readonly bytes: number;
  readonly kind: 'int' | 'float';
  readonly signed: boolean;
  /** The OpenCL C scalar it is stored as. */
  readonly c: string;
  readonly make: (n: number) => HostArray;
}

const int = (bytes: number, signed: boolean, c: string, make: (n: number) => HostArray): ElementInfo => ({
  bytes,
  kind: 'int',
  signed,
  c,
  make,
});
const float = (bytes: number, c: string, make: (n: number) => HostArray): ElementInfo => ({
  bytes,
  kind: 'float',
  signed: true,
  c,
  make,
});

/** Element types by name: OpenCL C scalars and tinytc's. A Map, so no user string reaches Object.prototype. */
export const ELEMENT_TYPES: ReadonlyMap<string, ElementInfo> = new Map([
  ['char', int(1, true, 'char', (n) => new Int8Array(n))],
  ['uchar', int(1, false, 'uchar', (n) => new Uint8Array(n))],
  ['short', int(2, true, 'short', (n) => new Int16Array(n))],
  ['ushort', int(2, false, 'ushort', (n) => new Uint16Array(n))],
  ['int', int(4, true, 'int', (n) => new Int32Array(n))],
  ['uint', int(4, false, 'uint', (n) => new Uint32Array(n))],
  ['long', int(8, true, 'long', (n) => new BigInt64Array(n))],
  ['ulong', int(8, false, 'ulong', (n) => new BigUint64Array(n))],
  ['float', float(4, 'float', (n) => new Float32Array(n))],
  ['double', float(8, 'double', (n) => new Float64Array(n))],
  ['i8', int(1, true, 'char', (n) => new Int8Array(n))],
  ['i16', int(2, true, 'short', (n) => new Int16Array(n))],
  ['i32', int(4, true, 'int', (n) => new Int32Array(n))],
  ['i64', int(8, true, 'long', (n) => new BigInt64Array(n))],
  ['index', int(8, true, 'long', (n) => new BigInt64Array(n))],
  ['f32', float(4, 'float', (n) => new Float32Array(n))],
  ['f64', float(8, 'double', (n) => new Float64Array(n))],
]);

export function elementInfo(kernel: string, path: string, name: unknown): ElementInfo {
  const info = typeof name === 'string' ? ELEMENT_TYPES.get(name) : undefined;
  if (!info)
    throw new PackError(
      kernel,
      path,
      `unknown element type ${JSON.stringify(name) ?? String(name)} (use ${[...ELEMENT_TYPES.keys()].join(', ')})`,
    );
  return info;
}

const DIGITS = /^-?[0-9]+$/;

/** Limits on what the host allocates for one array. */
export interface HostLimits {
  /** Bytes the device allocates in one buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE). */
  readonly maxBytes: number;
  /** Elements one array may hold (kernarg run prints every one of them back). */
  readonly maxElements?: number;
}

/**
 * A typed array from JSON `data` (every entry checked: integers in range, 64-bit integers as
 * safe numbers or digit strings, floats as numbers or "NaN"/"Infinity"/"-Infinity") or a zeroed
 * one of `size` elements; exactly one of the two.
 */
export function hostArray(
  kernel: string,
  path: string,
  element: string,
  data: unknown,
  size: unknown,
  limits: HostLimits,
): HostArray {
  const info = elementInfo(kernel, path, element);
  if ((data === undefined) === (size === undefined))
    throw new PackError(kernel, path, 'give either "data": [...] or "size": <elements>, not both or neither');
  const count = data === undefined ? size : Array.isArray(data) ? data.length : undefined;
  if (count === undefined)
    throw new PackError(kernel, `${path}.data`, `"data" must be an array of ${element}, got ${describeJson(data)}`);
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count <= 0)
    throw new PackError(
      kernel,
      `${path}.${data === undefined ? 'size' : 'data'}`,
      data === undefined
        ? `"size" must be a positive whole number of elements, got ${describeJson(size)}`
        : '"data" must hold at least one element',
    );
  if (limits.maxElements !== undefined && count > limits.maxElements)
    throw new PackError(
      kernel,
      path,
      `${count} elements is more than ${limits.maxElements}, the most one array may hold here (kernarg run prints ` +
        `every element back)`,
    );
  if (count * info.bytes > limits.maxBytes)
    throw new PackError(
      kernel,
      path,
      `${count} ${element} elements (${count * info.bytes} bytes) is more than the device allocates in one buffer ` +
        `(${limits.maxBytes} bytes)`,
    );
  const out = info.make(count);
  if (data === undefined) return out;
  const list = data as unknown[];
  // Entry by entry, every refused one kept (up to the limit): a file with three bad entries is told all three.
  const wide = element64(info);
  let problems: ArgProblems | undefined;
  for (let i = 0; i < list.length; i++) {
    try {
      out[i] = wide
        ? bigEntry(kernel, `${path}.data[${i}]`, list[i], info, element)
        : (numberEntry(kernel, `${path}.data[${i}]`, list[i], info, element) as never);
    } catch (e) {
      (problems ??= new ArgProblems()).add(e);
      if (problems.full) break;
    }
  }
  problems?.throwIfAny();
  return out;
}

const element64 = (info: ElementInfo) => info.kind === 'int' && info.bytes === 8;

function numberEntry(kernel: string, path: string, x: unknown, info: ElementInfo, element: string): number {
  if (info.kind === 'float') {
    if (typeof x === 'number') {
      if (info.bytes === 4 && Math.abs(x) > 3.4028234663852886e38)
        throw new PackError(kernel, path, `${x} is out of range for ${element}`);
      return x;
    }
    if (x === 'NaN') return NaN;
    if (x === 'Infinity') return Infinity;
    if (x === '-Infinity') return -Infinity;
    throw new PackError(kernel, path, `expected a number for ${element}, got ${describeJson(x)}`);
  }
  if (typeof x !== 'number' || !Number.isInteger(x))
    throw new PackError(kernel, path, `expected an integer for ${element}, got ${describeJson(x)}`);
  const bits = info.bytes * 8;
  const lo = info.signed ? -(2 ** (bits - 1)) : 0;
  const hi = info.signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
  if (x < lo || x > hi) throw new PackError(kernel, path, `${x} is out of range for ${element} (${lo}..${hi})`);
  return x;
}

/** A 64-bit integer: a safe integer number, or a digit string for any value in range. */
export function bigEntry(
  kernel: string,
  path: string,
  x: unknown,
  info: { readonly signed: boolean },
  element: string,
): bigint {
  let v: bigint;
  if (typeof x === 'number' && Number.isSafeInteger(x)) v = BigInt(x);
  else if (typeof x === 'string' && DIGITS.test(x) && x.length <= 21) v = BigInt(x);
  else if (typeof x === 'number' && Number.isInteger(x))
    throw new PackError(
      kernel,
      path,
      `${x} is beyond 2^53 and may have been rounded: write 64-bit integers past 2^53 as digit strings ` +
        `("9007199254740993")`,
    );
  else
    throw new PackError(kernel, path, `expected an integer (or a digit string) for ${element}, got ${describeJson(x)}`);
  const lo = info.signed ? -(1n << 63n) : 0n;
  const hi = info.signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
  if (v < lo || v > hi) throw new PackError(kernel, path, `${v} is out of range for ${element} (${lo}..${hi})`);
  return v;
}

/** A JSON value in a few words, for messages. */
export function describeJson(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v} ${String(v)}`;
}

/** A typed array as JSON values: 64-bit integers past 2^53 as digit strings, non-finite floats as "NaN"/"Infinity". */
export function jsonValues(a: ArrayLike<number | bigint>): (number | string)[] {
  return Array.from(a, (x) => {
    if (typeof x === 'bigint')
      return x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x.toString();
    return Number.isFinite(x) ? x : String(x);
  });
}
