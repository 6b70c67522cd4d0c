import { AMDGPU_PROCESSORS, type AmdgpuProcessor, type AmdgpuProcessorName, DEFAULT_AMDGPU_PROCESSOR } from '../../abi/amdgpu-processors.js';
import { Messages } from '../../diagnostics/messages.js';
import type { OptionProblem } from '../option-problem.js';
import { alignTo } from '../../layout/align.js';
import { AMDGCN } from '../../layout/data-layout.js';
import { irAlign } from '../../layout/ir-align.js';
import { layoutOf } from '../../layout/layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { kernelArgTypeName } from '../../types/print.js';
import { canonical } from '../../types/types.js';
import { assertNever } from '../../assert-never.js';
import { classifyArg } from '../../model/arg-class.js';
import { callsTransitively } from '../../abi/call-graph.js';
import type { AmdhsaKernelPlan, AmdhsaPlan, AmdhsaSlot, Bare } from '../../abi/plan.js';
import { placeAmdhsaKernel } from './placement.js';
import { originParam, originRole, withOriginDetail } from '../../abi/origin.js';
import { valueLayout } from '../../layout/value-layout.js';

export type AmdhsaCodeObject = 4 | 5 | 6;
/**
 * The LLVM generation whose AMDGPU backend the layout follows: 16 (ROCm 5.5–5.6), 19 (ROCm 6.4)
 * or 22 (today's LLVM, the default). 19 and 22 give the same hidden arguments (checked against
 * clang-19 and clang-22); 22 aligns by-value records to their C alignment (`byValueAlign`),
 * declares OpenCL C 3.0's optional features for amdgcn and defaults to code object 6.
 */
export type AmdhsaLlvm = 16 | 19 | 22;
export const AMDHSA_LLVMS: readonly AmdhsaLlvm[] = [16, 19, 22];
/** The default generation: the newest one kernarg models. */
export const AMDHSA_DEFAULT_LLVM: AmdhsaLlvm = 22;
export const AMDHSA_CODE_OBJECTS: readonly AmdhsaCodeObject[] = [4, 5, 6];

export interface AmdhsaTargetOptions {
  /** Code object version: 4 (56 hidden bytes), 5 (256) or 6 (LLVM 18 and later; the same kernarg layout as 5). Default: `defaultCodeObject(llvm)`. */
  readonly codeObject?: AmdhsaCodeObject;
  /** Compiler generation (default 22). */
  readonly llvm?: AmdhsaLlvm;
  /** The processor (default gfx900): named in the plan; gfx9 and later lay the segment out alike. */
  readonly mcpu?: AmdgpuProcessorName;
}

/**
 * The code object a generation writes when none is asked for: clang-22 defaults to 6
 * (`.amdhsa_code_object_version 6`); under 19 and 16 kernarg keeps 5, clang-19's default
 * (clang-16's own default is 4, but `--llvm 16` has always meant code object 5 here unless asked).
 */
export function defaultCodeObject(llvm: AmdhsaLlvm): AmdhsaCodeObject {
  switch (llvm) {
    case 22:
      return 6;
    case 19:
    case 16:
      return 5;
    default:
      return assertNever(llvm);
  }
}

/**
 * Why an option set cannot be laid out, or undefined: clang-16 does not know code object 6, an
 * older clang does not know a newer processor, and a generic processor needs code object 6.
 */
export function amdhsaOptionProblem(o: AmdhsaTargetOptions): OptionProblem | undefined {
  const llvm = o.llvm ?? AMDHSA_DEFAULT_LLVM;
  const codeObject = o.codeObject ?? defaultCodeObject(llvm);
  if (codeObject === 6 && llvm < 18) return { message: Messages.codeObject6NeedsLlvm18, args: [] };
  if (o.mcpu === undefined) return undefined;
  const p: AmdgpuProcessor = AMDGPU_PROCESSORS[o.mcpu];
  if (p.since > llvm) return { message: Messages.amdMcpuNeedsLlvm, args: [o.mcpu, p.since, llvm] };
  if (p.generic && codeObject !== 6) return { message: Messages.amdMcpuNeedsCodeObject6, args: [o.mcpu] };
  return undefined;
}

interface Hidden {
  readonly offset: number;
  readonly size: number;
  readonly kind: string;
}

/** What decides which hidden arguments a kernel gets. */
interface HiddenFacts {
  readonly modulePrints: boolean;
  readonly enqueues: boolean;
  /** The kernel has a local-memory pointer parameter (dynamic LDS). */
  readonly dynamicLds: boolean;
}

/**
 * The hidden arguments clang emits at -O0 for gfx900, from the hidden base. Code object 4:
 * slot +24 is the printf buffer when the module calls printf, else the hostcall buffer; +40 is
 * the completion action — LLVM 16 only for kernels that enqueue (else `hidden_none`), LLVM 19
 * always (at -O0 no pass proves it unused). Code objects 5 and 6: the printf buffer only when the
 * module calls printf; the completion action for enqueuers (LLVM 16) or always (LLVM 19 and 22);
 * LLVM 19 and 22 (from LLVM 18, llvm-project #65273) add `hidden_dynamic_lds_size` (u32) at +120 for
 * kernels with local pointer parameters (OpenCL C has no other dynamic LDS);
 * unused entries leave gaps.
 */
