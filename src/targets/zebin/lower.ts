// The cross-thread payload of each kernel as IGC lays it out for a zebin: IGC sorts a kernel's
// arguments, explicit and implicit, into groups by kind (its KernelArgsOrder), keeps parameter
// order within a group, and gives each argument the next offset at its alignment, its size
// rounded up to 4 bytes. Images and samplers are binding-table entries, not payload bytes.
import { Messages } from '../../diagnostics/messages.js';
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { alignTo } from '../../layout/align.js';
import { SPIR64 } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import { classifyArg } from '../../model/arg-class.js';
import { type FunctionInfo, type KernelModule, type Parameter, kernelsOf } from '../../model/kernel-module.js';
import { KernelShapeMemo } from '../../abi/kernel-shape-memo.js';
import { someKernelMayReport } from '../../abi/may-report.js';
import { markSharedRun } from '../../abi/shared-runs.js';
import type { Bare } from '../../abi/plan.js';
import { type QualType, type Type, canonical } from '../../types/types.js';
import { DEVICE_FACTS, type DeviceFacts, type ZebinDevice } from './devices.js';
import { imageArgs, transformableImages, workItemArgs } from './implicit.js';
import type { ZebinKernelPlan, ZebinPlan, ZebinSlot } from './plan.js';
import { placeZebinKernel } from './placement.js';
import { GROUP_RANK, type Pending, explicitArgs, imageArg, workItemArg } from './payload-args.js';

export interface ZebinTargetOptions {
  /** The Intel GPU, as ocloc's `-device` names it (default pvc). */
  readonly device?: ZebinDevice;
  /**
   * Every kernel keeps private memory, so IGC passes `private_base_stateless` (kernarg cannot see it from the source).
   */
  readonly privateMemory?: boolean;
}

/** The bytes IGC reserves at the payload's start: global_id_offset and local_size, 12 bytes each, padded to 32. */
const PAYLOAD_HEADER = 32;

/** A struct or union, or a pointer whose pointee is one. */
function recordOrPointerToRecord(t: QualType): boolean {
  const c = canonical(t).type;
  return c.kind === 'record' || (c.kind === 'pointer' && canonical(c.pointee).type.kind === 'record');
}

/** Whether a type (through pointers, vectors, arrays and records) names `double`. */
function namesDouble(t: QualType | Type, seen = new Set<unknown>()): boolean {
  const c = canonical('kind' in t ? { type: t } : t).type;
  switch (c.kind) {
    case 'scalar':
      return c.name === 'double';
    case 'vector':
      return c.element === 'double';
    case 'pointer':
      return namesDouble(c.pointee, seen);
    case 'array':
      return namesDouble(c.element, seen);
    case 'record':
      if (seen.has(c.decl)) return false;
      seen.add(c.decl);
      return (c.decl.fields ?? []).some((f) => namesDouble(f.type, seen));
    default:
      return false;
  }
}

/**
 * Whether an image read's coordinate argument is integer or float, where its text says: a parameter's name or a cast.
 */
function coordKind(text: string, params: ReadonlyMap<string, Parameter>): 'int' | 'float' | undefined {
  const p = params.get(text);
  const element = (t: Type): string | undefined =>
    t.kind === 'vector' ? t.element : t.kind === 'scalar' ? t.name : undefined;
  const name = p ? element(canonical(p.type).type) : /^\( (\w+?)[234]? \)/.exec(text)?.[1];
  if (name === 'float' || name === 'half') return 'float';
  if (name === 'int' || name === 'uint') return 'int';
  return undefined;
}

/** IGC refuses a kernel whose arguments (by-value sizes, 8 bytes for every pointer, local ones included) pass 2 KiB. */
const ARGUMENT_BYTES_LIMIT = 2048;

function argumentBytes(k: FunctionInfo): number {
  return k.params.reduce((sum, p) => sum + argumentBytesOf(p), 0);
}

/** What one parameter counts towards IGC's 2 KiB: its by-value size, 8 for a pointer or handle. */
function argumentBytesOf(p: Parameter): number {
  return classifyArg(p.type).kind === 'pod' ? layoutOf(p.type, SPIR64).size : 8;
}

