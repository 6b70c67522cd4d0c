// SPIR-V binary → a plan. `OpEntryPoint GLCompute` (Vulkan compute shaders from any compiler):
// a vulkan plan of the shader's descriptors (storage and uniform buffers with their member
// layouts read from Offset/ArrayStride/MatrixStride, images, samplers, texel buffers), its
// push-constant block, its specialization constants and its work-group size. `OpEntryPoint
// Kernel` (OpenCL SPIR-V): an opencl plan of the kernel function's parameters. Resources are
// named as the shader names them: the variable's OpName, else its block type's (README).
import { Messages } from '../diagnostics/messages.js';
import { type Diagnostic, DiagnosticBag } from '../diagnostics/diagnostic.js';
import { SourceFile, span } from '../diagnostics/source.js';
import type { ValueLayout } from '../layout/value-layout.js';
import type { Bare, OpenCLArgKind, OpenCLKernelPlan, OpenCLPlan, OpenCLSlot } from '../abi/plan.js';
import { SPIR, SPIR64 } from '../layout/data-layout.js';
import { valueLayout } from '../layout/value-layout.js';
import { kernelArgTypeName } from '../types/print.js';
import {
  type AddressSpace,
  type FieldDecl,
  IMAGE_TYPES,
  type ImageName,
  type QualType,
  type RecordDecl,
  type ScalarName,
  type Type,
  type VectorElement,
  q,
  scalar,
} from '../types/types.js';
import { placeVulkanKernel } from '../targets/vulkan/placement.js';
import { placeOpenclKernel } from '../targets/opencl/placement.js';
import type { VulkanArgKind, VulkanKernelPlan, VulkanPlan, VulkanSlot } from '../targets/vulkan/plan.js';
import { BuiltIn, Capability, ExecutionModel, invert } from '../emit/spirv/spec.js';
import {
  Decoration,
  ExecutionMode,
  Malformed,
  MoreDecoration,
  MoreExecutionMode,
  MoreExecutionModel,
  MoreStorageClass,
  type SpvModule,
  type SpvType,
  StorageClass,
  decoration,
  hasDecoration,
  memberDecoration,
  parseSpirv,
  variablesUsedBy,
} from './spirv-module.js';
import { unnamedSpecConstant } from './spirv-shader.js';

/** A well-formed module holding what this reader does not read yet (KA7122). */
class Unsupported {
  constructor(
    readonly entry: string,
    readonly reason: string,
  ) {}
}

/** Nested types deeper than this are refused (a hostile module can make a struct contain itself). */
const MAX_DEPTH = 64;

const INT_NAMES = {
  8: ['uchar', 'char'],
  16: ['ushort', 'short'],
  32: ['uint', 'int'],
  64: ['ulong', 'long'],
} as const satisfies Record<number, readonly [ScalarName, ScalarName]>;
const FLOAT_NAMES = { 16: 'half', 32: 'float', 64: 'double' } as const satisfies Record<number, ScalarName>;

class Reader {
  constructor(readonly m: SpvModule) {}

  /** Where an id is defined, for a diagnostic's byte offset (0 when the module never defines it). */
  off(id: number): number {
    return this.m.offsets.get(id) ?? 0;
  }

  /** The type `id`; `from`: the byte offset of the instruction that refers to it (for the diagnostic). */
  type(id: number, at: string, from: number): SpvType {
    const t = this.m.types.get(id);
    if (!t)
      throw new Malformed(
        from,
        `the instruction here refers to type %${id}, which the module does not declare (reading ${at})`,
      );
    return t;
  }

  constant(id: number, at: string): number {
    const v = this.m.constants.get(id);
    if (v === undefined) throw new Malformed(this.off(id), `${at}: array length %${id} is not an integer constant`);
    return v;
  }