function hiddenArgs(codeObject: AmdhsaCodeObject, llvm: AmdhsaLlvm, f: HiddenFacts): Hidden[] {
  const { modulePrints } = f;
  const completion = llvm >= 19 || f.enqueues;
  if (codeObject === 4) {
    return [
      { offset: 0, size: 8, kind: 'hidden_global_offset_x' },
      { offset: 8, size: 8, kind: 'hidden_global_offset_y' },
      { offset: 16, size: 8, kind: 'hidden_global_offset_z' },
      { offset: 24, size: 8, kind: modulePrints ? 'hidden_printf_buffer' : 'hidden_hostcall_buffer' },
      { offset: 32, size: 8, kind: 'hidden_default_queue' },
      { offset: 40, size: 8, kind: completion ? 'hidden_completion_action' : 'hidden_none' },
      { offset: 48, size: 8, kind: 'hidden_multigrid_sync_arg' },
    ];
  }
  const out: Hidden[] = [
    { offset: 0, size: 4, kind: 'hidden_block_count_x' },
    { offset: 4, size: 4, kind: 'hidden_block_count_y' },
    { offset: 8, size: 4, kind: 'hidden_block_count_z' },
    { offset: 12, size: 2, kind: 'hidden_group_size_x' },
    { offset: 14, size: 2, kind: 'hidden_group_size_y' },
    { offset: 16, size: 2, kind: 'hidden_group_size_z' },
    { offset: 18, size: 2, kind: 'hidden_remainder_x' },
    { offset: 20, size: 2, kind: 'hidden_remainder_y' },
    { offset: 22, size: 2, kind: 'hidden_remainder_z' },
    { offset: 40, size: 8, kind: 'hidden_global_offset_x' },
    { offset: 48, size: 8, kind: 'hidden_global_offset_y' },
    { offset: 56, size: 8, kind: 'hidden_global_offset_z' },
    { offset: 64, size: 2, kind: 'hidden_grid_dims' },
  ];
  if (modulePrints) out.push({ offset: 72, size: 8, kind: 'hidden_printf_buffer' });
  out.push(
    { offset: 80, size: 8, kind: 'hidden_hostcall_buffer' },
    { offset: 88, size: 8, kind: 'hidden_multigrid_sync_arg' },
    { offset: 96, size: 8, kind: 'hidden_heap_v1' },
    { offset: 104, size: 8, kind: 'hidden_default_queue' },
  );
  if (completion) out.push({ offset: 112, size: 8, kind: 'hidden_completion_action' });
  if (llvm >= 19 && f.dynamicLds) out.push({ offset: 120, size: 4, kind: 'hidden_dynamic_lds_size' });
  out.push({ offset: 200, size: 8, kind: 'hidden_queue_ptr' });
  return out;
}

/**
 * The alignment a by-value argument's kernarg slot is rounded to. Up to LLVM 19 clang passes a
 * struct or union as its LLVM IR type, aligned as that type (an `aligned` attribute becomes
 * padding, not alignment). clang-22 passes records `byref` with their C alignment (`ptr
 * addrspace(4) byref(%struct.S) align 32`), so an `aligned(32)` struct moves to a multiple of 32
 * and raises the segment alignment; scalars and vectors are passed as before.
 */
function byValueAlign(type: FunctionInfo['params'][number]['type'], llvm: AmdhsaLlvm): number {
  if (llvm >= 22 && canonical(type).type.kind === 'record') return layoutOf(type, AMDGCN).align;
  return irAlign(type, AMDGCN);
}

/** An explicit slot as `explicitSlot` makes it: where and fill are its last keys, written by `placeAmdhsaKernel`. */
type Unplaced = Bare<AmdhsaSlot> & { where: undefined; fill: undefined };

/**
 * One explicit argument at `offset`, rounded up to its alignment, as one object literal per
 * shape. Fields in the order the JSON shows them: name, param, typeName, type, role (origin),
 * offset, size, valueKind, then the kind's own fields, and align.
 */
