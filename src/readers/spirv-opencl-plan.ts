// An OpenCL SPIR-V module's Kernel entry points → an opencl plan: the kernel function's parameters
// as OpenCL C types, with the argument attributes and execution modes clang writes.
import { SourceFile, span } from '../diagnostics/source.js';
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
  type Type,
  type VectorElement,
  q,
  scalar,
} from '../types/types.js';
import { placeOpenclKernel } from '../targets/opencl/placement.js';
import {
  ExecutionMode,
  Malformed,
  MoreDecoration,
  MoreExecutionMode,
  MoreStorageClass,
  type SpvModule,
  type SpvType,
  StorageClass,
  decoration,
  hasDecoration,
} from './spirv-module.js';
import { MAX_DEPTH, type Reader } from './spirv-type-reader.js';

const IMAGE_DIM = { 0: 'image1d', 1: 'image2d', 2: 'image3d', 5: 'image1d_buffer' } as const satisfies Record<
  number,
  string
>;

/**
 * The OpenCL C image type of an OpTypeImage: its Dim, then Arrayed, MS and Depth as the name's suffixes
 * (`image2d_array_msaa_depth_t`).
 */
function imageName(t: Extract<SpvType, { kind: 'image' }>, at: string, here: number): ImageName {
  const base = Object.hasOwn(IMAGE_DIM, t.dim) ? IMAGE_DIM[t.dim as 0] : undefined;
  const name = `${base}${t.arrayed ? '_array' : ''}${t.ms ? '_msaa' : ''}${t.depth === 1 ? '_depth' : ''}_t`;
  if (base === undefined || !(IMAGE_TYPES as readonly string[]).includes(name))
    throw new Malformed(
      here,
      `${at}: an image of Dim ${t.dim} (arrayed ${t.arrayed}, multisampled ${t.ms}, depth ${t.depth}) is no OpenCL ` +
        `C image type`,
    );
  return name as ImageName;
}

/**
 * vec_type_hint's operand: the component type in the low 16 bits (SPIR-V's encoding: 0 char ... 6 double), the vector
 * length above.
 */
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

/**
 * OpName's `struct.S` / `union.U` (clang's IR names), as OpenCL C spells the type: `struct S`, `union U`; `struct`
 * alone when unnamed.
 */
function recordTag(r: Reader, id: number): { tag: 'struct' | 'union'; name: string | null; spelled: string } {
  const m = /^(struct|union)\.([A-Za-z_]\w*)$/.exec(r.m.names.get(id) ?? '');
  if (!m) return { tag: 'struct', name: null, spelled: 'struct' };
  return { tag: m[1] as 'struct' | 'union', name: m[2], spelled: `${m[1]} ${m[2]}` };
}

const FUNC_PARAM_ATTR = { NoAlias: 4, NoWrite: 6, ByVal: 2 } as const;
const ACCESS = { 0: 'read_only', 1: 'write_only', 2: 'read_write' } as const;

/** The opencl plan of a module's Kernel entry points. */
export function openclPlan(r: Reader, entries: SpvModule['entryPoints'], dlArch: 'spir' | 'spir64'): OpenCLPlan {
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
      // Handles (buffers, images, samplers, queues) are 8-byte cl_mem/cl_sampler values, as the opencl target sizes
      // them.
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
