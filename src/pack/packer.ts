// The one packer: it reads a kernel's placed slots (where each lives, how it is filled) and writes
// the argument segment, the list of arguments set by index, the push-constant block, the descriptor bindings
// and the spec constants they describe. It knows no target; each target record's `pack` (plan-packing.ts) describes its
// own.
import { assertNever } from '../assert-never.js';
import type { ValueLayout } from '../layout/value-layout.js';
import { codegenAllowed, writerFor } from './compiled.js';
import { compileArgList, compileNameCheck, listOnly } from './compiled-list.js';
import { PackError } from './errors.js';
import { GEOMETRY, type Geometry, newGeometry, readGeometry } from './geometry.js';
import {
  type Args,
  type ImageDescription,
  type LaunchInfo,
  type PackOptions,
  address,
  checkNames,
  hiddenValue,
  writeValue,
} from './launch.js';
import type { Descriptor, Packed, SetArg } from './packed.js';
import type { Overflow, PackLayout, PlacedSlot } from './placement.js';
import { describe } from './scalars.js';

export type { Descriptor, Packed, SetArg };

export interface Packer {
  readonly kernel: string;
  readonly names: readonly string[];
  pack(args: Args, launch: LaunchInfo): Packed;
}

type Step = (args: Args, g: Geometry, launch: LaunchInfo) => void;

const u16 = (view: DataView, o: number, v: number) => view.setUint16(o, v & 0xffff, true);
const u32 = (view: DataView, o: number, v: number) => view.setUint32(o, v >>> 0, true);
/** A number goes in as two 32-bit halves, so no BigInt is made per call. */
const u64 = (view: DataView, o: number, v: bigint | number) => {
  if (typeof v === 'bigint') view.setBigUint64(o, v, true);
  else {
    view.setUint32(o, v >>> 0, true);
    view.setUint32(o + 4, Math.floor(v / 4294967296) >>> 0, true);
  }
};

/** Little-endian writers by width: a slot picks its own once, when the packer is made. */
const PUT: Readonly<Record<2 | 4 | 8, (view: DataView, o: number, v: number | bigint) => void>> = {
  2: (view, o, v) => u16(view, o, Number(v)),
  4: (view, o, v) => u32(view, o, Number(v)),
  8: (view, o, v) => u64(view, o, v),
};

/** The value, or the overflow's error where it does not fit its 4 bytes. */
function checked<T extends number | bigint>(kernel: string, v: T, bytes: 2 | 4 | 8, overflow: Overflow | undefined): T {
  if (overflow && bytes === 4 && (typeof v === 'number' ? v > 0xffffffff : v > 0xffffffffn))
    throw new PackError(kernel, overflow.path, `address ${v} ${overflow.text}`);
  return v;
}

/** A 32-bit field's value: a whole number from 0 to 2^32-1 (absent, where optional). */
const u32ok = (x: unknown, optional = false): boolean =>
  (optional && x === undefined) || (Number.isSafeInteger(x) && (x as number) >= 0 && (x as number) <= 0xffffffff);

/** The `local` byte count of a local argument's `{local}`, own property only; undefined where there is none. */
function localBytes(v: unknown): unknown {
  return typeof v === 'object' && v !== null && Object.hasOwn(v, 'local') ? (v as { local: unknown }).local : undefined;
}

/** The bytes each slot's fill writes into, found once: a view and the offset in it. */
class Destinations {
  readonly segment: Uint8Array;
  readonly pushConstants: Uint8Array;
  readonly args: SetArg[] = [];
  readonly descriptors: Descriptor[] = [];
  readonly specConstants = new Map<number, number>();
  /** Byte blocks refilled from zero every call (the segment, push constants, descriptor buffers). */
  readonly zeroed: Uint8Array[] = [];
  private readonly segmentView: DataView;
  private readonly pushView: DataView;

  constructor(layout: PackLayout) {
    this.segment = new Uint8Array(layout.segmentSize);
    this.pushConstants = new Uint8Array(layout.pushConstantSize);
    this.segmentView = new DataView(this.segment.buffer);
    this.pushView = new DataView(this.pushConstants.buffer);
    if (layout.segmentSize) this.zeroed.push(this.segment);
    if (layout.pushConstantSize) this.zeroed.push(this.pushConstants);
  }

  /** The view and offset where a byte fill of this slot goes. */
  bytes(s: PlacedSlot): [DataView, number] {
    const w = s.where;
    switch (w.kind) {
      case 'segment':
        return [this.segmentView, w.offset];
      case 'push-constant':
        return [this.pushView, w.offset];
      case 'arg-index': {
        const bytes = new Uint8Array(w.size);
        this.args.push({ index: w.index, kind: 'value', size: w.size, bytes });
        return [new DataView(bytes.buffer), 0];
      }
      case 'descriptor': {
        let d = this.descriptors.find((x) => x.set === w.set && x.binding === w.binding);
        if (!d) {
          d = { set: w.set, binding: w.binding, kind: 'bytes', value: new Uint8Array(w.bytes) };
          this.descriptors.push(d);
          this.zeroed.push(d.value);
        }
        if (d.kind !== 'bytes') throw new TypeError(`binding ${w.set}:${w.binding} holds both a resource and bytes`);
        return [new DataView(d.value.buffer), w.offset];
      }
      case 'spec-constant':
        throw new TypeError(`spec constant ${w.id} holds no bytes`);
      case 'ir-param':
      case 'unplaced':
        throw new TypeError(`a ${w.kind} slot holds no bytes`);
      default:
        return assertNever(w);
    }
  }
}

