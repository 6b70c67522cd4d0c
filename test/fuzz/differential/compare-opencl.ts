// kernarg's opencl plan against what clang-16 says of the same kernels on spir64: the kernel_arg_*
// metadata (name, type, qualifiers, address space, access) and the `define` line's parameters
// (which kind of argument each is; a value's size and alignment from its LLVM type or byval type).
import type { OpenCLKernelPlan, OpenCLSlot } from '../../../src/abi/plan.js';
import type { ClangKernelMetadata } from '../../support/tools.js';
import type { LlvmParam } from './llvm-types.js';

/** One slot field (or kernel field) on which kernarg and clang differ. */
export interface Difference {
  readonly kernel: string;
  /** The argument's index, or null for a kernel field. */
  readonly arg: number | null;
  readonly field: string;
  readonly kernarg: unknown;
  readonly clang: unknown;
}

export const describe = (d: Difference): string =>
  `kernel ${d.kernel}${d.arg === null ? '' : ` arg ${d.arg}`}: ${d.field}: kernarg ${JSON.stringify(d.kernarg)}, clang ${JSON.stringify(d.clang)}`;

const SPIR_SPACES: Record<number, OpenCLSlot['addressSpace']> = { 1: 'global', 2: 'constant', 3: 'local' };

/** The kind of argument clang's base type name and LLVM parameter say. */
function clangKind(baseType: string, p: LlvmParam, addrSpace: number): OpenCLSlot['kind'] {
  if (/^image\d/.test(baseType)) return 'image';
  if (baseType === 'sampler_t') return 'sampler';
  if (baseType === 'queue_t') return 'queue';
  if (p.byval || !p.type.startsWith('ptr')) return 'value';
  if (addrSpace === 3) return 'local';
  return 'buffer';
}

/** What clang says of one argument, in the plan's terms. */
function clangSlot(md: ClangKernelMetadata, p: LlvmParam, i: number): Record<string, unknown> {
  const kind = clangKind(md.baseType[i], p, md.addrSpace[i]);
  const value = kind === 'value' ? (p.byval ?? p.layout) : undefined;
  return {
    name: md.argName[i],
    typeName: md.type[i],
    typeQual: md.typeQual[i],
    kind,
    addressSpace: kind === 'buffer' || kind === 'local' ? SPIR_SPACES[md.addrSpace[i]] : undefined,
    access: md.accessQual[i] === 'none' ? undefined : md.accessQual[i],
    size: kind === 'local' ? null : kind === 'value' ? value!.size : p.layout.size,
    // A byval parameter's `align` is the C alignment of its type; a direct value's is its LLVM type's.
    align: value ? (p.byval ? p.alignAttr : value.align) : undefined,
  };
}

function kernargSlot(a: OpenCLSlot): Record<string, unknown> {
  return {
    name: a.name,
    typeName: a.typeName,
    typeQual: a.typeQual,
    kind: a.kind,
    addressSpace: a.addressSpace,
    access: a.access,
    size: a.size,
    align: a.kind === 'value' ? a.layout?.align : undefined,
  };
}

const ELEMENTS: Record<string, [string, string]> = {
  i8: ['char', 'uchar'],
  i16: ['short', 'ushort'],
  i32: ['int', 'uint'],
  i64: ['long', 'ulong'],
};

/** clang's vec_type_hint node (`<4 x i32> undef, i32 0`: the type and whether it is signed) as an OpenCL C type name. */
export function vecTypeHintName(node: string): string | undefined {
  const m = /^(?:<(\d+) x )?(i8|i16|i32|i64|half|float|double)>? undef, i32 ([01])$/.exec(node.trim());
  if (!m) return undefined;
  const scalar = ELEMENTS[m[2]] ? ELEMENTS[m[2]][m[3] === '1' ? 0 : 1] : m[2];
  return `${scalar}${m[1] ?? ''}`;
}

/** Every field on which kernarg's kernel and clang's differ. */
export function compareOpenCLKernel(
  k: OpenCLKernelPlan,
  md: ClangKernelMetadata,
  params: readonly LlvmParam[],
  vecHintNode: string | undefined,
): Difference[] {
  const out: Difference[] = [];
  const differ = (arg: number | null, field: string, ours: unknown, theirs: unknown) => {
    if (JSON.stringify(ours) !== JSON.stringify(theirs))
      out.push({ kernel: k.name, arg, field, kernarg: ours, clang: theirs });
  };
  differ(null, 'argument count', k.args.length, md.type.length);
  differ(null, 'parameter count', k.args.length, params.length);
  k.args.forEach((a, i) => {
    if (i >= md.type.length || i >= params.length) return;
    const ours = kernargSlot(a);
    const theirs = clangSlot(md, params[i], i);
    for (const f of Object.keys(theirs)) differ(i, f, ours[f], theirs[f]);
  });
  differ(null, 'reqdWorkGroupSize', k.reqdWorkGroupSize, md.reqdWorkGroupSize);
  differ(null, 'workGroupSizeHint', k.workGroupSizeHint, md.workGroupSizeHint);
  differ(
    null,
    'vecTypeHint',
    k.vecTypeHint,
    vecHintNode === undefined ? undefined : (vecTypeHintName(vecHintNode) ?? vecHintNode),
  );
  differ(null, 'intelReqdSubGroupSize', k.intelReqdSubGroupSize, md.intelReqdSubGroupSize);
  return out;
}