function explicitSlot(p: FunctionInfo['params'][number], offset: number, llvm: AmdhsaLlvm): Bare<AmdhsaSlot> {
  const name = p.name;
  const param = originParam(p);
  const type = p.type;
  const typeName = kernelArgTypeName(type);
  const arg = classifyArg(type);
  let s: Unplaced;
  switch (arg.kind) {
    case 'local': {
      const pointeeAlign = arg.pointee.type.kind === 'scalar' && arg.pointee.type.name === 'void' ? 1 : layoutOf(arg.pointee, AMDGCN).align;
      s = { name, param, typeName, type, role: originRole(p, 'local'), offset: alignTo(offset, 4), size: 4, valueKind: 'dynamic_shared_pointer', addressSpace: 'local', pointeeAlign, align: 4, where: undefined, fill: undefined };
      break;
    }
    case 'buffer':
      s = { name, param, typeName, type, role: originRole(p, 'data'), offset: alignTo(offset, 8), size: 8, valueKind: 'global_buffer', addressSpace: arg.space, align: 8, where: undefined, fill: undefined };
      break;
    case 'image':
    case 'pipe':
      s = { name, param, typeName, type, role: originRole(p, arg.kind), offset: alignTo(offset, 8), size: 8, valueKind: arg.kind, access: arg.access, align: 8, where: undefined, fill: undefined };
      break;
    case 'sampler':
    case 'queue':
      s = { name, param, typeName, type, role: originRole(p, arg.kind), offset: alignTo(offset, 8), size: 8, valueKind: arg.kind, align: 8, where: undefined, fill: undefined };
      break;
    case 'pod':
    case 'event':
    case 'opaque': {
      const align = byValueAlign(type, llvm);
      s = { name, param, typeName, type, role: originRole(p, 'value'), offset: alignTo(offset, align), size: layoutOf(type, AMDGCN).size, valueKind: 'by_value', layout: valueLayout(type, AMDGCN), align, where: undefined, fill: undefined };
      break;
    }
    default:
      return assertNever(arg);
  }
  return withOriginDetail(s, p);
}

/**
 * The hidden slots of every kernel whose hidden arguments start at `base`, made once per lowering
 * and shared by the kernels' plans (slots are read-only): a file of thousands of kernels builds
 * a handful of lists, and the JSON emitter renders each shared slot once. `hidden_dynamic_lds_size`
 * is filled from the kernel's local arguments, so their names are part of the key.
 */
class HiddenSlots {
  private readonly lists = new Map<string, readonly Bare<AmdhsaSlot>[]>();
  constructor(private readonly codeObject: AmdhsaCodeObject, private readonly llvm: AmdhsaLlvm) {}
  at(base: number, f: HiddenFacts, localNames: readonly string[]): readonly Bare<AmdhsaSlot>[] {
    const key = `${base}:${f.modulePrints ? 1 : 0}${f.enqueues ? 1 : 0}${f.dynamicLds ? 1 : 0}:${localNames.join(',')}`;
    let list = this.lists.get(key);
    if (!list) {
      list = hiddenArgs(this.codeObject, this.llvm, f).map((h) => ({ name: h.kind, param: null, role: 'hidden', offset: base + h.offset, size: h.size, valueKind: h.kind, align: h.size }));
      this.lists.set(key, list);
    }
    return list;
  }
}

/** ROCm's kernarg segment for amdgcn-amd-amdhsa (gfx900, and every gfx9+ processor alike), as clang-16, clang-19 or clang-22 lays it out at -O0. */
export function lowerAmdhsa(module: KernelModule, options: AmdhsaTargetOptions = {}): AmdhsaPlan {
  const llvm = options.llvm ?? AMDHSA_DEFAULT_LLVM;
  const codeObject = options.codeObject ?? defaultCodeObject(llvm);
  const modulePrints = module.functions.some((f) => f.calls.some((c) => c.name === 'printf'));
  const hidden = new HiddenSlots(codeObject, llvm);
  const kernels: AmdhsaKernelPlan[] = kernelsOf(module).map((k) => {
    const params = k.params;
    const explicit = new Array<Bare<AmdhsaSlot>>(params.length);
    let offset = 0;
    let maxAlign = 4;
    let dynamicLds = false;
    const localNames: string[] = [];
    for (let i = 0; i < params.length; i++) {
      const slot = explicitSlot(params[i], offset, llvm);
      explicit[i] = slot;
      offset = slot.offset + slot.size;
      maxAlign = Math.max(maxAlign, slot.align!);
      if (slot.valueKind === 'dynamic_shared_pointer') {
        dynamicLds = true;
        localNames.push(slot.name);
      }
    }
    const hiddenBase = alignTo(offset, 8);
    const enqueues = callsTransitively(module, k, 'enqueue_kernel');
    const shared = hidden.at(hiddenBase, { modulePrints, enqueues, dynamicLds }, localNames);
    // Made at its final length (a list made by pushes regrows as the ~20 hidden slots go on).
    const args = new Array<Bare<AmdhsaSlot>>(explicit.length + shared.length);
    for (let i = 0; i < explicit.length; i++) args[i] = explicit[i];
    for (let i = 0; i < shared.length; i++) args[explicit.length + i] = shared[i];
    const hiddenBytes = codeObject === 4 ? 56 : 256;
    return placeAmdhsaKernel({
      name: k.name,
      args,
      kernargSegmentSize: alignTo(hiddenBase + hiddenBytes, 4),
      kernargSegmentAlign: Math.max(maxAlign, 8),
      hiddenBytes,
    });
  });
  return { target: 'amdhsa', codeObject, llvm, mcpu: options.mcpu ?? DEFAULT_AMDGPU_PROCESSOR, kernels };
}
