// A shader block's values to and from its bytes, by the member layout the SPIR-V states (Offset,
// ArrayStride, MatrixStride: std140, std430 or scalar, whichever the compiler used). A block's
// value is an object of its members; a vector, matrix (its columns) or array is a list; a
// runtime-sized last member takes a list of any length, or {"size": n} for n zeroed elements,
// and sizes the buffer. JSON's spellings are taken too: 64-bit integers as digit strings, floats
// as "NaN", "Infinity", "-Infinity"; a GLSL bool member (a uint in SPIR-V) takes true and false.
import type { ValueLayout } from '../../layout/value-layout.js';
import { isInteger } from '../../layout/encoding.js';
import { halfValue } from '../../layout/half.js';
import { PackError, ValueError } from '../../pack/errors.js';
import { writeInterpreted } from '../../pack/interpreted.js';
import { describe } from '../../pack/scalars.js';

type Record_ = Extract<ValueLayout, { kind: 'record' }>;
type Field = Record_['fields'][number];

const DIGITS = /^-?[0-9]{1,20}$/;
const NON_FINITE: Readonly<Record<string, number>> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

/** The block's runtime-sized last member (an array of length 0 in the layout), if it has one. */
export function runtimeMember(l: ValueLayout): Field | undefined {
  if (l.kind !== 'record' || l.fields.length === 0) return undefined;
  const last = l.fields[l.fields.length - 1];
  return last.layout.kind === 'array' && last.layout.length === 0 ? last : undefined;
}

/**
 * A value with JSON's spellings turned into what the packer writes (bigints, non-finite numbers); anything else
 * unchanged.
 */
export function fromJson(l: ValueLayout, v: unknown): unknown {
  switch (l.kind) {
    case 'scalar':
      // GLSL's bool in a block is a 32-bit uint in SPIR-V: true and false stand for 1 and 0.
      if (typeof v === 'boolean' && isInteger(l.encoding)) return v ? 1 : 0;
      if (typeof v !== 'string') return v;
      if (isInteger(l.encoding)) return l.size === 8 && DIGITS.test(v) ? BigInt(v) : v;
      return Object.hasOwn(NON_FINITE, v) ? NON_FINITE[v] : v;
    case 'vector':
      return Array.isArray(v)
        ? v.map((x) =>
            fromJson(
              { kind: 'scalar', scalar: l.element, encoding: l.encoding, size: l.elementSize, align: l.elementSize },
              x,
            ),
          )
        : v;
    case 'array':
      return Array.isArray(v) ? v.map((x) => fromJson(l.element, x)) : v;
    case 'record': {
      if (typeof v !== 'object' || v === null || Array.isArray(v) || ArrayBuffer.isView(v)) return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const f = l.fields.find((f) => f.name === k);
        out[k] = f ? fromJson(f.layout, x) : x;
      }
      return out;
    }
  }
}

/** How many elements a runtime-sized member's value gives: a list's length, or {"size": n}. */
function runtimeLength(kernel: string, path: string, v: unknown): { length: number; data: unknown } {
  if (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView)))
    return { length: (v as ArrayLike<unknown>).length, data: v };
  if (typeof v === 'object' && v !== null && Object.keys(v).length === 1 && Object.hasOwn(v, 'size')) {
    const n = (v as { size: unknown }).size;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return { length: n, data: undefined };
  }
  throw new PackError(
    kernel,
    path,
    `a runtime-sized array takes a list of its elements or {"size": <elements>}, got ${describe(v)}`,
  );
}

/** The layout with its runtime-sized last member given `length` elements (the block's size grows to hold them). */
export function sizedLayout(l: ValueLayout, length: number): ValueLayout {
  const last = runtimeMember(l);
  if (!last || l.kind !== 'record' || last.layout.kind !== 'array') return l;
  const array = { ...last.layout, length, size: last.layout.stride * length };
  return {
    ...l,
    size: Math.max(l.size, last.offset + array.size),
    fields: [...l.fields.slice(0, -1), { ...last, layout: array }],
  };
}

/**
 * A block's bytes from its value (JSON or JS); every mistake a PackError naming the path inside the
 * argument. `partial`: members may be left out and stay zero (a storage block that is an output);
 * otherwise every member is given once, as in a struct value.
 */
