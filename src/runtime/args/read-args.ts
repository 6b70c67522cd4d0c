import { CHANNEL_ORDERS, CHANNEL_TYPES } from '../../abi/image-formats.js';
import type { OpenCLKernelPlan, OpenCLSlot, ValueLayout } from '../../abi/plan.js';
import { canonical } from '../../types/types.js';
import { PackError, ValueError } from '../../pack/errors.js';
import { writeInterpreted } from '../../pack/interpreted.js';
import { didYouMean } from '../../text/closest-name.js';
import { ArgProblems } from './arg-problems.js';
import { type HostArray, type HostLimits, ELEMENT_TYPES, bigEntry, describeJson, hostArray } from './host-data.js';

/**
 * What `kernarg run --args` holds for one OpenCL C argument, checked against the plan: a value
 * (64-bit integers as bigints), a buffer's host data, a local size, an image or a sampler.
 */
export type ArgInput =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'buffer'; readonly element: string; readonly data: HostArray }
  | { readonly kind: 'local'; readonly bytes: number }
  | { readonly kind: 'image'; readonly image: ImageInput }
  | { readonly kind: 'sampler'; readonly sampler: SamplerInput };

export interface ImageInput {
  readonly dims: 1 | 2 | 3;
  readonly width: number;
  readonly height: number;
  readonly depth: number;
  readonly channelOrder: number;
  readonly channelType: number;
  /** Host pixels, channel by channel; zeros when the JSON gives none. */
  readonly data: HostArray;
}

export interface SamplerInput {
  readonly normalized: boolean;
  /** CL_ADDRESS_NONE 0x1130, CLAMP_TO_EDGE 0x1131, CLAMP 0x1132, REPEAT 0x1133, MIRRORED_REPEAT 0x1134. */
  readonly addressing: number;
  /** CL_FILTER_NEAREST 0x1140, CL_FILTER_LINEAR 0x1141. */
  readonly filter: number;
}

const ADDRESSING = new Map([
  ['none', 0x1130],
  ['clamp_to_edge', 0x1131],
  ['clamp', 0x1132],
  ['repeat', 0x1133],
  ['mirrored_repeat', 0x1134],
]);
const FILTERS = new Map([
  ['nearest', 0x1140],
  ['linear', 0x1141],
]);

