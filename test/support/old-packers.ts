// The packers before the target registry (amdhsa, amd-cl2 and r600 each decoded its own plan), kept
// only so test/pack-registry.test.ts can compare the one data-driven segment packer with them.
import type { AmdCl2Plan, AmdhsaPlan, OpenCLPlan, ValueLayout } from '../../src/abi/plan.js';
import type { R600Plan } from '../../src/targets/r600/lower.js';
import type { VulkanPlan } from '../../src/targets/vulkan/lower.js';
import { amdCl2ByAddress } from '../../src/targets/amd-cl2/by-address.js';
import { LaunchError, PackError, RuntimeInputError, ValueError } from '../../src/runtime/pack/errors.js';
import { HOP, type Writer, checkedInteger, codegenAllowed, emitWriter, writerFor } from '../../src/runtime/pack/compiled.js';
import { describe } from '../../src/runtime/pack/scalars.js';

export interface PackOptions {
  /** Use the interpreted writer even where code generation is allowed. */
  readonly interpreted?: boolean;
}

/** The launch geometry hidden and implicit arguments are filled from. */
export interface LaunchInfo {
  readonly global: readonly number[];
  readonly local?: readonly number[];
  readonly globalOffset?: readonly number[];
  /** Addresses for hidden pointers (printf buffer, default queue, ...), by value kind or setup-argument name. */
  readonly hidden?: Readonly<Record<string, bigint>>;
}

/** An image argument's description: what r600's implicit size/format arguments carry. */
export interface ImageDescription {
  readonly width: number;
  readonly height?: number;
  readonly depth?: number;
  /** cl_channel_order and cl_channel_type values (CL_RGBA = 0x10B5, CL_FLOAT = 0x10DE, ...). */
  readonly channelOrder: number;
  readonly channelType: number;
  /** The image's device address, where a kernarg segment holds it. */
  readonly address?: bigint;
}

type Args = Readonly<Record<string, unknown>>;

/** The named kernel of a plan; a missing one is the user's mistake, not an argument's. */
function kernelOf<K extends { readonly name: string }>(plan: { readonly kernels: readonly K[] }, kernel: string): K {
  const k = plan.kernels.find((x) => x.name === kernel);
  if (!k) throw new RuntimeInputError(`no kernel named '${kernel}' (have ${plan.kernels.map((x) => x.name).join(', ') || 'none'})`);
  return k;
}

const nameSets = new WeakMap<readonly string[], Set<string>>();

/** Every argument given once, none unknown; one pass over the given keys. */
function checkNames(kernel: string, names: readonly string[], args: Args): void {
  if (typeof args !== 'object' || args === null) throw new PackError(kernel, '(arguments)', `expected an object of arguments, got ${describe(args)}`);
  let set = nameSets.get(names);
  if (!set) nameSets.set(names, (set = new Set(names)));
  // Own properties only: a key such as `__proto__` or an inherited one never supplies an argument.
  for (const k of Object.keys(args)) if (!set.has(k)) throw new PackError(kernel, k, `'${kernel}' has no argument '${k}' (it takes ${names.join(', ') || 'none'})`);
  for (const n of names) if (!Object.hasOwn(args, n)) throw new PackError(kernel, n, 'missing');
}

function write(kernel: string, w: Writer, view: DataView, offset: number, name: string, v: unknown): void {
  try {
    w(view, offset, v, name);
  } catch (e) {
    if (e instanceof ValueError) throw new PackError(kernel, e.path, e.problem);
    throw e;
  }
}

function address(kernel: string, name: string, v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'object' && v !== null && 'address' in v && typeof (v as { address: unknown }).address === 'bigint') return (v as { address: bigint }).address;
  throw new PackError(kernel, name, `expected a device address (bigint) or an object with one, got ${describe(v)}`);
}

/** A hidden pointer's address from `launch.hidden` (own keys only), 0 when not given. */
function hiddenValue(kernel: string, launch: LaunchInfo, key: string): bigint {
  const h = launch.hidden;
  if (!h || !Object.hasOwn(h, key)) return 0n;
  const v = h[key];
  if (typeof v !== 'bigint' || v < 0n || v > 0xffffffffffffffffn) throw new PackError(kernel, key, `a hidden address takes a bigint from 0 to 2^64-1, got ${describe(v)}`);
  return v;
}

