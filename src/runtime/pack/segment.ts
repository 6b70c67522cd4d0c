import type { ValueLayout } from '../../layout/value-layout.js';
import { writerFor } from './compiled.js';
import { LaunchError, PackError } from './errors.js';
import { type Args, type ImageDescription, type LaunchInfo, type PackOptions, address, checkNames, hiddenValue, writeValue } from './launch.js';

/** A 4-byte slot that refuses wider values: the error's path and text (`address <v> <text>`); without one, wider values are cut to 32 bits. */
export interface Overflow {
  readonly path: string;
  readonly text: string;
}

/** A launch-geometry field, per axis: what hidden and implicit segment slots carry. */
export type GeometryField = 'global-offset' | 'block-count' | 'group-size' | 'remainder' | 'grid-dims';

/** How a segment slot's bytes are filled: from a parameter, the launch geometry, an image's description, a named hidden value, or zero. */
export type SegmentFill =
  | { readonly kind: 'value'; readonly param: string; readonly layout: ValueLayout }
  | { readonly kind: 'address'; readonly param: string; readonly bytes: 4 | 8; readonly overflow?: Overflow }
  /** The LDS offset of a local argument's block (`{local, offset?}`). */
  | { readonly kind: 'lds-offset'; readonly param: string }
  /** The dynamic LDS bytes of the dispatch: the sum of these local arguments' sizes. */
  | { readonly kind: 'lds-size'; readonly params: readonly string[] }
  | { readonly kind: 'geometry'; readonly field: GeometryField; readonly axis: 0 | 1 | 2; readonly bytes: 2 | 4 | 8; readonly overflow?: Overflow }
  /** An image's width, height and depth as three 32-bit words. */
  | { readonly kind: 'image-size'; readonly image: string }
  /** An image's channel data type and channel order as two 32-bit words. */
  | { readonly kind: 'image-format'; readonly image: string }
  /** An image's device address as one 32-bit word. */
  | { readonly kind: 'image-address'; readonly image: string }
  /** A value the runtime supplies by name (`LaunchInfo.hidden`), 0 when absent. */
  | { readonly kind: 'hidden'; readonly key: string; readonly bytes: 4 | 8; readonly overflow?: Overflow }
  | { readonly kind: 'zero' };

/** One slot of a kernarg segment: where it lives (its byte offset) and how it is filled. */
export interface SegmentSlot {
  readonly offset: number;
  readonly fill: SegmentFill;
}

/** A kernel's kernarg segment as the packer reads it: size, the argument names the caller gives, the slots. */
export interface SegmentLayout {
  readonly kernel: string;
  readonly size: number;
  readonly names: readonly string[];
  readonly slots: readonly SegmentSlot[];
}

export interface SegmentPacker {
  readonly kernel: string;
  readonly names: readonly string[];
  readonly size: number;
  /** The segment's bytes; the same buffer every call. */
  pack(args: Args, launch: LaunchInfo): Uint8Array;
}

interface Geometry {
  dims: number;
  global: [number, number, number];
  local: [number, number, number];
  offset: [number, number, number];
}

/** Whether `v` is `n` whole numbers from `min` to 2^32-1 (a loop: nothing is allocated). */
function sizes(v: unknown, n: number, min: number): boolean {
  if (!Array.isArray(v) || v.length !== n) return false;
  for (let i = 0; i < n; i++) if (!Number.isSafeInteger(v[i]) || v[i] < min || v[i] > 0xffffffff) return false;
  return true;
}

/** Checks the launch geometry and reads it into `g` (the packer's own, reused: nothing is allocated per call). */
function readGeometry(kernel: string, l: LaunchInfo, g: Geometry): void {
  const global = l.global;
  const n = Array.isArray(global) ? global.length : 0;
  if (n < 1 || n > 3 || !sizes(global, n, 1)) throw new LaunchError(kernel, 'the global size must be 1 to 3 whole numbers from 1 to 2^32-1');
  const s = n > 1 ? 's' : '';
  if (l.local !== undefined && !sizes(l.local, n, 1)) throw new LaunchError(kernel, `the local size must be ${n} whole number${s} from 1 to 2^32-1, like the global size`);
  if (l.globalOffset !== undefined && !sizes(l.globalOffset, n, 0)) throw new LaunchError(kernel, `the global offset must be ${n} whole number${s} from 0 to 2^32-1, like the global size`);
  g.dims = n;
  for (let i = 0; i < 3; i++) {
    g.global[i] = global[i] ?? 1;
    g.local[i] = l.local?.[i] ?? 1;
    g.offset[i] = l.globalOffset?.[i] ?? 0;
  }
}

const u16 = (view: DataView, o: number, v: number) => view.setUint16(o, v & 0xffff, true);
const u32 = (view: DataView, o: number, v: number) => view.setUint32(o, v >>> 0, true);
const u64 = (view: DataView, o: number, v: bigint | number) => view.setBigUint64(o, BigInt(v), true);

