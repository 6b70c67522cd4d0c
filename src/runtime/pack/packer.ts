import type { OpenCLPlan, ValueLayout } from '../../abi/plan.js';
import type { VulkanPlan } from '../../targets/vulkan/lower.js';
import { PackError } from './errors.js';
import { HOP, checkedInteger, codegenAllowed, emitWriter, writerFor } from './compiled.js';
import { type Args, type PackOptions, address, checkNames, kernelOf, writeValue } from './launch.js';
import { describe } from './scalars.js';

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
      steps.push((args) => writeValue(kernel, w, view, 0, a.name, args[a.name]));
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

const u64 = (view: DataView, o: number, v: bigint | number) => view.setBigUint64(o, BigInt(v), true);

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
        steps.push((args) => writeValue(kernel, w, ownView, 0, a.name, args[a.name]));
      } else steps.push((args) => writeValue(kernel, w, view, a.offset!, a.name, args[a.name]));
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