// ---- opencl: the clSetKernelArg list ---------------------------------------------------

export type SetArg =
  | { readonly index: number; readonly kind: 'value'; readonly size: number; readonly bytes: Uint8Array }
  | { readonly index: number; readonly kind: 'local'; size: number }
  | { readonly index: number; readonly kind: 'buffer' | 'image' | 'sampler' | 'queue' | 'pipe'; readonly size: number; handle: unknown };

export interface OpenCLPacker {
  readonly kernel: string;
  readonly names: readonly string[];
  /** The clSetKernelArg calls to make; the same objects every call (nothing is allocated). */
  pack(args: Args): readonly SetArg[];
}

export function openclPacker(plan: OpenCLPlan, kernel: string, options: PackOptions = {}): OpenCLPacker {
  const k = kernelOf(plan, kernel);
  const names = k.args.map((a) => a.name);
  const out: SetArg[] = [];
  const steps: ((args: Args) => void)[] = [];
  for (const a of k.args) {
    if (a.kind === 'value') {
      const bytes = new Uint8Array(a.size!);
      const view = new DataView(bytes.buffer);
      const w = writerFor(a.layout as ValueLayout, !options.interpreted);
      out.push({ index: a.index, kind: 'value', size: a.size!, bytes });
      steps.push((args) => write(kernel, w, view, 0, a.name, args[a.name]));
    } else if (a.kind === 'local') {
      const slot: { index: number; kind: 'local'; size: number } = { index: a.index, kind: 'local', size: 0 };
      out.push(slot);
      steps.push((args) => {
        const v = args[a.name] as { local?: unknown } | undefined;
        const bytes = typeof v === 'object' && v !== null && Object.hasOwn(v, 'local') ? v.local : undefined;
        if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes <= 0) throw new PackError(kernel, a.name, `a local argument takes {local: <bytes>} with a positive byte count, got ${describe(v)}`);
        slot.size = bytes;
      });
    } else {
      const slot: { index: number; kind: typeof a.kind; size: number; handle: unknown } = { index: a.index, kind: a.kind, size: a.size!, handle: undefined };
      out.push(slot as SetArg);
      steps.push((args) => {
        const v = args[a.name];
        if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) throw new PackError(kernel, a.name, `a ${a.kind} argument takes a ${a.kind} object, got ${describe(v)}`);
        slot.handle = v;
      });
    }
  }
  const slow = (args: Args): readonly SetArg[] => {
    checkNames(kernel, names, args);
    for (const s of steps) s(args);
    return out;
  };
  if (options.interpreted || !codegenAllowed()) return { kernel, names, pack: slow };
  return { kernel, names, pack: compileKernelPacker(k.args, out, slow) };
}

/**
 * One straight-line function for a whole kernel: the argument names checked with a switch,
 * every value written at constant offsets, handles and local sizes stored in place. Anything
 * unexpected falls back to `slow`, which writes it or throws the precise error.
 */
function compileKernelPacker(args: OpenCLPlan['kernels'][number]['args'], out: SetArg[], slow: (a: Args) => readonly SetArg[]): (a: Args) => readonly SetArg[] {
  const lines: string[] = [];
  const counter = { n: 0 };
  const views: DataView[] = [];
  // Only JSON.stringify'd names and checked integers reach the generated source.
  const n = (x: unknown) => checkedInteger(x, 'an argument index or count');
  lines.push('if (typeof args !== "object" || args === null) return slow(args);');
  if (args.length === 0) lines.push('for (const k in args) return slow(args);', 'fast: {');
  else {
    // `for in` also walks inherited enumerable keys: each counted key must be the object's own.
    lines.push('let count = 0;', 'for (const k in args) {', '  if (!HOP.call(args, k)) return slow(args);', '  switch (k) {');
    for (const a of args) lines.push(`    case ${JSON.stringify(a.name)}:`);
    lines.push('      count++; break;', '    default: return slow(args);', '  }', '}', `if (count !== ${n(args.length)}) return slow(args);`, 'fast: {');
  }
  args.forEach((a, i) => {
    const v = `a${i}`;
    lines.push(`const ${v} = args[${JSON.stringify(a.name)}];`);
    if (a.kind === 'value') {
      views.push(new DataView((out[i] as { bytes: Uint8Array }).bytes.buffer));
      emitWriter(a.layout as ValueLayout, `views[${n(views.length - 1)}]`, '0', v, lines, counter);
    } else if (a.kind === 'local') {
      lines.push(`if (typeof ${v} !== 'object' || ${v} === null || !Object.hasOwn(${v}, 'local') || !Number.isSafeInteger(${v}.local) || ${v}.local <= 0) break fast;`, `out[${n(i)}].size = ${v}.local;`);
    } else {
      lines.push(`if (typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})) break fast;`, `out[${n(i)}].handle = ${v};`);
    }
  });
  lines.push('return out;', '}', 'return slow(args);');
  const make = new Function('out', 'views', 'slow', 'HOP', `return function pack(args) {\n${lines.join('\n')}\n};`);
  return make(out, views, slow, HOP) as (a: Args) => readonly SetArg[];
}