/**
 * Whether lowering some kernel can report (what a streamed lowering asks before it writes: `KernelwiseLowering.quiet`):
 * what ocloc refuses (a double on a device without fp64, an argument IGC has none for, over 2 KiB of arguments) is its
 * parameters' types' alone.
 */
export function zebinMayReport(module: KernelModule, device: ZebinDevice): boolean {
  return someKernelMayReport(
    kernelsOf(module),
    (p) => (refusedArgument(p, device) ? undefined : argumentBytesOf(p)),
    ARGUMENT_BYTES_LIMIT,
  );
}

/** Whether lowering `p` reports (lowerKernel's checks of one parameter): a double without fp64, an argument IGC has none for. */
function refusedArgument(p: Parameter, device: ZebinDevice): boolean {
  if (!DEVICE_FACTS[device].fp64 && namesDouble(p.type)) return true;
  const heard = new DiagnosticBag();
  explicitArgs(p, () => 0, false, heard);
  return heard.items.length > 0;
}

/**
 * The payload header's two slots, the same in every kernel: made once per lowering and shared (read-only, placed by
 * the first kernel), so the JSON emitter renders them once (its shared runs, src/emit/json.ts) where it wrote them
 * anew for each kernel whose arguments are its own, most kernels of real code.
 */
type PayloadHeader = readonly [Bare<ZebinSlot>, Bare<ZebinSlot>];
function payloadHeader(): PayloadHeader {
  return [
    {
      name: 'payload_header.global_id_offset',
      param: null,
      role: 'hidden',
      argType: 'global_id_offset',
      offset: 0,
      size: 12,
    },
    { name: 'payload_header.local_size', param: null, role: 'hidden', argType: 'local_size', offset: 12, size: 12 },
  ];
}

/** The payload of one kernel. */
function lowerKernel(
  module: KernelModule,
  k: FunctionInfo,
  device: ZebinDevice,
  diags: DiagnosticBag,
  privateMemory: boolean,
  header: PayloadHeader,
): ZebinKernelPlan {
  const bytes = argumentBytes(k);
  if (bytes > ARGUMENT_BYTES_LIMIT)
    diags.report(Messages.zebinArgumentsTooLarge, k.span, [k.name, bytes, ARGUMENT_BYTES_LIMIT]);
  let samplers = 0;
  const explicit: Pending[] = [];
  const implicit: Pending[] = [];
  // Made only for a kernel whose body calls an image builtin (most kernels call none).
  let byName: ReadonlyMap<string, Parameter> | undefined;
  const params = () => (byName ??= new Map(k.params.map((p) => [p.name, p])));
  let byValueRecord = privateMemory;
  const isImage3d = (name: string) => {
    const p = params().get(name);
    const c = p && classifyArg(p.type);
    return c?.kind === 'image' && c.shape.dims === 3;
  };
  const transformable = transformableImages(k, isImage3d, (text) => coordKind(text, params()));
  for (const p of k.params) {
    if (!DEVICE_FACTS[device].fp64 && namesDouble(p.type)) diags.report(Messages.zebinNoFp64, p.span, [p.name, device]);
    for (const a of explicitArgs(p, () => samplers++, transformable.has(p.name), diags))
      (a.size < 0 ? implicit : explicit).push(a);
    if (recordOrPointerToRecord(p.type)) byValueRecord = true;
  }
  // A struct or union by value (copied to private memory through its byval pointer) or a pointer
  // straight to one (in any address space; not to an array of them): IGC then passes the private
  // base, whatever the body does, as ocloc shows on empty kernels. Private arrays the body keeps in
  // memory need it too: kernarg cannot see which IGC keeps (--private-memory says they all do).
  if (byValueRecord) implicit.push(workItemArg('private_base_stateless'));
  for (const a of workItemArgs(module, k)) implicit.push(workItemArg(a));
  for (const [arg, names] of imageArgs(k, isImage3d)) {
    const wanted = k.params.filter(
      (p) => names.has(p.name) && classifyArg(p.type).kind === (arg === 'sampler_snap_wa' ? 'sampler' : 'image'),
    );
    for (const p of wanted) implicit.push(imageArg(arg, p));
  }
  // A stable sort by group (Array.prototype.sort is stable): explicit arguments before implicit ones within a group,
  // each in parameter order. Each group's rank is looked up once per argument, not twice per comparison.
  const all = explicit
    .concat(implicit)
    .map((a) => ({ a, rank: GROUP_RANK.get(a.group)! }))
    .sort((x, y) => x.rank - y.rank);
  const args: Bare<ZebinSlot>[] = [header[0], header[1]];
  let at = PAYLOAD_HEADER;
  const grf = DEVICE_FACTS[device].grfBytes;
  const alignment: DeviceFacts['alignment'] = DEVICE_FACTS[device].alignment;
  const base = alignment.registerOffset;
  const cap = alignment.cap ?? Infinity;
  for (const { a } of all) {
    if (a.size === 0) {
      args.push(a.make(0));
      continue;
    }
    // IGC aligns each argument as the device does (see DEVICE_FACTS' alignment); and starts one
    // that would straddle two registers (a 12-byte work-size vector) at the next register.
    let offset = alignTo(at + base, Math.min(a.align, cap)) - base;
    if (a.size > 0 && a.size <= grf && (offset % grf) + a.size > grf) offset = alignTo(offset, grf);
    const slot = a.make(a.size < 0 ? at : offset);
    args.push(slot);
    at = slot.offset + slot.size;
  }
  const buffers = DEVICE_FACTS[device].globalBuffer;
  const shaped =
    buffers === 'stateless'
      ? args
      : args.map((s) =>
          s.argType === 'arg_bypointer' && s.addrmode === 'stateless' && s.addrspace === 'global'
            ? withoutStateless(s)
            : s,
        );
  return placeZebinKernel({ name: k.name, args: shaped, payloadSize: at });
}