/**
 * The bytes a value's writer touches: a 3-element vector writes 3 elements (its size is that of 4), a record its
 * fields.
 */
function writtenBytes(l: ValueLayout): number {
  switch (l.kind) {
    case 'scalar':
      return l.size;
    case 'vector':
      return l.length * l.elementSize;
    case 'array':
      return l.length > 0 ? (l.length - 1) * l.stride + writtenBytes(l.element) : 0;
    case 'record':
      return l.fields.reduce((end, fl) => Math.max(end, fl.offset + writtenBytes(fl.layout)), 0);
    default:
      return assertNever(l);
  }
}

function stepFor(kernel: string, s: PlacedSlot, out: Destinations, options: PackOptions): Step {
  const f = s.fill;
  if (s.where.kind === 'ir-param' || f.kind === 'ir-value') {
    throw new PackError(
      kernel,
      'param' in f ? f.param : f.kind,
      'an IR parameter: its plan describes an IR signature, not bytes or bindings a host sets (pack the plan of the ' +
        'target that runs it)',
    );
  }
  /**
   * The view and offset a fill of `width` bytes writes, refused when the plan puts it outside its
   * block (a plan read from JSON may say anything: a binding moved out of its POD cluster, an offset
   * past the segment), so no write can fall outside the bytes the packer owns.
   */
  const place = (width: number): [DataView, number] => {
    const [view, o] = out.bytes(s);
    if (!Number.isSafeInteger(o) || o < 0 || o + width > view.byteLength) {
      const who =
        'param' in f
          ? f.param
          : 'image' in f
            ? f.image
            : 'params' in f
              ? (f.params[0] ?? '')
              : 'key' in f
                ? f.key
                : f.kind;
      throw new PackError(
        kernel,
        who,
        `the plan places ${width} bytes at offset ${o} of a ${view.byteLength}-byte ${s.where.kind} block`,
      );
    }
    return [view, o];
  };
  const image = (args: Args, name: string): ImageDescription => {
    const v = args[name] as ImageDescription | undefined;
    if (
      typeof v !== 'object' ||
      v === null ||
      !u32ok(v.width) ||
      !u32ok(v.height, true) ||
      !u32ok(v.depth, true) ||
      !u32ok(v.channelOrder) ||
      !u32ok(v.channelType)
    ) {
      throw new PackError(kernel, name, 'an image takes {width, height?, depth?, channelOrder, channelType, address?}');
    }
    return v;
  };
  switch (f.kind) {
    case 'value': {
      const w = writerFor(f.layout, !options.interpreted);
      const [view, o] = place(writtenBytes(f.layout));
      return (args) => writeValue(kernel, w, view, o, f.param, args[f.param]);
    }
    case 'address': {
      const [view, o] = place(f.bytes);
      const w = PUT[f.bytes];
      return (args) => w(view, o, checked(kernel, address(kernel, f.param, args[f.param]), f.bytes, f.overflow));
    }
    case 'handle': {
      const w = s.where;
      const { param, resource } = f;
      const refuse = (v: unknown) =>
        new PackError(
          kernel,
          param,
          `a ${resource} argument takes a ${w.kind === 'arg-index' ? resource : 'resource'} object, got ${describe(v)}`,
        );
      if (w.kind === 'arg-index') {
        const slot: SetArg & { kind: 'handle' } = {
          index: w.index,
          kind: 'handle',
          resource,
          size: w.size,
          handle: undefined,
        };
        out.args.push(slot);
        return (args) => {
          const v = args[param];
          if (typeof v !== 'object' || v === null || Array.isArray(v)) throw refuse(v);
          slot.handle = v;
        };
      }
      if (w.kind !== 'descriptor') throw new TypeError(`a resource cannot live in a ${w.kind}`);
      const d: Descriptor & { kind: 'handle' } = {
        set: w.set,
        binding: w.binding,
        kind: 'handle',
        resource,
        value: undefined,
      };
      out.descriptors.push(d);
      return (args) => {
        const v = args[param];
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw refuse(v);
        d.value = v;
      };
    }
    case 'local-bytes': {
      const w = s.where;
      const { param, elementSize } = f;
      if (w.kind === 'arg-index') {
        const slot: SetArg & { kind: 'local' } = { index: w.index, kind: 'local', size: 0 };
        out.args.push(slot);
        return (args) => {
          const v = args[param];
          const bytes = localBytes(v);
          if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes <= 0 || bytes % elementSize !== 0)
            throw new PackError(
              kernel,
              param,
              `a local argument takes {local: <bytes>} with a positive byte count, got ${describe(v)}`,
            );
          slot.size = bytes;
        };
      }
      if (w.kind !== 'spec-constant') throw new TypeError(`a local size cannot live in a ${w.kind}`);
      const { id } = w;
      const spec = out.specConstants;
      return (args) => {
        const bytes = localBytes(args[param]);
        if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes <= 0 || bytes % elementSize !== 0) {
          throw new PackError(
            kernel,
            param,
            `a local argument takes {local: <bytes>}, a positive multiple of its element size ${elementSize}`,
          );
        }
        spec.set(id, bytes / elementSize);
      };
    }
    case 'lds-offset': {
      const [view, o] = place(4);
      return (args) => {
        const v = (args[f.param] as { offset?: unknown } | undefined)?.offset ?? 0;
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
          throw new PackError(kernel, f.param, 'a local argument takes {local: bytes, offset?: LDS offset}');
        u32(view, o, v);
      };
    }
    case 'lds-size': {
      const [view, o] = place(4);
      return (args) => {
        let bytes = 0;
        for (const n of f.params) {
          const v = (args[n] as { local?: unknown } | undefined)?.local ?? 0;
          if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
            throw new PackError(kernel, n, 'a local argument takes {local: bytes, offset?: LDS offset}');
          bytes += v;
        }
        u32(view, o, bytes);
      };
    }
    case 'geometry': {
      const [view, o] = place(f.bytes * (f.axes ?? 1));
      const [w, get, axis, overflow] = [PUT[f.bytes], GEOMETRY[f.field], f.axis, f.overflow];
      if (f.axes === 3) {
        const b = f.bytes;
        return (_, g) => {
          w(view, o, checked(kernel, get(g, 0), b, overflow));
          w(view, o + b, checked(kernel, get(g, 1), b, overflow));
          w(view, o + 2 * b, checked(kernel, get(g, 2), b, overflow));
        };
      }
      if (!overflow) return (_, g) => w(view, o, get(g, axis));
      return (_, g) => w(view, o, checked(kernel, get(g, axis), f.bytes, overflow));
    }
    case 'image-size': {
      const [view, o] = place(12);
      return (args) => {
        const im = image(args, f.image);
        u32(view, o, im.width);
        u32(view, o + 4, im.height ?? 1);
        u32(view, o + 8, im.depth ?? 1);
      };
    }
    case 'image-format': {
      const [view, o] = place(8);
      return (args) => {
        const im = image(args, f.image);
        u32(view, o, im.channelType);
        u32(view, o + 4, im.channelOrder);
      };
    }
    case 'image-address': {
      const [view, o] = place(4);
      return (args) => u32(view, o, Number(image(args, f.image).address ?? 0n));
    }
    case 'hidden': {
      const [view, o] = place(f.bytes);
      const [w, key, overflow] = [PUT[f.bytes], f.key, f.overflow];
      if (!overflow) return (_, __, launch) => w(view, o, hiddenValue(kernel, launch, key));
      return (_, __, launch) => w(view, o, checked(kernel, hiddenValue(kernel, launch, key), f.bytes, overflow));
    }
    case 'zero':
      return () => {};
    default:
      return assertNever(f);
  }
}