// ---- kernarg segments: amdhsa, amd-cl2, r600 -------------------------------------------

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
  const sizes = (v: unknown, min: number) => Array.isArray(v) && v.length === g.length && v.every((x) => Number.isSafeInteger(x) && x >= min && x <= 0xffffffff);
  if (!Array.isArray(g) || g.length < 1 || g.length > 3 || !sizes(g, 1)) throw new LaunchError(kernel, 'the global size must be 1 to 3 whole numbers from 1 to 2^32-1');
  if (l.local !== undefined && !sizes(l.local, 1)) throw new LaunchError(kernel, `the local size must be ${g.length} whole number${g.length > 1 ? 's' : ''} from 1 to 2^32-1, like the global size`);
  if (l.globalOffset !== undefined && !sizes(l.globalOffset, 0)) throw new LaunchError(kernel, `the global offset must be ${g.length} whole number${g.length > 1 ? 's' : ''} from 0 to 2^32-1, like the global size`);
  const pad = (v: readonly number[] | undefined, d: number): [number, number, number] => [v?.[0] ?? d, v?.[1] ?? d, v?.[2] ?? d];
  return { dims: g.length, global: pad(g, 1), local: pad(l.local, 1), offset: pad(l.globalOffset, 0) };
}

function segment(kernel: string, size: number, names: readonly string[], steps: ((view: DataView, args: Args, g: Geometry, launch: LaunchInfo) => void)[]): SegmentPacker {
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

const u32 = (view: DataView, o: number, v: number) => view.setUint32(o, v >>> 0, true);
const u16 = (view: DataView, o: number, v: number) => view.setUint16(o, v & 0xffff, true);
const u64 = (view: DataView, o: number, v: bigint | number) => view.setBigUint64(o, BigInt(v), true);

export function amdhsaPacker(plan: AmdhsaPlan, kernel: string, options: PackOptions = {}): SegmentPacker {
  const k = kernelOf(plan, kernel);
  const explicit = k.args.filter((a) => a.param !== null);
  const steps: ((view: DataView, args: Args, g: Geometry, launch: LaunchInfo) => void)[] = [];
  for (const a of k.args) {
    const o = a.offset;
    if (a.param !== null) {
      if (a.valueKind === 'by_value') {
        const w = writerFor(a.layout as ValueLayout, !options.interpreted);
        steps.push((view, args) => write(kernel, w, view, o, a.name, args[a.name]));
      } else if (a.valueKind === 'dynamic_shared_pointer') {
        // The LDS offset of this argument's block; the runtime places dynamic LDS, here it is the given number.
        steps.push((view, args) => {
          const v = (args[a.name] as { offset?: unknown } | undefined)?.offset ?? 0;
          if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new PackError(kernel, a.name, 'a local argument takes {local: bytes, offset?: LDS offset}');
          u32(view, o, v);
        });
      } else steps.push((view, args) => u64(view, o, address(kernel, a.name, args[a.name])));
      continue;
    }
    const kind = a.valueKind;
    const axis = Math.max(0, 'xyz'.indexOf(kind.slice(-1)));
    if (kind.startsWith('hidden_global_offset')) steps.push((view, _, g) => u64(view, o, g.offset[axis]));
    else if (kind.startsWith('hidden_block_count')) steps.push((view, _, g) => u32(view, o, Math.ceil(g.global[axis] / g.local[axis])));
    else if (kind.startsWith('hidden_group_size')) steps.push((view, _, g) => u16(view, o, g.local[axis]));
    else if (kind.startsWith('hidden_remainder')) steps.push((view, _, g) => u16(view, o, g.global[axis] % g.local[axis]));
    else if (kind === 'hidden_grid_dims') steps.push((view, _, g) => u16(view, o, g.dims));
    else if (kind === 'hidden_dynamic_lds_size') {
      // The dynamic LDS bytes of the dispatch: the sum of the local arguments' sizes.
      const locals = explicit.filter((x) => x.valueKind === 'dynamic_shared_pointer').map((x) => x.name);
      steps.push((view, args) => {
        let bytes = 0;
        for (const n of locals) {
          const v = (args[n] as { local?: unknown } | undefined)?.local ?? 0;
          if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new PackError(kernel, n, 'a local argument takes {local: bytes, offset?: LDS offset}');
          bytes += v;
        }
        u32(view, o, bytes);
      });
    } else if (kind !== 'hidden_none') steps.push((view, _, __, launch) => u64(view, o, hiddenValue(kernel, launch, kind)));
  }
  return segment(kernel, k.kernargSegmentSize, explicit.map((a) => a.name), steps);
}

export function amdCl2Packer(plan: AmdCl2Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  const k = kernelOf(plan, kernel);
  const P = plan.bits / 8;
  const ptr = (view: DataView, o: number, v: bigint) => {
    if (P === 8) u64(view, o, v);
    else {
      if (v > 0xffffffffn) throw new PackError(kernel, '(address)', `address ${v} does not fit 32 bits`);
      u32(view, o, Number(v));
    }
  };
  const steps: ((view: DataView, args: Args, g: Geometry, launch: LaunchInfo) => void)[] = [];
  for (const a of k.args) {
    const o = a.offset;
    if (a.param === null) {
      const axis = Number(a.name.slice(-1));
      if (a.name.startsWith('_.global_offset')) steps.push((view, _, g) => ptr(view, o, BigInt(g.offset[axis])));
      else steps.push((view, _, __, launch) => ptr(view, o, hiddenValue(kernel, launch, a.name)));
      continue;
    }
    if (amdCl2ByAddress(a.argType)) {
      steps.push((view, args) => ptr(view, o, address(kernel, a.name, args[a.name])));
    } else {
      const w = writerFor(a.layout as ValueLayout, !options.interpreted);
      steps.push((view, args) => write(kernel, w, view, o, a.name, args[a.name]));
    }
  }
  return segment(kernel, k.kernargSize, k.args.filter((a) => a.param !== null).map((a) => a.name), steps);
}

export function r600Packer(plan: R600Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  const k = kernelOf(plan, kernel);
  const steps: ((view: DataView, args: Args, g: Geometry, launch: LaunchInfo) => void)[] = [];
  const image = (args: Args, name: string): ImageDescription => {
    const v = args[name] as ImageDescription | undefined;
    const u32ok = (x: unknown, optional = false) => (optional && x === undefined) || (Number.isSafeInteger(x) && (x as number) >= 0 && (x as number) <= 0xffffffff);
    if (typeof v !== 'object' || v === null || !u32ok(v.width) || !u32ok(v.height, true) || !u32ok(v.depth, true) || !u32ok(v.channelOrder) || !u32ok(v.channelType)) {
      throw new PackError(kernel, name, 'an image takes {width, height?, depth?, channelOrder, channelType, address?}');
    }
    return v;
  };
  for (const a of k.args) {
    const o = a.offset;
    if (a.role === 'image-size') steps.push((view, args) => {
      const im = image(args, a.image!);
      u32(view, o, im.width);
      u32(view, o + 4, im.height ?? 1);
      u32(view, o + 8, im.depth ?? 1);
    });
    else if (a.role === 'image-format') steps.push((view, args) => {
      const im = image(args, a.image!);
      u32(view, o, im.channelType);
      u32(view, o + 4, im.channelOrder);
    });
    else if (a.name === 'grid_dimension' && a.param === null) steps.push((view, _, g) => u32(view, o, g.dims));
    else if (a.name === 'grid_offset' && a.param === null) steps.push((view, _, g) => g.offset.forEach((x, i) => u32(view, o + 4 * i, x)));
    else if (a.role === 'image') steps.push((view, args) => u32(view, o, Number(image(args, a.name).address ?? 0n)));
    else if (a.layout) {
      const w = writerFor(a.layout, !options.interpreted);
      steps.push((view, args) => write(kernel, w, view, o, a.name, args[a.name]));
    } else steps.push((view, args) => {
      const addr = address(kernel, a.name, args[a.name]);
      if (addr > 0xffffffffn) throw new PackError(kernel, a.name, `address ${addr} does not fit r600's 32-bit pointers`);
      u32(view, o, Number(addr));
    });
  }
  return segment(kernel, k.inputSize, k.args.filter((a) => a.param !== null && a.role !== 'image-size' && a.role !== 'image-format').map((a) => a.name), steps);
}

// ---- vulkan: the POD block and the descriptors to bind ----------------------------------

export interface VulkanBinding {
  readonly set: number;
  readonly binding: number;
  readonly argKind: string;
  value: unknown;
}

export interface VulkanPacked {
  /** The POD storage/uniform buffer contents (or the push-constant block). */
  readonly pod: Uint8Array;
  readonly podPlacement: string;
  readonly descriptors: readonly VulkanBinding[];
  /** Local arguments: spec id → number of array elements. */
  readonly specConstants: Map<number, number>;
}

export function vulkanPacker(plan: VulkanPlan, kernel: string, options: PackOptions = {}): { names: readonly string[]; pack(args: Args): VulkanPacked } {
  const k = kernelOf(plan, kernel);
  const names = k.args.map((a) => a.name);
  const pod = new Uint8Array(k.podSize);
  const view = new DataView(pod.buffer);
  const descriptors: VulkanBinding[] = [];
  const specConstants = new Map<number, number>();
  const steps: ((args: Args) => void)[] = [];
  for (const a of k.args) {
    if (a.argKind === 'local') {
      steps.push((args) => {
        const v = (args[a.name] as { local?: unknown } | undefined)?.local;
        if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0 || v % a.arrayElemSize! !== 0) {
          throw new PackError(kernel, a.name, `a local argument takes {local: <bytes>}, a positive multiple of its element size ${a.arrayElemSize}`);
        }
        specConstants.set(a.specId!, v / a.arrayElemSize!);
      });
    } else if (a.argKind === 'pointer_pushconstant' || a.argKind === 'pointer_ubo') {
      // --physical-storage-buffers: the buffer's device address, 8 bytes in the POD block.
      steps.push((args) => u64(view, a.offset!, address(kernel, a.name, args[a.name])));
    } else if (a.argKind.startsWith('pod')) {
      const w = writerFor(a.layout as ValueLayout, !options.interpreted);
      const podBindings = new Set(k.args.filter((x) => x.argKind.startsWith('pod')).map((x) => x.binding));
      if (podBindings.size > 1) {
        // Unclustered: each POD is its own buffer, bound at its own binding.
        const own = new Uint8Array(a.argSize!);
        const ownView = new DataView(own.buffer);
        descriptors.push({ set: a.descriptorSet!, binding: a.binding!, argKind: a.argKind, value: own });
        steps.push((args) => write(kernel, w, ownView, 0, a.name, args[a.name]));
      } else steps.push((args) => write(kernel, w, view, a.offset!, a.name, args[a.name]));
    } else {
      const d: VulkanBinding = { set: a.descriptorSet!, binding: a.binding!, argKind: a.argKind, value: undefined };
      descriptors.push(d);
      steps.push((args) => {
        const v = args[a.name];
        if (v === null || v === undefined || typeof v !== 'object') throw new PackError(kernel, a.name, `a ${a.argKind} argument takes a resource object, got ${describe(v)}`);
        d.value = v;
      });
    }
  }
  const result: VulkanPacked = { pod, podPlacement: k.podPlacement, descriptors, specConstants };
  return {
    names,
    pack(args) {
      checkNames(kernel, names, args);
      pod.fill(0);
      for (const s of steps) s(args);
      return result;
    },
  };
}