  scalarName(t: SpvType, at: string, where: number): ScalarName {
    if (t.kind === 'int' && Object.hasOwn(INT_NAMES, t.width)) return INT_NAMES[t.width as 8][t.signed ? 1 : 0];
    if (t.kind === 'float' && Object.hasOwn(FLOAT_NAMES, t.width)) return FLOAT_NAMES[t.width as 16];
    if (t.kind === 'bool') return 'bool';
    throw new Malformed(
      where,
      `${at}: a ${t.kind}${'width' in t ? ` of width ${t.width}` : ''} is not a scalar kernarg can lay out`,
    );
  }

  /**
   * The byte layout of a type in an explicitly laid-out block (Vulkan's Offset, ArrayStride and
   * MatrixStride decorations; `matrixStride` is the member's, for a matrix member).
   */
  explicitLayout(id: number, depth: number, from: number, matrixStride?: number): ValueLayout {
    if (depth > MAX_DEPTH) throw new Malformed(this.off(id), `type %${id} nests more than ${MAX_DEPTH} deep`);
    const at = `type %${id}`;
    const t = this.type(id, at, from);
    const here = this.off(id);
    switch (t.kind) {
      case 'bool':
        // A bool has no size of its own in a block: GLSL's bool is a 32-bit word there.
        return { kind: 'scalar', scalar: 'bool', encoding: 'bool', size: 4, align: 4 };
      case 'int':
      case 'float': {
        const name = this.scalarName(t, at, here);
        const size = t.width / 8;
        return {
          kind: 'scalar',
          scalar: name,
          encoding: t.kind === 'float' ? (t.width === 16 ? 'half' : 'float') : t.signed ? 'int' : 'uint',
          size,
          align: size,
        };
      }
      case 'vector': {
        const e = this.explicitLayout(t.component, depth + 1, here);
        if (e.kind !== 'scalar') throw new Malformed(this.off(id), `${at}: a vector of a non-scalar`);
        // std140/std430 base alignment: two components twice the component's, three or four four times.
        return {
          kind: 'vector',
          element: e.scalar,
          encoding: e.encoding,
          elementSize: e.size,
          length: t.count,
          size: e.size * t.count,
          align: e.size * (t.count === 2 ? 2 : 4),
        };
      }
      case 'matrix': {
        const column = this.explicitLayout(t.column, depth + 1, here);
        const stride = matrixStride ?? column.size;
        return { kind: 'array', element: column, length: t.count, stride, size: stride * t.count, align: column.align };
      }
      case 'array':
      case 'runtime-array': {
        const element = this.explicitLayout(t.element, depth + 1, here, matrixStride);
        const length = t.kind === 'array' ? this.constant(t.length, at) : 0;
        const stride = decoration(this.m, id, Decoration.ArrayStride) ?? element.size;
        return { kind: 'array', element, length, stride, size: stride * length, align: element.align };
      }
      case 'struct': {
        const fields = t.members.map((mt, i) => {
          const offset = memberDecoration(this.m, id, i, Decoration.Offset);
          if (offset === undefined) throw new Malformed(this.off(id), `${at}: member ${i} has no Offset decoration`);
          const layout = this.explicitLayout(
            mt,
            depth + 1,
            here,
            memberDecoration(this.m, id, i, MoreDecoration.MatrixStride),
          );
          return { name: this.m.memberNames.get(id)?.get(i) ?? null, offset, layout };
        });
        const size = fields.reduce((s, f) => Math.max(s, f.offset + f.layout.size), 0);
        const align = fields.reduce((a, f) => Math.max(a, f.layout.align), 1);
        return { kind: 'record', tagKind: 'struct', typeName: this.m.names.get(id) ?? '', size, align, fields };
      }
      default:
        throw new Malformed(this.off(id), `${at}: a ${t.kind} cannot sit in a buffer or push-constant block`);
    }
  }
}