/** Little-endian writers by width: a slot picks its own once, when the packer is made. */
const PUT: Readonly<Record<2 | 4 | 8, (view: DataView, o: number, v: number | bigint) => void>> = {
  2: (view, o, v) => u16(view, o, Number(v)),
  4: (view, o, v) => u32(view, o, Number(v)),
  8: (view, o, v) => u64(view, o, v),
};

/** Each geometry field's value on an axis. */
const GEOMETRY: Readonly<Record<GeometryField, (g: Geometry, axis: 0 | 1 | 2) => number>> = {
  'global-offset': (g, axis) => g.offset[axis],
  'block-count': (g, axis) => Math.ceil(g.global[axis] / g.local[axis]),
  'group-size': (g, axis) => g.local[axis],
  remainder: (g, axis) => g.global[axis] % g.local[axis],
  'grid-dims': (g) => g.dims,
};

/** The value, or the overflow's error where it does not fit its 4 bytes. */
function checked<T extends number | bigint>(kernel: string, v: T, bytes: 2 | 4 | 8, overflow: Overflow | undefined): T {
  if (overflow && bytes === 4 && BigInt(v) > 0xffffffffn) throw new PackError(kernel, overflow.path, `address ${v} ${overflow.text}`);
  return v;
}

type Step = (view: DataView, args: Args, g: Geometry, launch: LaunchInfo) => void;

/** A 32-bit field's value: a whole number from 0 to 2^32-1 (absent, where optional). */
const u32ok = (x: unknown, optional = false): boolean => (optional && x === undefined) || (Number.isSafeInteger(x) && (x as number) >= 0 && (x as number) <= 0xffffffff);

/** The one kernarg-segment packer: it reads only the slots' offsets and fills. */
export function segmentPacker(layout: SegmentLayout, options: PackOptions = {}): SegmentPacker {
  const { kernel, size, names } = layout;
  const image = (args: Args, name: string): ImageDescription => {
    const v = args[name] as ImageDescription | undefined;
    if (typeof v !== 'object' || v === null || !u32ok(v.width) || !u32ok(v.height, true) || !u32ok(v.depth, true) || !u32ok(v.channelOrder) || !u32ok(v.channelType)) {
      throw new PackError(kernel, name, 'an image takes {width, height?, depth?, channelOrder, channelType, address?}');
    }
    return v;
  };
  const steps: Step[] = layout.slots.map(({ offset: o, fill: f }): Step => {
    switch (f.kind) {
      case 'value': {
        const w = writerFor(f.layout, !options.interpreted);
        return (view, args) => writeValue(kernel, w, view, o, f.param, args[f.param]);
      }
      case 'address': {
        const w = PUT[f.bytes];
        return (view, args) => w(view, o, checked(kernel, address(kernel, f.param, args[f.param]), f.bytes, f.overflow));
      }
      case 'lds-offset':
        return (view, args) => {
          const v = (args[f.param] as { offset?: unknown } | undefined)?.offset ?? 0;
          if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new PackError(kernel, f.param, 'a local argument takes {local: bytes, offset?: LDS offset}');
          u32(view, o, v);
        };
      case 'lds-size':
        return (view, args) => {
          let bytes = 0;
          for (const n of f.params) {
            const v = (args[n] as { local?: unknown } | undefined)?.local ?? 0;
            if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new PackError(kernel, n, 'a local argument takes {local: bytes, offset?: LDS offset}');
            bytes += v;
          }
          u32(view, o, bytes);
        };
      case 'geometry': {
        const [w, get, axis, overflow] = [PUT[f.bytes], GEOMETRY[f.field], f.axis, f.overflow];
        if (!overflow) return (view, _, g) => w(view, o, get(g, axis));
        return (view, _, g) => w(view, o, checked(kernel, get(g, axis), f.bytes, overflow));
      }
      case 'image-size':
        return (view, args) => {
          const im = image(args, f.image);
          u32(view, o, im.width);
          u32(view, o + 4, im.height ?? 1);
          u32(view, o + 8, im.depth ?? 1);
        };
      case 'image-format':
        return (view, args) => {
          const im = image(args, f.image);
          u32(view, o, im.channelType);
          u32(view, o + 4, im.channelOrder);
        };
      case 'image-address':
        return (view, args) => u32(view, o, Number(image(args, f.image).address ?? 0n));
      case 'hidden': {
        const [w, key, overflow] = [PUT[f.bytes], f.key, f.overflow];
        if (!overflow) return (view, _, __, launch) => w(view, o, hiddenValue(kernel, launch, key));
        return (view, _, __, launch) => w(view, o, checked(kernel, hiddenValue(kernel, launch, key), f.bytes, overflow));
      }
      case 'zero':
        return () => {};
    }
  });
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  const g: Geometry = { dims: 1, global: [1, 1, 1], local: [1, 1, 1], offset: [0, 0, 0] };
  return {
    kernel,
    names,
    size,
    pack(args, launch) {
      checkNames(kernel, names, args);
      readGeometry(kernel, launch, g);
      bytes.fill(0);
      for (const s of steps) s(view, args, g, launch);
      return bytes;
    },
  };
}
