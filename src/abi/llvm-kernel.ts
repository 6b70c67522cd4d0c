/**
 * Kernels as LLVM IR sees them: the triples, the `kernel_arg_*` metadata per argument. Shared by the llvm and r600
 * targets and the LLVM IR printer.
 */
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import type { Message } from '../diagnostics/messages.js';
import { type DataLayout, DATA_LAYOUTS } from '../layout/data-layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../model/kernel-module.js';
import { clangTypeString, kernelArgTypeName, kernelArgTypeQual } from '../types/print.js';
import { type QualType, type Type, canonical } from '../types/types.js';
import { type Draft, originParam, originRole, withOriginDetail } from './origin.js';
import { placeSlot } from './slot-shape.js';
import { assertNever } from '../assert-never.js';
import { type ArgClass, classifyArg } from '../model/arg-class.js';
import type { Bare, KernelPlanBase, SlotBase } from './plan.js';

export const TRIPLES = [
  'spir64-unknown-unknown',
  'spir-unknown-unknown',
  'amdgcn-amd-amdhsa',
  'nvptx64-nvidia-cuda',
  'r600',
] as const;
export type Triple = (typeof TRIPLES)[number];

export interface TripleInfo {
  readonly datalayout: string;
  readonly kernelCC: string;
  /** Calling convention of other functions ('' for the default C convention). */
  readonly functionCC: string;
  readonly layout: DataLayout;
  /** IR address space numbers. */
  readonly spaces: { private: number; global: number; constant: number; local: number; generic: number };
  readonly image: number;
  readonly sampler: number;
  readonly queue: number;
  /** Aggregates by value: `byval` pointer (spir, nvptx) or the struct value itself (amdgcn, r600). */
  readonly byval: boolean;
}

const VEC_DL = 'v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024';
const SPIR_SPACES = { private: 0, global: 1, constant: 2, local: 3, generic: 4 };
const AMD_SPACES = { private: 5, global: 1, constant: 4, local: 3, generic: 0 };

/** What each `--triple` means for the emitted module (data layouts as clang-16 writes them). */
export const TRIPLE_INFO: Record<Triple, TripleInfo> = {
  'spir64-unknown-unknown': {
    datalayout: `e-i64:64-${VEC_DL}`,
    kernelCC: 'spir_kernel',
    functionCC: 'spir_func',
    layout: DATA_LAYOUTS.spir64,
    spaces: SPIR_SPACES,
    image: 1,
    sampler: 2,
    queue: 0,
    byval: true,
  },
  'spir-unknown-unknown': {
    datalayout: `e-p:32:32-i64:64-${VEC_DL}`,
    kernelCC: 'spir_kernel',
    functionCC: 'spir_func',
    layout: DATA_LAYOUTS.spir,
    spaces: SPIR_SPACES,
    image: 1,
    sampler: 2,
    queue: 0,
    byval: true,
  },
  'amdgcn-amd-amdhsa': {
    datalayout: `e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-${VEC_DL}-v2048:2048-n32:64-S32-A5-G1-ni:7`,
    kernelCC: 'amdgpu_kernel',
    functionCC: '',
    layout: DATA_LAYOUTS.amdgcn,
    spaces: AMD_SPACES,
    image: 4,
    sampler: 4,
    queue: 1,
    byval: false,
  },
  'nvptx64-nvidia-cuda': {
    datalayout: 'e-i64:64-i128:128-v16:16-v32:32-n16:32:64',
    kernelCC: 'ptx_kernel',
    functionCC: '',
    layout: DATA_LAYOUTS.spir64,
    spaces: { private: 0, global: 1, constant: 4, local: 3, generic: 0 },
    image: 1,
    sampler: 4,
    queue: 0,
    byval: true,
  },
  r600: {
    datalayout: `e-p:32:32-i64:64-${VEC_DL}-v2048:2048-n32:64-S32-A5-G1`,
    kernelCC: 'amdgpu_kernel',
    functionCC: '',
    layout: DATA_LAYOUTS.spir,
    spaces: AMD_SPACES,
    image: 1,
    sampler: 4,
    queue: 1,
    byval: false,
  },
};

/** SPIR address-space numbers, as `kernel_arg_addr_space` uses them on every target. */
const SPIR_NUMBER = { private: 0, global: 1, constant: 2, local: 3, generic: 4 } as const;

/** One kernel argument with the metadata clang attaches to it. */
export interface LlvmSlot extends SlotBase {
  readonly addrSpace: number;
  readonly accessQual: string;
  readonly typeName: string;
  readonly baseType: string;
  readonly typeQual: string;
  readonly type: QualType;
}

export interface LlvmKernelPlan extends KernelPlanBase<LlvmSlot> {
  readonly reqdWorkGroupSize?: readonly [number, number, number];
  readonly workGroupSizeHint?: readonly [number, number, number];
  readonly vecTypeHint?: string;
  readonly intelReqdSubGroupSize?: number;
}