/** Channels per pixel of each channel order kernarg run accepts, and the host element of each channel type. */
const CHANNELS = new Map([
  ['R', 1],
  ['A', 1],
  ['RG', 2],
  ['RA', 2],
  ['RGB', 3],
  ['RGBA', 4],
  ['BGRA', 4],
  ['ARGB', 4],
  ['INTENSITY', 1],
  ['LUMINANCE', 1],
]);
const CHANNEL_ELEMENTS = new Map([
  ['SNORM_INT8', 'char'],
  ['SNORM_INT16', 'short'],
  ['UNORM_INT8', 'uchar'],
  ['UNORM_INT16', 'ushort'],
  ['SIGNED_INT8', 'char'],
  ['SIGNED_INT16', 'short'],
  ['SIGNED_INT32', 'int'],
  ['UNSIGNED_INT8', 'uchar'],
  ['UNSIGNED_INT16', 'ushort'],
  ['UNSIGNED_INT32', 'uint'],
  ['HALF_FLOAT', 'ushort'],
  ['FLOAT', 'float'],
]);
const IMAGE_DIMS = new Map<string, 1 | 2 | 3>([
  ['image1d_t', 1],
  ['image2d_t', 2],
  ['image3d_t', 3],
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/** Refuses keys an object form does not take (so a misspelt "sizee" is not silently ignored), every one of them. */
function onlyKeys(kernel: string, path: string, o: Record<string, unknown>, allowed: readonly string[]): void {
  const problems = new ArgProblems();
  for (const k of Object.keys(o))
    if (!allowed.includes(k))
      problems.add(
        new PackError(
          kernel,
          `${path}.${k}`,
          `unexpected key '${k}' (this form takes ${allowed.join(', ')})${didYouMean(k, allowed)}`,
        ),
      );
  problems.throwIfAny();
}

/**
 * Reads the `--args` JSON of an OpenCL C kernel against its plan. Keys are own properties only
 * (`{"__proto__": …}` is an unknown argument, never a prototype); every argument is present once.
 * Every argument is checked, values as the packer will write them: all the mistakes found are
 * thrown together (an ArgsError, up to ARG_PROBLEM_LIMIT of them).
 */
export function readOpenCLArgs(json: unknown, plan: OpenCLKernelPlan, limits: HostLimits): Map<string, ArgInput> {
  const kernel = plan.name;
  if (!isObject(json))
    throw new PackError(
      kernel,
      '(arguments)',
      `the arguments file must hold an object mapping parameter names to values, got ${describeJson(json)}`,
    );
  const names = plan.args.map((a) => a.name);
  const problems = new ArgProblems();
  for (const k of Object.keys(json))
    if (!names.includes(k))
      problems.add(
        new PackError(
          kernel,
          k,
          `'${kernel}' has no argument '${k}' (it takes ${names.join(', ') || 'none'})${didYouMean(
            k,
            names.filter((n) => !Object.hasOwn(json, n)),
          )}`,
        ),
      );
  const out = new Map<string, ArgInput>();
  for (const slot of plan.args) {
    if (problems.full) break;
    if (!Object.hasOwn(json, slot.name)) {
      problems.add(new PackError(kernel, slot.name, 'missing'));
      continue;
    }
    const arg = problems.check(() => readArg(kernel, slot, json[slot.name], limits));
    if (arg) out.set(slot.name, arg);
  }
  problems.throwIfAny();
  return out;
}

/** The largest value written once while reading (every device's parameter space is far smaller). */
const TRIAL_WRITE_BYTES = 1 << 20;

function readArg(kernel: string, slot: OpenCLSlot, v: unknown, limits: HostLimits): ArgInput {
  const path = slot.name;
  switch (slot.kind) {
    case 'value': {
      const value = slot.layout ? jsonValue(kernel, path, slot.layout, v) : v;
      // Written once here into scratch bytes, as the packer will write it: a value's mistake is
      // found with the others, before anything is built or launched. A value past any device's
      // parameter space is left to the launch, which refuses its size.
      if (slot.layout && slot.layout.size <= TRIAL_WRITE_BYTES) {
        try {
          writeInterpreted(new DataView(new ArrayBuffer(slot.layout.size)), 0, slot.layout, value, path);
        } catch (e) {
          if (e instanceof ValueError) throw new PackError(kernel, e.path, e.problem);
          throw e;
        }
      }
      return { kind: 'value', value };
    }
    case 'buffer': {
      if (!isObject(v) || !Object.hasOwn(v, 'buffer'))
        throw new PackError(
          kernel,
          path,
          `a ${slot.addressSpace ?? 'global'} pointer takes {"buffer": "<element type>", "data": [...]} or " +
            "{"buffer": "<element type>", "size": <elements>}, got ${describeJson(v)}`,
        );
      onlyKeys(kernel, path, v, ['buffer', 'data', 'size']);
      const element = v.buffer;
      if (typeof element !== 'string' || !ELEMENT_TYPES.has(element))
        throw new PackError(
          kernel,
          `${path}.buffer`,
          `unknown element type ${describeJson(element)} (use ${[...ELEMENT_TYPES.keys()].join(', ')})`,
        );
      checkPointee(kernel, path, slot, element);
      return {
        kind: 'buffer',
        element,
        data: hostArray(kernel, path, element, own(v, 'data'), own(v, 'size'), limits),
      };
    }
    case 'local': {
      if (!isObject(v) || !Object.hasOwn(v, 'local'))
        throw new PackError(kernel, path, `a local pointer takes {"local": <bytes>}, got ${describeJson(v)}`);
      onlyKeys(kernel, path, v, ['local']);
      const bytes = v.local;
      if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes <= 0)
        throw new PackError(
          kernel,
          path,
          `{"local": N} takes a positive whole number of bytes, got ${describeJson(bytes)}`,
        );
      return { kind: 'local', bytes };
    }
    case 'image':
      return { kind: 'image', image: readImage(kernel, path, slot, v, limits) };
    case 'sampler':
      return { kind: 'sampler', sampler: readSampler(kernel, path, v) };
    case 'queue':
    case 'pipe':
      throw new PackError(
        kernel,
        path,
        `kernarg run cannot make a ${slot.kind} argument (launch the kernel from the library with one of your own)`,
      );
  }
}

/**
 * The pointee of a buffer argument decides the element type the JSON must name: the scalar (or a
 * vector's element, an enum's underlying type); any element for structs, unions and void.
 */
function checkPointee(kernel: string, path: string, slot: OpenCLSlot, element: string): void {
  if (!slot.type) return;
  const p = canonical(slot.type).type;
  if (p.kind !== 'pointer') return;
  const t = canonical(p.pointee).type;
  let want: string | undefined;
  if (t.kind === 'scalar') want = t.name === 'void' ? undefined : t.name === 'half' ? 'ushort' : t.name;
  else if (t.kind === 'vector') want = t.element === 'half' ? 'ushort' : t.element;
  else if (t.kind === 'enum') want = t.decl.underlying;
  if (want === undefined) return;
  const info = ELEMENT_TYPES.get(element)!;
  if (['size_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t'].includes(want)) {
    if (info.kind === 'int' && info.bytes === 8) return;
    want = 'ulong';
  }
  if (info.c !== want && element !== want) {
    const half =
      want === 'ushort' && (t.kind === 'scalar' ? t.name === 'half' : t.kind === 'vector' && t.element === 'half')
        ? ' (half data travels as its 16-bit patterns)'
        : '';
    throw new PackError(
      kernel,
      `${path}.buffer`,
      `a ${element} buffer for ${slot.typeName}: the kernel reads ${want}${half}`,
    );
  }
}

/**
 * A value argument's JSON: digit strings become bigints where the layout holds a 64-bit integer; the packer checks the
 * rest.
 */
export function jsonValue(kernel: string, path: string, l: ValueLayout, v: unknown): unknown {
  switch (l.kind) {
    case 'scalar': {
      const wide = (l.encoding === 'int' || l.encoding === 'uint') && l.size === 8;
      return wide && (typeof v === 'string' || typeof v === 'number')
        ? bigEntry(kernel, path, v, { signed: l.encoding === 'int' }, l.scalar)
        : v;
    }
    case 'vector': {
      if (!Array.isArray(v) || !(l.encoding === 'int' || l.encoding === 'uint') || l.elementSize !== 8) return v;
      const s = { signed: l.encoding === 'int' };
      return v.map((x, i) =>
        typeof x === 'string' || typeof x === 'number' ? bigEntry(kernel, `${path}[${i}]`, x, s, l.element) : x,
      );
    }
    case 'array':
      return Array.isArray(v) ? v.map((x, i) => jsonValue(kernel, `${path}[${i}]`, l.element, x)) : v;
    case 'record': {
      if (!isObject(v)) return v;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        const f = l.fields.find((x) => x.name === k);
        // defineProperty: a field spelt `__proto__` stays a field.
        Object.defineProperty(out, k, {
          value: f ? jsonValue(kernel, `${path}.${k}`, f.layout, v[k]) : v[k],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
}

const positive = (kernel: string, path: string, x: unknown): number => {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x <= 0)
    throw new PackError(kernel, path, `expected a positive whole number, got ${describeJson(x)}`);
  return x;
};

function enumName(
  kernel: string,
  path: string,
  x: unknown,
  table: readonly { readonly name: string; readonly value: number }[],
  allowed: ReadonlyMap<string, unknown>,
): { value: number; key: string } {
  const key = typeof x === 'string' ? x.replace(/^CL_/, '') : '';
  const e = allowed.has(key) ? table.find((t) => t.name === `CL_${key}`) : undefined;
  if (!e)
    throw new PackError(
      kernel,
      path,
      `expected one of ${[...allowed.keys()].join(', ')}, ` +
        `got ${describeJson(x)}${typeof x === 'string' ? didYouMean(key, allowed.keys()) : ''}`,
    );
  return { value: e.value, key };
}

function readImage(kernel: string, path: string, slot: OpenCLSlot, v: unknown, limits: HostLimits): ImageInput {
  const form =
    '{"image": {"width": w, "height"?: h, "depth"?: d, "channelOrder": "RGBA", "channelType": "FLOAT", "data"?: ' +
    '[...]}}';
  if (!isObject(v) || !isObject(own(v, 'image')))
    throw new PackError(kernel, path, `an image takes ${form}, got ${describeJson(v)}`);
  onlyKeys(kernel, path, v, ['image']);
  const o = v.image as Record<string, unknown>;
  const at = `${path}.image`;
  onlyKeys(kernel, at, o, ['width', 'height', 'depth', 'channelOrder', 'channelType', 'data']);
  const imageName = slot.type ? canonical(slot.type).type : undefined;
  const dims = imageName?.kind === 'image' ? IMAGE_DIMS.get(imageName.name) : IMAGE_DIMS.get(slot.typeName);
  if (!dims)
    throw new PackError(
      kernel,
      path,
      `kernarg run makes image1d_t, image2d_t and image3d_t arguments, not ${slot.typeName}`,
    );
  const width = positive(kernel, `${at}.width`, own(o, 'width'));
  const height = dims >= 2 ? positive(kernel, `${at}.height`, own(o, 'height')) : 1;
  const depth = dims === 3 ? positive(kernel, `${at}.depth`, own(o, 'depth')) : 1;
  if (dims < 2 && own(o, 'height') !== undefined)
    throw new PackError(kernel, `${at}.height`, `${slot.typeName} has no height`);
  if (dims < 3 && own(o, 'depth') !== undefined)
    throw new PackError(kernel, `${at}.depth`, `${slot.typeName} has no depth`);
  const order = enumName(kernel, `${at}.channelOrder`, own(o, 'channelOrder'), CHANNEL_ORDERS, CHANNELS);
  const type = enumName(kernel, `${at}.channelType`, own(o, 'channelType'), CHANNEL_TYPES, CHANNEL_ELEMENTS);
  const channels = CHANNELS.get(order.key)!;
  const element = CHANNEL_ELEMENTS.get(type.key)!;
  const count = width * height * depth * channels;
  const data = own(o, 'data');
  if (data !== undefined && (!Array.isArray(data) || data.length !== count)) {
    throw new PackError(
      kernel,
      `${at}.data`,
      `a ${[width, height, depth].slice(0, dims).join('×')} ${order.key} image takes ${count} ${element} values, ` +
        `got ${describeJson(data)}`,
    );
  }
  const pixels = hostArray(kernel, at, element, data, data === undefined ? count : undefined, limits);
  return { dims, width, height, depth, channelOrder: order.value, channelType: type.value, data: pixels };
}

function readSampler(kernel: string, path: string, v: unknown): SamplerInput {
  const form = '{"sampler": {"normalized"?: false, "addressing"?: "clamp_to_edge", "filter"?: "nearest"}}';
  if (!isObject(v) || !isObject(own(v, 'sampler')))
    throw new PackError(kernel, path, `a sampler takes ${form}, got ${describeJson(v)}`);
  onlyKeys(kernel, path, v, ['sampler']);
  const o = v.sampler as Record<string, unknown>;
  const at = `${path}.sampler`;
  onlyKeys(kernel, at, o, ['normalized', 'addressing', 'filter']);
  const normalized = own(o, 'normalized') ?? false;
  if (typeof normalized !== 'boolean')
    throw new PackError(kernel, `${at}.normalized`, `expected true or false, got ${describeJson(normalized)}`);
  const a = own(o, 'addressing') ?? 'clamp_to_edge';
  const f = own(o, 'filter') ?? 'nearest';
  const addressing = typeof a === 'string' ? ADDRESSING.get(a) : undefined;
  if (addressing === undefined)
    throw new PackError(
      kernel,
      `${at}.addressing`,
      `expected one of ${[...ADDRESSING.keys()].join(', ')}, ` +
        `got ${describeJson(a)}${typeof a === 'string' ? didYouMean(a, ADDRESSING.keys()) : ''}`,
    );
  const filter = typeof f === 'string' ? FILTERS.get(f) : undefined;
  if (filter === undefined)
    throw new PackError(
      kernel,
      `${at}.filter`,
      `expected one of ${[...FILTERS.keys()].join(', ')}, ` +
        `got ${describeJson(f)}${typeof f === 'string' ? didYouMean(f, FILTERS.keys()) : ''}`,
    );
  return { normalized, addressing, filter };
}
