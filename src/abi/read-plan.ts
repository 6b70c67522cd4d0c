import { CLSPV_REFLECTION } from '../emit/spirv/clspv-instructions.js';
import { scalarEncoding } from '../layout/encoding.js';
import { TRIPLES } from './llvm-kernel.js';
import type { ValueLayout } from './plan.js';
import type { AbiPlan } from '../targets/index.js';
import { type Check, PlanError, arrayOf, bool, ident, nat, nullable, object, oneOf, str, tuple } from './plan-schema.js';

export { PlanError } from './plan-schema.js';

/** Scalars a value layout may name, with their sizes (size_t and friends take the data layout's). */
const SCALAR_SIZES = new Map<string, readonly number[]>([
  ['bool', [1]], ['char', [1]], ['uchar', [1]], ['short', [2]], ['ushort', [2]], ['int', [4]], ['uint', [4]],
  ['long', [8]], ['ulong', [8]], ['half', [2]], ['float', [4]], ['double', [8]],
  ['size_t', [4, 8]], ['ptrdiff_t', [4, 8]], ['intptr_t', [4, 8]], ['uintptr_t', [4, 8]], ['handle', [4, 8]],
]);
const VECTOR_ELEMENTS = ['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'half', 'float', 'double'] as const;
const ROLES = ['value', 'data', 'local', 'image', 'sampler', 'queue', 'pipe', 'shape', 'stride', 'offset', 'image-size', 'image-format', 'setup', 'hidden'] as const;
const SPACES = ['global', 'constant', 'local'] as const;
const ACCESS = ['read_only', 'write_only', 'read_write'] as const;
const MAX_DEPTH = 64;

/**
 * The most bytes a plan may give an argument, a layout, an offset or a block: 16 MiB, thousands of
 * times what any device passes to a kernel (CL_DEVICE_MAX_PARAMETER_SIZE is a few KiB), so a
 * forged plan cannot make a packer allocate gigabytes.
 */
export const MAX_ARGUMENT_BYTES = 1 << 24;
const bytes = nat(0, MAX_ARGUMENT_BYTES);

/**
 * A value layout from its JSON form (`{kind: scalar, type}`, `vector`, `array`, `struct`/`union`
 * with fields), with every size checked against its parts, so a packer never writes past it.
 */
function layout(v: unknown, path: string, depth = 0): ValueLayout {
  if (depth > MAX_DEPTH) throw new PlanError(path, `layouts nest at most ${MAX_DEPTH} deep`);
  const kind = (v as { kind?: unknown } | null)?.kind;
  const sized = { size: bytes, align: nat(1, 1 << 16) };
  switch (kind) {
    case 'scalar': {
      const o = object({ kind: str(), type: oneOf([...SCALAR_SIZES.keys()]), ...sized })(v, path);
      if (!SCALAR_SIZES.get(o.type)!.includes(o.size)) throw new PlanError(`${path}.size`, `${o.type} is ${SCALAR_SIZES.get(o.type)!.join(' or ')} bytes, not ${o.size}`);
      return { kind: 'scalar', scalar: o.type, encoding: scalarEncoding(o.type), size: o.size, align: o.align };
    }
    case 'vector': {
      const o = object({ kind: str(), element: oneOf(VECTOR_ELEMENTS), length: oneOf([2, 3, 4, 8, 16]), ...sized })(v, path);
      const bytes = SCALAR_SIZES.get(o.element)![0] * o.length;
      if (o.size < bytes) throw new PlanError(`${path}.size`, `${o.length} × ${o.element} needs ${bytes} bytes, not ${o.size}`);
      return { kind: 'vector', element: o.element, encoding: scalarEncoding(o.element), elementSize: SCALAR_SIZES.get(o.element)![0], length: o.length, size: o.size, align: o.align };
    }
    case 'array': {
      const o = object({ kind: str(), element: (x, p) => layout(x, p, depth + 1), length: bytes, stride: bytes, ...sized })(v, path);
      if (o.stride < o.element.size || o.length * o.stride > o.size) throw new PlanError(path, `${o.length} elements of ${o.element.size} bytes at a stride of ${o.stride} do not fit ${o.size} bytes`);
      return { kind: 'array', element: o.element, length: o.length, stride: o.stride, size: o.size, align: o.align };
    }
    case 'struct':
    case 'union': {
      const field = object({ name: nullable(ident), offset: bytes, layout: (x, p) => layout(x, p, depth + 1) }, { bitOffset: nat(), bitWidth: nat(0, 64) });
      const o = object({ kind: str(), typeName: str(), fields: arrayOf(field, 1 << 16), ...sized })(v, path);
      const names = new Set<string>();
      o.fields.forEach((f, i) => {
        if (f.offset + f.layout.size > o.size) throw new PlanError(`${path}.fields[${i}]`, `'${f.name}' at ${f.offset} with ${f.layout.size} bytes passes the ${o.size} bytes of ${o.typeName}`);
        if (f.name !== null && names.has(f.name)) throw new PlanError(`${path}.fields[${i}].name`, `a second field '${f.name}'`);
        if (f.name !== null) names.add(f.name);
      });
      return { kind: 'record', tagKind: kind, typeName: o.typeName, size: o.size, align: o.align, fields: o.fields.map((f) => ({ name: f.name, offset: f.offset, layout: f.layout, ...(f.bitWidth !== undefined ? { bitOffset: f.bitOffset ?? 0, bitWidth: f.bitWidth } : {}) })) };
    }
    default:
      throw new PlanError(`${path}.kind`, `expected "scalar", "vector", "array", "struct" or "union", got ${JSON.stringify(kind) ?? 'nothing'}`);
  }
}

const layoutCheck: Check<ValueLayout> = (v, p) => layout(v, p);
const wg = tuple(nat(1), 3);
const host = object({ arg: ident, take: oneOf(['data', 'shape', 'stride', 'offset', 'value']) }, { dim: nat(0, 64), perMember: bool });
const slotBase = { name: ident, param: nullable(nat(0, 1 << 16)), role: oneOf(ROLES) };
const slotExtra = { dim: nat(0, 64), host };

const HIDDEN = ['hidden_dynamic_lds_size', 'hidden_global_offset_x', 'hidden_global_offset_y', 'hidden_global_offset_z', 'hidden_printf_buffer', 'hidden_hostcall_buffer', 'hidden_default_queue', 'hidden_completion_action', 'hidden_none', 'hidden_multigrid_sync_arg', 'hidden_block_count_x', 'hidden_block_count_y', 'hidden_block_count_z', 'hidden_group_size_x', 'hidden_group_size_y', 'hidden_group_size_z', 'hidden_remainder_x', 'hidden_remainder_y', 'hidden_remainder_z', 'hidden_grid_dims', 'hidden_heap_v1', 'hidden_queue_ptr'];
const VALUE_KINDS = ['by_value', 'global_buffer', 'dynamic_shared_pointer', 'image', 'sampler', 'queue', 'pipe', ...HIDDEN];

const openclPlan = object({
  target: oneOf(['opencl']),
  arch: oneOf(['spir', 'spir64']),
  kernels: arrayOf(object({
    name: ident,
    args: arrayOf(object({ ...slotBase, index: nat(0, 1 << 16), kind: oneOf(['buffer', 'local', 'value', 'image', 'sampler', 'queue', 'pipe']), typeName: str(), typeQual: str(), size: nullable(bytes) }, { ...slotExtra, addressSpace: oneOf(SPACES), access: oneOf(ACCESS), layout: layoutCheck })),
  }, { reqdWorkGroupSize: wg, workGroupSizeHint: wg, vecTypeHint: str(), intelReqdSubGroupSize: nat(1), workGroupSizeChosen: bool })),
});

const amdhsaPlan = object({
  target: oneOf(['amdhsa']),
  codeObject: oneOf([4, 5, 6]),
  llvm: oneOf([16, 19]),
  mcpu: oneOf(['gfx900']),
  kernels: arrayOf(object({
    name: ident,
    args: arrayOf(object({ ...slotBase, offset: bytes, size: bytes, valueKind: oneOf(VALUE_KINDS) }, { ...slotExtra, align: nat(1, 1 << 16), typeName: str(), addressSpace: oneOf(SPACES), access: oneOf(ACCESS), pointeeAlign: nat(1), layout: layoutCheck })),
    kernargSegmentSize: bytes,
    kernargSegmentAlign: nat(1),
    hiddenBytes: nat(),
  })),
});

const pair = nullable(tuple(nat(0, 255), 2));
const amdCl2Plan = object({
  target: oneOf(['amd-cl2']),
  bits: oneOf([32, 64]),
  driver: oneOf(['new', 'old']),
  use: arrayOf(oneOf(['setup', 'args', 'enqueue', 'generic'])),
  gfx9: bool,
  setupBuffer: arrayOf(object({ dword: nat(), bits: str(), field: str() })),
  kernels: arrayOf(object({
    name: ident,
    args: arrayOf(object({ ...slotBase, offset: bytes, size: bytes, align: nat(1), argType: str(), typeName: str() }, { ...slotExtra, addressSpace: oneOf(SPACES), access: oneOf(ACCESS), structSize: nat(), resourceId: nat(), qualifiers: arrayOf(oneOf(['const', 'restrict', 'volatile'])), layout: layoutCheck })),
    kernargSize: bytes,
    userSgprs: object({ count: nat(0, 255), scratchDescriptor: tuple(nat(0, 255), 2), setupPointer: pair, argsPointer: pair, flatBasesPointer: pair, flatScratchOffset: nullable(nat()), scratchPerThread: nullable(nat()) }),
  })),
});

const r600Plan = object({
  target: oneOf(['r600']),
  mcpu: oneOf(['cypress']),
  kernels: arrayOf(object({
    name: ident,
    args: arrayOf(object({ ...slotBase, offset: bytes, size: bytes, typeName: str() }, { ...slotExtra, irType: str(), accessQual: str(), resourceId: nat(), image: ident, fields: arrayOf(str()), layout: layoutCheck })),
    inputSize: bytes,
  })),
});

const reflection = oneOf(Object.keys(CLSPV_REFLECTION));
const printfBuffer: Check<unknown> = (v, path) =>
  (v as { reflection?: unknown } | null)?.reflection === 'PrintfBufferPointerPushConstant'
    ? object({ reflection: oneOf(['PrintfBufferPointerPushConstant']), pushConstantOffset: nat(), size: oneOf([8]), bufferSize: nat() })(v, path)
    : object({ reflection: oneOf(['PrintfBufferStorageBuffer']), descriptorSet: nat(), binding: oneOf([0]), bufferSize: nat() })(v, path);

const vulkanPlan = object({
  target: oneOf(['vulkan']),
  arch: oneOf(['spir', 'spir64']),
  pushConstants: arrayOf(object({ name: str(), offset: nat(), size: nat() })),
  literalSamplers: arrayOf(object({ mask: nat(), expr: str(), descriptorSet: nat(), binding: nat() }, { name: ident })),
  specConstants: arrayOf(object({ name: str(), specId: nat() })),
  localSize: bool,
  descriptorSets: arrayOf(object({ set: nat(), use: str() })),
  capabilities: arrayOf(str()),
  spirvExtensions: arrayOf(str()),
  vulkanFeatures: arrayOf(str()),
  vulkanExtensions: arrayOf(str()),
  kernels: arrayOf(object({
    name: ident,
    args: arrayOf(object({ ...slotBase, argKind: oneOf(['buffer', 'buffer_ubo', 'pod', 'pod_ubo', 'pod_pushconstant', 'pointer_pushconstant', 'pointer_ubo', 'ro_image', 'wo_image', 'sampler', 'local']), typeName: str() }, { ...slotExtra, descriptorSet: nat(), binding: nat(), offset: bytes, argSize: bytes, specId: nat(), arrayElemSize: nat(1, MAX_ARGUMENT_BYTES), vkDescriptorType: str(), reflection, pointerTable: oneOf(['PhysicalStorageBuffer64']), layout: layoutCheck })),
    podPlacement: oneOf(['ssbo', 'ubo', 'pushconstant', 'none']),
    podSize: bytes,
  }, {
    reqdWorkGroupSize: wg,
    podOffset: nat(),
    mayUsePrintf: bool,
    imageMetadata: arrayOf(object({ kind: oneOf(['channel_order', 'channel_data_type', 'normalized_sampler_mask']), param: nat(0, 1 << 16), name: str(), index: nat(), reflection, pushConstantOffset: nat(), size: oneOf([4]) })),
  })),
}, {
  printf: object({ buffer: printfBuffer, infos: arrayOf(object({ id: nat(), format: str(1 << 16), argSizes: arrayOf(nat()), reflection: oneOf(['PrintfInfo']) })) }),
  constantData: object({ descriptorSet: nat(), binding: nat(), kind: oneOf(['buffer']), hexbytes: str(1 << 26), variables: arrayOf(object({ name: str(), offset: nat(), size: nat() })) }),
  pushConstantRange: object({ offset: nat(), size: nat() }),
});

const llvmPlan = object({
  target: oneOf(['llvm']),
  triple: oneOf(TRIPLES),
  metadata: oneOf(['modern', 'legacy']),
  kernels: arrayOf(object({
    name: ident,
    args: arrayOf(object({ ...slotBase, addrSpace: nat(0, 255), accessQual: str(), typeName: str(), baseType: str(), typeQual: str() }, slotExtra)),
  }, { reqdWorkGroupSize: wg, workGroupSizeHint: wg, vecTypeHint: str(), intelReqdSubGroupSize: nat(1) })),
});

/** A slot's fields as the checks below read them. */
type Loose = { readonly name: string; readonly param: number | null; readonly layout?: ValueLayout; readonly [field: string]: unknown };

/** Refuses a slot a packer would write past its block, duplicate names, and indices out of order. */
function checkKernels(plan: AbiPlan): void {
  const names = new Set<string>();
  plan.kernels.forEach((k, ki) => {
    const at = `kernels[${ki}]`;
    if (names.has(k.name)) throw new PlanError(`${at}.name`, `a second kernel '${k.name}'`);
    names.add(k.name);
    const block = (k as unknown as Record<string, number>)[BLOCK[plan.target] ?? ''];
    const argNames = new Set<string>();
    k.args.forEach((a, ai) => {
      const p = `${at}.args[${ai}]`;
      const s = a as unknown as Loose;
      if (s.param !== null && argNames.has(s.name)) throw new PlanError(`${p}.name`, `a second argument '${s.name}'`);
      if (s.param !== null) argNames.add(s.name);
      const fits = (offset: unknown, size: number, what: string) => {
        if ((offset as number) + size > block) throw new PlanError(p, `${size} bytes at ${offset as number} pass the ${block} bytes of the ${what}`);
      };
      switch (plan.target) {
        case 'opencl':
          if (s.index !== ai) throw new PlanError(`${p}.index`, `argument ${ai} has index ${String(s.index)}`);
          if (s.kind === 'value' && (s.size === null || !s.layout)) throw new PlanError(p, 'a value argument needs a size and a layout');
          if (s.layout && (s.size === null || s.layout.size > (s.size as number))) throw new PlanError(`${p}.layout`, `${s.layout.size} bytes of layout in a ${String(s.size)}-byte argument`);
          break;
        case 'amdhsa':
          if (s.valueKind === 'by_value' && !s.layout) throw new PlanError(p, 'a by_value argument needs a layout');
          fits(s.offset, Math.max(s.size as number, amdhsaWidth(s.valueKind as string)), 'segment');
          if (s.layout) fits(s.offset, s.layout.size, 'segment');
          break;
        case 'amd-cl2':
          if (s.param !== null && !amdCl2ByAddress(s.argType as string) && !s.layout) throw new PlanError(p, `a ${s.argType as string} argument needs a layout`);
          fits(s.offset, Math.max(s.size as number, s.param === null || amdCl2ByAddress(s.argType as string) ? (plan as { bits: number }).bits / 8 : 0), 'segment');
          // amd-cl2 passes structures by reference: their layout describes memory elsewhere.
          if (s.layout && s.argType !== 'structure') fits(s.offset, s.layout.size, 'segment');
          break;
        case 'r600':
          fits(s.offset, Math.max(s.size as number, s.layout ? 0 : r600Width(s)), 'segment');
          if (s.layout) fits(s.offset, s.layout.size, 'segment');
          break;
        case 'vulkan': {
          const pod = (s.argKind as string).startsWith('pod');
          if (pod && (!s.layout || s.offset === undefined || s.argSize === undefined)) throw new PlanError(p, 'a POD argument needs a layout, an offset and an argSize');
          if (pod) fits(s.offset, storeBytes(s.layout!), 'POD block');
          if (pod && storeBytes(s.layout!) > (s.argSize as number)) throw new PlanError(`${p}.layout`, `${storeBytes(s.layout!)} bytes of layout in a ${s.argSize as number}-byte argument`);
          const pointer = s.argKind === 'pointer_pushconstant' || s.argKind === 'pointer_ubo';
          if (pointer && s.offset === undefined) throw new PlanError(p, 'a pointer argument needs an offset');
          if (pointer) fits(s.offset, 8, 'POD block');
          if (s.argKind === 'local' && (s.specId === undefined || s.arrayElemSize === undefined)) throw new PlanError(p, 'a local argument needs specId and arrayElemSize');
          if (s.argKind !== 'local' && !pointer && !pod && (s.descriptorSet === undefined || s.binding === undefined)) throw new PlanError(p, 'a descriptor needs descriptorSet and binding');
          break;
        }
        case 'llvm':
          break;
      }
    });
  });
}

/** amd-cl2 arguments passed as an address (structures by reference, pointers, images, samplers, queues, events, pipes). */
export function amdCl2ByAddress(argType: string): boolean {
  return argType === 'structure' || argType.endsWith('*') || ['image1d', 'image1d_array', 'image1d_buffer', 'image2d', 'image2d_array', 'image3d', 'sampler', 'queue', 'clkevent', 'pipe'].includes(argType);
}

/** Bytes the amdhsa packer writes for a slot of this kind (by_value ones: their layout). */
function amdhsaWidth(kind: string): number {
  if (kind === 'by_value' || kind === 'hidden_none') return 0;
  if (kind === 'dynamic_shared_pointer' || kind === 'hidden_dynamic_lds_size' || kind.startsWith('hidden_block_count')) return 4;
  if (kind.startsWith('hidden_group_size') || kind.startsWith('hidden_remainder') || kind === 'hidden_grid_dims') return 2;
  return 8;
}

/** Bytes the r600 packer writes for a slot without a layout. */
function r600Width(s: Loose): number {
  if (s.role === 'image-size' || (s.param === null && s.name === 'grid_offset')) return 12;
  if (s.role === 'image-format') return 8;
  return 4;
}

/** The block each segment target's slots are written into. */
const BLOCK: Partial<Record<AbiPlan['target'], string>> = { amdhsa: 'kernargSegmentSize', 'amd-cl2': 'kernargSize', r600: 'inputSize', vulkan: 'podSize' };

/**
 * A plan from its JSON form (`kernarg lower --format json`): every field checked, unknown ones
 * refused, layouts rebuilt in the form the packers read. What comes back packs the same bytes as
 * the plan `lower` made in process; anything else throws a PlanError naming the JSON path.
 */
export function readPlan(json: unknown): AbiPlan {
  const target = (json as { target?: unknown } | null)?.target;
  let plan: AbiPlan;
  switch (target) {
    case 'opencl': plan = openclPlan(json, '') as unknown as AbiPlan; break;
    case 'amdhsa': plan = amdhsaPlan(json, '') as unknown as AbiPlan; break;
    case 'amd-cl2': plan = amdCl2Plan(json, '') as unknown as AbiPlan; break;
    case 'r600': plan = r600Plan(json, '') as unknown as AbiPlan; break;
    case 'vulkan': plan = vulkanPlan(json, '') as unknown as AbiPlan; break;
    case 'llvm': plan = llvmPlan(json, '') as unknown as AbiPlan; break;
    default:
      throw new PlanError('target', `expected one of "opencl", "amdhsa", "amd-cl2", "r600", "vulkan", "llvm", got ${JSON.stringify(target) ?? 'nothing'}`);
  }
  checkKernels(plan);
  return plan;
}

/**
 * The bytes a value's layout writes: a 3-element vector occupies the size of 4 but stores 3 (vulkan's
 * `argSize` is this store size, so `uint3` is 12 bytes, not 16).
 */
function storeBytes(layout: { readonly kind: string; readonly size: number; readonly length?: number }): number {
  if (layout.kind === 'vector' && layout.length === 3) return (layout.size / 4) * 3;
  return layout.size;
}