/**
 * The packer of one kernel. Each call checks the names, reads the launch geometry where a slot
 * needs it, zeroes the byte blocks and runs one step per slot. A kernel whose slots are all
 * arguments set by index also gets one compiled straight-line function (compiled-list.ts) that
 * falls back to these steps for anything unusual.
 */
export function planPacker(layout: PackLayout, options: PackOptions = {}): Packer {
  const { kernel, names } = layout;
  const out = new Destinations(layout);
  const steps = layout.slots.map((s) => stepFor(kernel, s, out, options));
  const needsGeometry = layout.slots.some((s) => s.fill.kind === 'geometry');
  const { zeroed } = out;
  const g = newGeometry();
  const packed: Packed = {
    segment: out.segment,
    args: out.args,
    pushConstants: out.pushConstants,
    descriptors: out.descriptors,
    specConstants: out.specConstants,
  };
  const named = !options.interpreted && codegenAllowed() ? compileNameCheck(names) : undefined;
  const slow = (args: Args, launch: LaunchInfo): Packed => {
    if (!named?.(args)) checkNames(kernel, names, args);
    if (needsGeometry) readGeometry(kernel, launch, g);
    for (let i = 0; i < zeroed.length; i++) zeroed[i].fill(0);
    for (let i = 0; i < steps.length; i++) steps[i](args, g, launch);
    return packed;
  };
  if (options.interpreted || !codegenAllowed() || !listOnly(layout)) return { kernel, names, pack: slow };
  return { kernel, names, pack: compileArgList(layout, out.args, packed, slow) };
}