/** The canonical spelling clang uses for `kernel_arg_base_type`: typedefs resolved, vectors as ext_vector_type. */
export function baseTypeName(t: QualType | Type, dl: DataLayout): string {
  const q0: QualType = 'kind' in t ? { type: t } : t;
  const ty = q0.type;
  if (ty.kind === 'typedef') return baseTypeName(ty.target, dl);
  switch (ty.kind) {
    case 'scalar':
      if (ty.name === 'size_t' || ty.name === 'uintptr_t') return dl.sizeT === 8 ? 'ulong' : 'uint';
      if (ty.name === 'ptrdiff_t' || ty.name === 'intptr_t') return dl.sizeT === 8 ? 'long' : 'int';
      return ty.name;
    case 'vector':
      return `${ty.element} __attribute__((ext_vector_type(${ty.length})))`;
    case 'pointer':
      if (canonical(ty.pointee).type.kind === 'pointer') return `${clangTypeString(canonical(ty.pointee).type)}*`;
      return `${baseTypeName(ty.pointee, dl)}*`;
    case 'pipe':
      return baseTypeName(ty.element, dl);
    case 'array': {
      // Dimensions follow the element; a vector element's attribute follows them: `char[3][8]
      // __attribute__((ext_vector_type(2)))`.
      let dims = '';
      let element: QualType = q0;
      while (element.type.kind === 'array') {
        dims += `[${element.type.length ?? ''}]`;
        element = canonical(element.type.element);
      }
      const e = element.type;
      if (e.kind === 'vector') return `${e.element}${dims} __attribute__((ext_vector_type(${e.length})))`;
      return `${baseTypeName(e, dl)}${dims}`;
    }
    default:
      return kernelArgTypeName(ty);
  }
}

/** The slot role, `kernel_arg_addr_space` (SPIR numbers) and `kernel_arg_access_qual` of each argument class. */
export function llvmArg(a: ArgClass): { role: SlotBase['role']; addrSpace: number; accessQual: string } {
  switch (a.kind) {
    case 'buffer':
      return { role: 'data', addrSpace: SPIR_NUMBER[a.pointee.space ?? 'generic'], accessQual: 'none' };
    case 'local':
      return { role: 'local', addrSpace: SPIR_NUMBER.local, accessQual: 'none' };
    case 'image':
    case 'pipe':
      return { role: a.kind, addrSpace: SPIR_NUMBER.global, accessQual: a.access };
    case 'sampler':
    case 'queue':
      return { role: a.kind, addrSpace: SPIR_NUMBER.private, accessQual: 'none' };
    case 'pod':
    case 'event':
    case 'opaque':
      return { role: 'value', addrSpace: SPIR_NUMBER.private, accessQual: 'none' };
    default:
      return assertNever(a);
  }
}

/** A kernel that calls a kernel needs the entry/body split; without `--kernel-stubs` it is an error. */
export function checkKernelCalls(
  module: KernelModule,
  kernelStubs: boolean,
  diags: DiagnosticBag,
  message: Message,
): void {
  if (kernelStubs) return;
  // The kernels' names, made at the first call: a file of very many kernels seldom has any.
  let kernels: ReadonlySet<string> | undefined;
  for (const f of module.functions) {
    if (f.calls.length === 0) continue;
    kernels ??= new Set(kernelsOf(module).map((k) => k.name));
    for (const c of f.calls) {
      if (kernels.has(c.name)) diags.report(message, c.span, [f.isKernel ? 'kernel' : 'function', f.name, c.name]);
    }
  }
}

export function llvmKernelPlan(k: FunctionInfo, dl: DataLayout): LlvmKernelPlan {
  const args: Bare<LlvmSlot>[] = k.params.map((p) => {
    const arg = llvmArg(classifyArg(p.type));
    const s: Bare<LlvmSlot> = {
      name: p.name,
      param: originParam(p),
      role: originRole(p, arg.role),
      addrSpace: arg.addrSpace,
      accessQual: arg.accessQual,
      typeName: kernelArgTypeName(p.type),
      baseType: baseTypeName(p.type, dl),
      typeQual: kernelArgTypeQual(p.type),
      type: p.type,
    };
    return withOriginDetail(s, p);
  });
  const plan: Draft<Omit<LlvmKernelPlan, 'args'>> & { args: Bare<LlvmSlot>[] } = { name: k.name, args };
  const a = k.attributes;
  if (a.reqdWorkGroupSize) plan.reqdWorkGroupSize = a.reqdWorkGroupSize;
  if (a.workGroupSizeHint) plan.workGroupSizeHint = a.workGroupSizeHint;
  if (a.vecTypeHint) plan.vecTypeHint = kernelArgTypeName(a.vecTypeHint);
  if (a.intelReqdSubGroupSize) plan.intelReqdSubGroupSize = a.intelReqdSubGroupSize;
  return placeLlvmKernel(plan);
}

/**
 * A kernel whose slots carry their `where` and `fill`: each slot is the LLVM IR kernel parameter
 * at its index, filled with the argument's value as the IR passes it. The plan gives no sizes to
 * place bytes by (its JSON form carries no types), so no packer packs an llvm plan: it refuses,
 * naming the argument.
 */
export function placeLlvmKernel<K extends Omit<LlvmKernelPlan, 'args'> & { readonly args: readonly Bare<LlvmSlot>[] }>(
  k: K,
): K & LlvmKernelPlan {
  k.args.forEach((a, index) =>
    placeSlot<LlvmSlot>(a, { kind: 'ir-param', index }, { kind: 'ir-value', param: a.name }),
  );
  return k as K & LlvmKernelPlan;
}
