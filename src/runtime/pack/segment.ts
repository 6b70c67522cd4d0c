import type { ValueLayout } from '../../layout/value-layout.js';
import { writerFor } from './compiled.js';
import { PackError } from './errors.js';
import { type Args, type ImageDescription, type LaunchInfo, type PackOptions, address, checkNames, writeValue } from './launch.js';

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

function geometry(kernel: string, l: LaunchInfo): Geometry {
  const g = l.global;
  if (!Array.isArray(g) || g.length < 1 || g.length > 3 || g.some((x) => !Number.isSafeInteger(x) || x <= 0)) throw new PackError(kernel, '(launch)', 'global size must be 1 to 3 positive integers');
  const pad = (v: readonly number[] | undefined, d: number): [number, number, number] => [v?.[0] ?? d, v?.[1] ?? d, v?.[2] ?? d];
  return { dims: g.length, global: pad(g, 1), local: pad(l.local, 1), offset: pad(l.globalOffset, 0) };
}

const u16 = (view: DataView, o: number, v: number) => view.setUint16(o, v & 0xffff, true);
const u32 = (view: DataView, o: number, v: number) => view.setUint32(o, v >>> 0, true);
const u64 = (view: DataView, o: number, v: bigint | number) => view.setBigUint64(o, BigInt(v), true);

function put(view: DataView, o: number, bytes: 2 | 4 | 8, v: number | bigint): void {
  if (bytes === 8) u64(view, o, v);
  else if (bytes === 4) u32(view, o, Number(v));
  else u16(view, o, Number(v));
}

function geometryValue(g: Geometry, field: GeometryField, axis: 0 | 1 | 2): number {
  switch (field) {
    case 'global-offset':
      return g.offset[axis];
    case 'block-count':
      return Math.ceil(g.global[axis] / g.local[axis]);
    case 'group-size':
      return g.local[axis];
    case 'remainder':
      return g.global[axis] % g.local[axis];
    case 'grid-dims':
      return g.dims;
  }
}

/** The value, or the overflow's error where it does not fit its 4 bytes. */
function checked<T extends number | bigint>(kernel: string, v: T, bytes: 2 | 4 | 8, overflow: Overflow | undefined): T {
  if (overflow && bytes === 4 && BigInt(v) > 0xffffffffn) throw new PackError(kernel, overflow.path, `address ${v} ${overflow.text}`);
  return v;
}

type Step = (view: DataView, args: Args, g: Geometry, launch: LaunchInfo) => void;

/** The one kernarg-segment packer: it reads only the slots' offsets and fills. */
export function segmentPacker(layout: SegmentLayout, options: PackOptions = {}): SegmentPacker {
  const { kernel, size, names } = layout;
  const image = (args: Args, name: string): ImageDescription => {
    const v = args[name] as ImageDescription | undefined;
    if (typeof v !== 'object' || v === null || typeof v.width !== 'number' || typeof v.channelOrder !== 'number' || typeof v.channelType !== 'number') {
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
      case 'address':
        return (view, args) => {
          put(view, o, f.bytes, checked(kernel, address(kernel, f.param, args[f.param]), f.bytes, f.overflow));
        };
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
      case 'geometry':
        return (view, _, g) => put(view, o, f.bytes, checked(kernel, geometryValue(g, f.field, f.axis), f.bytes, f.overflow));
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
      case 'hidden':
        return (view, _, __, launch) => put(view, o, f.bytes, checked(kernel, launch.hidden?.[f.key] ?? 0n, f.bytes, f.overflow));
      case 'zero':
        return () => {};
    }
  });
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  return {
    kernel,
    names,
    size,
    pack(args, launch) {
      checkNames(kernel, names, args);
      const g = geometry(kernel, launch);
      bytes.fill(0);
      for (const s of steps) s(view, args, g, launch);
      return bytes;
    },
  };
}