/**
 * A global buffer as TGL and DG2 pass it once promoted to a binding-table access: its address only, as
 * `buffer_address`.
 */
function withoutStateless(s: Bare<ZebinSlot>): Bare<ZebinSlot> {
  const { addrmode: _stateless, ...rest } = s;
  return { ...rest, argType: 'buffer_address' };
}

/** Every kernel's cross-thread payload for `device` (default pvc). */
export function lowerZebin(
  module: KernelModule,
  device: ZebinDevice,
  diags: DiagnosticBag,
  privateMemory = false,
): ZebinPlan {
  const { head, kernels } = zebinKernelwise(module, device, diags, privateMemory);
  return { ...head, kernels: Array.from({ [Symbol.iterator]: () => kernels(diags) }) };
}

/**
 * `lowerZebin` a kernel at a time: the module's records are checked first (reported to `diags`),
 * then each kernel's payload is its own; a kernel ocloc would refuse is reported to the `diags`
 * `kernels` is given.
 */
export function zebinKernelwise(
  module: KernelModule,
  device: ZebinDevice,
  diags: DiagnosticBag,
  privateMemory = false,
): { head: Omit<ZebinPlan, 'kernels'>; count: number; kernels: (diags: DiagnosticBag) => Iterator<ZebinKernelPlan> } {
  // Without cl_khr_fp64 ocloc refuses the file for any double, used by a kernel or not: struct fields too.
  if (!DEVICE_FACTS[device].fp64) {
    for (const r of module.records) {
      for (const f of r.fields ?? [])
        if (namesDouble(f.type, new Set([r])))
          diags.report(Messages.zebinNoFp64Field, f.span, [f.name ?? '(anonymous)', device]);
    }
  }
  const kernels = kernelsOf(module);
  const header = payloadHeader();
  markSharedRun(header[0]);
  return {
    head: { target: 'zebin', device, ...(privateMemory ? { privateMemory } : {}) },
    count: kernels.length,
    *kernels(diags) {
      const memo = new KernelShapeMemo<ZebinKernelPlan>(module);
      const make = (k: FunctionInfo) => lowerKernel(module, k, device, diags, privateMemory, header);
      for (const k of kernels) yield memo.plan(k, make, diags);
    },
  };
}