/** The Vulkan descriptor type and clspv-vocabulary argument kind of a resource variable. */
function resourceKind(
  r: Reader,
  varId: number,
  storageClass: number,
  pointee: number,
): { argKind: VulkanArgKind; vk: string } | undefined {
  let t = r.type(pointee, `variable %${varId}`, r.off(varId));
  // Arrays of descriptors: one binding, several descriptors of the element's kind.
  for (
    let d = 0;
    (t.kind === 'array' || t.kind === 'runtime-array') &&
    storageClass === StorageClass.UniformConstant &&
    d < MAX_DEPTH;
    d++
  )
    t = r.type(t.element, `variable %${varId}`, r.off(varId));
  const block = hasDecoration(r.m, pointee, Decoration.Block);
  const bufferBlock = hasDecoration(r.m, pointee, MoreDecoration.BufferBlock);
  if (storageClass === StorageClass.StorageBuffer || (storageClass === StorageClass.Uniform && bufferBlock))
    return { argKind: 'buffer', vk: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER' };
  if (storageClass === StorageClass.Uniform && block)
    return { argKind: 'buffer_ubo', vk: 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER' };
  if (storageClass !== StorageClass.UniformConstant) return undefined;
  const DIM_BUFFER = 5;
  switch (t.kind) {
    case 'sampler':
      return { argKind: 'sampler', vk: 'VK_DESCRIPTOR_TYPE_SAMPLER' };
    case 'sampled-image':
      return { argKind: 'ro_image', vk: 'VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER' };
    case 'image':
      if (t.dim === DIM_BUFFER)
        return t.sampled === 2
          ? { argKind: 'storage_texel_buffer', vk: 'VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER' }
          : { argKind: 'uniform_texel_buffer', vk: 'VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER' };
      return t.sampled === 2
        ? { argKind: 'wo_image', vk: 'VK_DESCRIPTOR_TYPE_STORAGE_IMAGE' }
        : { argKind: 'ro_image', vk: 'VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE' };
    default:
      return undefined;
  }
}

const CAPABILITY_NAME = invert(Capability);

/** The vulkan plan of a module's GLCompute entry points. */
function vulkanPlan(r: Reader, entries: SpvModule['entryPoints']): VulkanPlan {
  const m = r.m;
  const kernels: VulkanKernelPlan[] = [];
  const sets = new Set<number>();
  let pushSize = 0;
  const specSized = [...m.decorations].some(
    ([id, d]) => d.get(Decoration.BuiltIn)?.[0] === BuiltIn.WorkgroupSize && m.specComposites.has(id),
  );
  for (const e of entries) {
    // SPIR-V 1.4 and later list every global the entry point uses; earlier, only its inputs and
    // outputs: then the variables its function (and what it calls) names, in declaration order.
    const used = variablesUsedBy(m, e.fn);
    // clspv's reflection, where present, binds every argument, used or not.
    const reflected = (id: number) =>
      m.clspvBindings.has(
        `${e.name}/${decoration(m, id, Decoration.DescriptorSet) ?? 0}/${decoration(m, id, Decoration.Binding) ?? 0}`,
      );
    const vars =
      m.version >= 0x10400
        ? e.interface.filter((id) => m.variables.has(id))
        : [...m.variables.keys()].filter((id) => used.has(id) || reflected(id));
    const args: Bare<VulkanSlot>[] = [];
    let podSize = 0;
    let podPlacement: VulkanKernelPlan['podPlacement'] = 'none';
    for (const id of vars) {
      const v = m.variables.get(id)!;
      const ptr = r.type(v.type, `variable %${id}`, r.off(id));
      if (ptr.kind !== 'pointer') throw new Malformed(r.off(id), `variable %${id} does not have a pointer type`);
      const blockName = m.names.get(ptr.pointee) ?? '';
      // The instance name, else the block's type name, else (a stripped module) where it is bound.
      const given = m.names.get(id) || blockName;
      if (v.storageClass === StorageClass.PushConstant) {
        const name = given || 'push_constants';
        const layout = r.explicitLayout(ptr.pointee, 0, r.off(id));
        podSize = Math.max(podSize, layout.size);
        podPlacement = 'pushconstant';
        args.push({
          name,
          param: args.length,
          role: 'value',
          argKind: 'pod_pushconstant',
          offset: 0,
          argSize: layout.size,
          typeName: blockName,
          layout,
        });
        continue;
      }
      const kind = resourceKind(r, id, v.storageClass, ptr.pointee);
      if (!kind) continue;
      const set = decoration(m, id, Decoration.DescriptorSet) ?? 0;
      const binding = decoration(m, id, Decoration.Binding) ?? 0;
      const name = given || `set${set}_binding${binding}`;
      sets.add(set);
      const buffer = kind.argKind === 'buffer' || kind.argKind === 'buffer_ubo';
      const pod = buffer ? m.clspvPods.get(`${e.name}/${set}/${binding}`) : undefined;
      const role = pod ? 'value' : buffer ? 'data' : kind.argKind === 'sampler' ? 'sampler' : 'image';
      const layout = buffer ? r.explicitLayout(ptr.pointee, 0, r.off(id)) : undefined;
      if (pod && layout) {
        podSize = Math.max(podSize, layout.size);
        podPlacement = pod === 'pod' ? 'ssbo' : 'ubo';
      }
      args.push({
        name,
        param: args.length,
        role,
        argKind: pod ?? kind.argKind,
        descriptorSet: set,
        binding,
        typeName: blockName,
        vkDescriptorType: kind.vk,
        ...(layout ? { layout } : {}),
        ...(pod && layout ? { offset: 0, argSize: layout.size } : {}),
      });
    }
    // A constant decorated BuiltIn WorkgroupSize (spec constants: local_size_x_id) overrides LocalSize.
    const localSize = specSized ? m.clspvReqd.get(e.name) : m.executionModes.get(e.fn)?.get(ExecutionMode.LocalSize);
    if (podPlacement === 'pushconstant') pushSize = Math.max(pushSize, podSize);
    kernels.push(
      placeVulkanKernel({
        name: e.name,
        args,
        podPlacement,
        podSize: Math.ceil(podSize / 4) * 4,
        ...(localSize && localSize.length >= 3
          ? { reqdWorkGroupSize: [localSize[0], localSize[1], localSize[2]] as const }
          : {}),
      }),
    );
  }
  const specConstants = m.specConstants.flatMap((s) => {
    const specId = decoration(m, s.id, Decoration.SpecId);
    return specId === undefined ? [] : [{ name: m.names.get(s.id) || unnamedSpecConstant(specId), specId }];
  });
  return {
    target: 'vulkan',
    arch: 'spir',
    pushConstants: [],
    literalSamplers: [],
    specConstants,
    // LocalSize execution modes (not spec constants) size every kernel's work group.
    localSize: !specSized,
    descriptorSets: [...sets].sort((a, b) => a - b).map((set) => ({ set, use: 'kernel' })),
    ...(pushSize > 0 ? { pushConstantRange: { offset: 0, size: Math.ceil(pushSize / 4) * 4 } } : {}),
    capabilities: m.capabilities.map((c) => CAPABILITY_NAME.get(c) ?? String(c)),
    spirvExtensions: [...m.extensions],
    vulkanFeatures: [],
    vulkanExtensions: [],
    kernels,
  };
}

const IMAGE_DIM = { 0: 'image1d', 1: 'image2d', 2: 'image3d', 5: 'image1d_buffer' } as const satisfies Record<
  number,
  string
>;

/** The OpenCL C image type of an OpTypeImage: its Dim, then Arrayed, MS and Depth as the name's suffixes (`image2d_array_msaa_depth_t`). */
function imageName(t: Extract<SpvType, { kind: 'image' }>, at: string, here: number): ImageName {
  const base = Object.hasOwn(IMAGE_DIM, t.dim) ? IMAGE_DIM[t.dim as 0] : undefined;
  const name = `${base}${t.arrayed ? '_array' : ''}${t.ms ? '_msaa' : ''}${t.depth === 1 ? '_depth' : ''}_t`;
  if (base === undefined || !(IMAGE_TYPES as readonly string[]).includes(name))
    throw new Malformed(
      here,
      `${at}: an image of Dim ${t.dim} (arrayed ${t.arrayed}, multisampled ${t.ms}, depth ${t.depth}) is no OpenCL C image type`,
    );
  return name as ImageName;
}

/** vec_type_hint's operand: the component type in the low 16 bits (SPIR-V's encoding: 0 char ... 6 double), the vector length above. */
const VEC_HINT_TYPES = ['uchar', 'ushort', 'uint', 'ulong', 'half', 'float', 'double'] as const;
function vecTypeHint(operand: number): string | undefined {
  const element = VEC_HINT_TYPES[operand & 0xffff];
  const length = operand >>> 16;
  if (element === undefined || ![0, 1, 2, 3, 4, 8, 16].includes(length)) return undefined;
  return length > 1 ? `${element}${length}` : element;
}

const SPACE_OF = {
  [StorageClass.Function]: 'private',
  [MoreStorageClass.CrossWorkgroup]: 'global',
  [StorageClass.UniformConstant]: 'constant',
  [StorageClass.Workgroup]: 'local',
  8: 'generic',
} as const satisfies Record<number, AddressSpace>;

/** An OpenCL C type for a Kernel module's SPIR-V type (integers unsigned: OpenCL SPIR-V keeps no sign). */
function openclType(r: Reader, id: number, depth: number, from: number): Type {
  if (depth > MAX_DEPTH) throw new Malformed(r.off(id), `type %${id} nests more than ${MAX_DEPTH} deep`);
  const at = `type %${id}`;
  const t = r.type(id, at, from);
  const here = r.off(id);
  switch (t.kind) {
    case 'void':
      return scalar('void');
    case 'int':
    case 'float':
    case 'bool':
      return scalar(r.scalarName(t.kind === 'int' ? { ...t, signed: false } : t, at, here));
    case 'vector': {
      const e = openclType(r, t.component, depth + 1, here);
      if (e.kind !== 'scalar' || ![2, 3, 4, 8, 16].includes(t.count))
        throw new Malformed(r.off(id), `${at}: a vector OpenCL C cannot spell`);
      return { kind: 'vector', element: e.name as VectorElement, length: t.count as 2 };
    }
    case 'pointer': {
      const space: AddressSpace = Object.hasOwn(SPACE_OF, t.storageClass) ? SPACE_OF[t.storageClass as 5] : 'private';
      return { kind: 'pointer', pointee: q(openclType(r, t.pointee, depth + 1, here), { space }) };
    }
    case 'array':
      return { kind: 'array', element: q(openclType(r, t.element, depth + 1, here)), length: r.constant(t.length, at) };
    case 'image':
      return { kind: 'image', name: imageName(t, at, here) };
    case 'sampler':
      return { kind: 'opaque', name: 'sampler_t' };
    case 'queue':
      return { kind: 'opaque', name: 'queue_t' };
    case 'device-event':
      return { kind: 'opaque', name: 'clk_event_t' };
    case 'event':
      return { kind: 'opaque', name: 'event_t' };
    case 'struct':
      // Only inside a by-value record (a nested struct member); a parameter of struct type is a ByVal pointer.
      if (depth === 0)
        throw new Malformed(r.off(id), `${at}: a struct passed other than by value (ByVal) is not read yet`);
      return recordType(r, id, t.members, depth, undefined);
    default:
      throw new Malformed(r.off(id), `${at}: a ${t.kind} is not an OpenCL C parameter type kernarg reads`);
  }
}

/**
 * A by-value struct as LLVM lowered it: its members in order (clang's explicit padding arrays
 * among them; a union is its widest-aligned member and padding), C's layout rules over them,
 * packed where the type is CPacked, and `aligned` the ByVal parameter's Alignment. Its tag and name
 * are OpName's (`struct.S`, `union.U`), for the type name only: the fields are `f0`, `f1`, ...
 */
function recordType(
  r: Reader,
  id: number,
  members: readonly number[],
  depth: number,
  aligned: number | undefined,
): Type {
  const nowhere = span(new SourceFile('', ''), 0);
  const here = r.off(id);
  const fields: FieldDecl[] = members.map((member, i) => ({
    name: `f${i}`,
    type: q(openclType(r, member, depth + 1, here)),
    span: nowhere,
  }));
  const decl: RecordDecl = {
    tagKind: 'struct',
    name: recordTag(r, id).name,
    fields,
    packed: hasDecoration(r.m, id, MoreDecoration.CPacked),
    span: nowhere,
    id,
    ...(aligned !== undefined ? { aligned } : {}),
  };
  return { kind: 'record', decl };
}

/** OpName's `struct.S` / `union.U` (clang's IR names), as OpenCL C spells the type: `struct S`, `union U`; `struct` alone when unnamed. */
function recordTag(r: Reader, id: number): { tag: 'struct' | 'union'; name: string | null; spelled: string } {
  const m = /^(struct|union)\.([A-Za-z_]\w*)$/.exec(r.m.names.get(id) ?? '');
  if (!m) return { tag: 'struct', name: null, spelled: 'struct' };
  return { tag: m[1] as 'struct' | 'union', name: m[2], spelled: `${m[1]} ${m[2]}` };
}

const FUNC_PARAM_ATTR = { NoAlias: 4, NoWrite: 6, ByVal: 2 } as const;
const ACCESS = { 0: 'read_only', 1: 'write_only', 2: 'read_write' } as const;

/** The opencl plan of a module's Kernel entry points. */
function openclPlan(r: Reader, entries: SpvModule['entryPoints'], dlArch: 'spir' | 'spir64'): OpenCLPlan {
  const m = r.m;
  const dl = dlArch === 'spir64' ? SPIR64 : SPIR;
  const kernels: OpenCLKernelPlan[] = [];
  for (const e of entries) {
    const params = m.functionParams.get(e.fn);
    if (!params)
      throw new Malformed(
        e.byteOffset,
        `entry point '${e.name}' names function %${e.fn}, which the module does not define`,
      );
    // llvm-spirv's kernel arg info: `kernel_arg_type.<kernel>.<type>,<type>,`.
    const info = m.strings.find((s) => s.startsWith(`kernel_arg_type.${e.name}.`));
    const infoNames = info?.slice(`kernel_arg_type.${e.name}.`.length).split(',');
    const args = params.map((p, index): Bare<OpenCLSlot> => {
      const all = m.funcParamAttrs.get(p.id) ?? [];
      const pt = r.type(p.type, `parameter ${index} of '${e.name}'`, e.byteOffset);
      const byVal = all.includes(FUNC_PARAM_ATTR.ByVal) && pt.kind === 'pointer';
      const pointee = byVal && pt.kind === 'pointer' ? r.type(pt.pointee, 'ByVal parameter', r.off(p.type)) : undefined;
      // A struct by value is a ByVal pointer to it, aligned as the struct is (the parameter's Alignment).
      const record =
        pointee?.kind === 'struct' && pt.kind === 'pointer' ? { id: pt.pointee, members: pointee.members } : undefined;
      const type = record
        ? recordType(r, record.id, record.members, 0, decoration(m, p.id, MoreDecoration.Alignment))
        : byVal && pt.kind === 'pointer'
          ? openclType(r, pt.pointee, 0, r.off(p.type))
          : openclType(r, p.type, 0, e.byteOffset);
      const image = pt.kind === 'image';
      const access =
        image && pt.access !== undefined && Object.hasOwn(ACCESS, pt.access) ? ACCESS[pt.access as 0] : undefined;
      const qt: QualType = q(type, access ? { access } : {});
      const space = type.kind === 'pointer' ? type.pointee.space : undefined;
      const kind: OpenCLArgKind = image
        ? 'image'
        : type.kind === 'opaque' && type.name === 'sampler_t'
          ? 'sampler'
          : type.kind === 'opaque' && type.name === 'queue_t'
            ? 'queue'
            : space === 'local'
              ? 'local'
              : type.kind === 'pointer'
                ? 'buffer'
                : 'value';
      const role = kind === 'buffer' ? 'data' : kind;
      const name = m.names.get(p.id) ?? `arg${index}`;
      // Handles (buffers, images, samplers, queues) are 8-byte cl_mem/cl_sampler values, as the opencl target sizes them.
      const size = kind === 'local' ? null : kind === 'value' ? valueLayout(qt, dl).size : 8;
      return {
        name,
        param: index,
        role,
        index,
        kind,
        ...(space === 'global' || space === 'constant' || space === 'local' ? { addressSpace: space } : {}),
        ...(access ? { access } : {}),
        typeName: infoNames?.[index] || (record ? recordTag(r, record.id).spelled : kernelArgTypeName(qt)),
        typeQual: all.includes(FUNC_PARAM_ATTR.NoAlias) ? 'restrict' : '',
        size,
        type: qt,
        ...(kind === 'value' ? { layout: valueLayout(qt, dl) } : {}),
      };
    });
    const modes = m.executionModes.get(e.fn);
    const lsz = modes?.get(ExecutionMode.LocalSize);
    const hint = modes?.get(MoreExecutionMode.LocalSizeHint);
    const vec = modes?.get(MoreExecutionMode.VecTypeHint)?.[0];
    const vecHint = vec === undefined ? undefined : vecTypeHint(vec);
    const subgroup = modes?.get(MoreExecutionMode.SubgroupSize)?.[0];
    kernels.push(
      placeOpenclKernel({
        name: e.name,
        args,
        ...(lsz && lsz.length >= 3 ? { reqdWorkGroupSize: [lsz[0], lsz[1], lsz[2]] as const } : {}),
        ...(hint && hint.length >= 3 ? { workGroupSizeHint: [hint[0], hint[1], hint[2]] as const } : {}),
        ...(vecHint !== undefined ? { vecTypeHint: vecHint } : {}),
        ...(subgroup !== undefined ? { intelReqdSubGroupSize: subgroup } : {}),
      }),
    );
  }
  return { target: 'opencl', arch: dlArch, kernels };
}

/**
 * The plan of a SPIR-V binary: vulkan for GLCompute entry points, opencl for Kernel ones (a
 * module with both is read as its GLCompute part, with a note). A malformed module gets KA7120
 * with the byte offset where reading stopped; diagnostics carry no span (a binary has no lines).
 */
export function readSpirv(
  bytes: Uint8Array,
  path: string,
): { plan?: VulkanPlan | OpenCLPlan; diagnostics: Diagnostic[] } {
  const diags = new DiagnosticBag();
  const where = span(new SourceFile(path, ''), 0);
  try {
    const m = parseSpirv(bytes);
    const r = new Reader(m);
    const compute = m.entryPoints.filter((e) => e.model === ExecutionModel.GLCompute);
    const kernels = m.entryPoints.filter((e) => e.model === MoreExecutionModel.Kernel);
    if (compute.length > 0) return { plan: vulkanPlan(r, compute), diagnostics: diags.items };
    if (kernels.length > 0) {
      // Physical64 addressing (2) is spir64; Physical32 (1) spir.
      return { plan: openclPlan(r, kernels, m.addressing === 1 ? 'spir' : 'spir64'), diagnostics: diags.items };
    }
    diags.report(Messages.spirvNoEntryPoint, where);
  } catch (e) {
    if (e instanceof Unsupported) diags.report(Messages.spirvUnsupported, where, [e.entry, e.reason]);
    else if (e instanceof Malformed) diags.report(Messages.spirvMalformed, where, [e.byteOffset, e.reason]);
    else throw e;
  }
  return { diagnostics: diags.items };
}