export function blockBytes(
  kernel: string,
  name: string,
  layout: ValueLayout,
  value: unknown,
  maxBytes: number,
  partial = false,
): { bytes: Uint8Array; layout: ValueLayout } {
  const v = fromJson(layout, value);
  if (layout.kind !== 'record')
    throw new PackError(kernel, name, `a block is a struct of members; this one's layout is a ${layout.kind}`);
  if (typeof v !== 'object' || v === null || Array.isArray(v) || ArrayBuffer.isView(v))
    throw new PackError(
      kernel,
      name,
      `expected an object of ${layout.typeName || 'the block'}'s members ` +
        `(${layout.fields.map((f) => f.name).join(', ')}), got ${describe(v)}`,
    );
  const obj = v as Record<string, unknown>;
  for (const k of Object.keys(obj))
    if (!layout.fields.some((f) => f.name === k))
      throw new PackError(
        kernel,
        `${name}.${k}`,
        `${layout.typeName || 'the block'} has no member '${k}' (it ` +
          `has ${layout.fields.map((f) => f.name).join(', ')})`,
      );
  let sized = layout;
  let runtimeData: unknown;
  const last = runtimeMember(layout);
  if (last && Object.hasOwn(obj, last.name!)) {
    const { length, data } = runtimeLength(kernel, `${name}.${last.name}`, obj[last.name!]);
    sized = sizedLayout(layout, length) as typeof layout;
    if (sized.size > maxBytes)
      throw new PackError(
        kernel,
        `${name}.${last.name}`,
        `${length} elements make a ${sized.size}-byte buffer, more than the ${maxBytes} bytes allowed here`,
      );
    runtimeData = data;
  }
  const bytes = new Uint8Array(Math.max(sized.size, 4));
  const view = new DataView(bytes.buffer);
  try {
    for (const f of sized.fields) {
      if (f.name === null) continue;
      const path = `${name}.${f.name}`;
      if (!Object.hasOwn(obj, f.name)) {
        // A runtime-sized member left out has no elements.
        if (partial || f.name === last?.name) continue;
        throw new PackError(
          kernel,
          path,
          `missing member '${f.name}' of ${layout.typeName || 'the block'} (every member of a uniform or ` +
            `push-constant block is given; a storage block's may be left out, zeroed)`,
        );
      }
      const member = f.name === last?.name ? runtimeData : obj[f.name];
      // {"size": n}: the elements stay zero, as the buffer starts.
      if (member !== undefined) writeInterpreted(view, f.offset, f.layout, member, path);
    }
  } catch (e) {
    if (e instanceof ValueError) throw new PackError(kernel, e.path, e.problem);
    throw e;
  }
  return { bytes, layout: sized };
}

/**
 * A value read back from bytes, as JSON: 64-bit integers past 2^53 as digit strings, non-finite floats as
 * "NaN"/"Infinity", bools as booleans.
 */
export function blockValue(l: ValueLayout, view: DataView, offset: number): unknown {
  switch (l.kind) {
    case 'scalar':
      return scalarValue(l.encoding, l.size, view, offset);
    case 'vector':
      return Array.from({ length: l.length }, (_, i) =>
        scalarValue(l.encoding, l.elementSize, view, offset + i * l.elementSize),
      );
    case 'array':
      return Array.from({ length: l.length }, (_, i) => blockValue(l.element, view, offset + i * l.stride));
    case 'record': {
      const out: Record<string, unknown> = {};
      for (const f of l.fields) if (f.name !== null) out[f.name] = blockValue(f.layout, view, offset + f.offset);
      return out;
    }
  }
}

function scalarValue(
  encoding: Extract<ValueLayout, { kind: 'scalar' }>['encoding'],
  size: number,
  view: DataView,
  o: number,
): unknown {
  const finite = (x: number) => (Number.isFinite(x) ? x : String(x));
  const wide = (x: bigint) =>
    x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x.toString();
  switch (encoding) {
    case 'bool':
      return (size === 1 ? view.getUint8(o) : size === 2 ? view.getUint16(o, true) : view.getUint32(o, true)) !== 0;
    case 'int':
      return size === 1
        ? view.getInt8(o)
        : size === 2
          ? view.getInt16(o, true)
          : size === 4
            ? view.getInt32(o, true)
            : wide(view.getBigInt64(o, true));
    case 'uint':
      return size === 1
        ? view.getUint8(o)
        : size === 2
          ? view.getUint16(o, true)
          : size === 4
            ? view.getUint32(o, true)
            : wide(view.getBigUint64(o, true));
    case 'half':
      return finite(halfValue(view.getUint16(o, true)));
    case 'float':
      return finite(size === 4 ? view.getFloat32(o, true) : view.getFloat64(o, true));
  }
}
