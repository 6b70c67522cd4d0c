import type { SlotLiteral } from '../../abi/slot-shape.js';
import { amdhsaSlot } from './slot.js';
import {
  AMDGPU_PROCESSORS,
  type AmdgpuProcessor,
  type AmdgpuProcessorName,
  DEFAULT_AMDGPU_PROCESSOR,
} from '../../abi/amdgpu-processors.js';
import { Messages } from '../../diagnostics/messages.js';
import type { OptionProblem } from '../option-problem.js';
import { alignTo } from '../../layout/align.js';
import { AMDGCN } from '../../layout/data-layout.js';
import { irAlign } from '../../layout/ir-align.js';
import { layoutOf } from '../../layout/layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { markSharedRun } from '../../abi/shared-runs.js';
import { KernelShapeMemo } from '../../abi/kernel-shape-memo.js';
import { kernelArgTypeName } from '../../types/print.js';
import { canonical } from '../../types/types.js';
import { assertNever } from '../../assert-never.js';
import { classifyArg } from '../../model/arg-class.js';
import { callsTransitively } from '../../abi/call-graph.js';
import type { AmdhsaKernelPlan, AmdhsaPlan, AmdhsaSlot, Bare } from '../../abi/plan.js';
import { placeAmdhsaKernel } from './placement.js';
import { originParam, originRole, withOriginDetail } from '../../abi/origin.js';
import { valueLayout } from '../../layout/value-layout.js';
import { type AmdhsaCodeObject, type AmdhsaLlvm, HIDDEN_BYTES, type HiddenFacts, hiddenArgs } from './hidden-args.js';

export type { AmdhsaCodeObject, AmdhsaLlvm };
/**
 * The generations kernarg models (see `AmdhsaLlvm`): beyond the hidden arguments, 22 aligns
 * by-value records to their C alignment (`byValueAlign`), declares OpenCL C 3.0's optional
 * features for amdgcn and defaults to code object 6.
 */
export const AMDHSA_LLVMS: readonly AmdhsaLlvm[] = [16, 19, 22];
/** The default generation: the newest one kernarg models. */
export const AMDHSA_DEFAULT_LLVM: AmdhsaLlvm = 22;
export const AMDHSA_CODE_OBJECTS: readonly AmdhsaCodeObject[] = [4, 5, 6];

export interface AmdhsaTargetOptions {
  /**
   * Code object version: 4 (56 hidden bytes), 5 (256) or 6 (LLVM 18 and later; the same kernarg layout as 5). Default:
   * `defaultCodeObject(llvm)`.
   */
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

/**
 * One explicit argument at `offset`, rounded up to its alignment, as one object literal per shape
 * (src/abi/slot-shape.ts says why).
 */
function explicitSlot(p: FunctionInfo['params'][number], offset: number, llvm: AmdhsaLlvm): Bare<AmdhsaSlot> {
  const name = p.name;
  const param = originParam(p);
  const type = p.type;
  const typeName = kernelArgTypeName(type);
  const arg = classifyArg(type);
  let s: SlotLiteral<AmdhsaSlot>;
  switch (arg.kind) {
    case 'local': {
      const pointeeAlign =
        arg.pointee.type.kind === 'scalar' && arg.pointee.type.name === 'void'
          ? 1
          : layoutOf(arg.pointee, AMDGCN).align;
      s = amdhsaSlot({
        name,
        param,
        typeName,
        type,
        role: originRole(p, 'local'),
        offset: alignTo(offset, 4),
        size: 4,
        valueKind: 'dynamic_shared_pointer',
        addressSpace: 'local',
        pointeeAlign,
        align: 4,
      });
      break;
    }
    case 'buffer':
      s = amdhsaSlot({
        name,
        param,
        typeName,
        type,
        role: originRole(p, 'data'),
        offset: alignTo(offset, 8),
        size: 8,
        valueKind: 'global_buffer',
        addressSpace: arg.space,
        align: 8,
      });
      break;
    case 'image':
    case 'pipe':
      s = amdhsaSlot({
        name,
        param,
        typeName,
        type,
        role: originRole(p, arg.kind),
        offset: alignTo(offset, 8),
        size: 8,
        valueKind: arg.kind,
        access: arg.access,
        align: 8,
      });
      break;
    case 'sampler':
    case 'queue':
      s = amdhsaSlot({
        name,
        param,
        typeName,
        type,
        role: originRole(p, arg.kind),
        offset: alignTo(offset, 8),
        size: 8,
        valueKind: arg.kind,
        align: 8,
      });
      break;
    case 'pod':
    case 'event':
    case 'opaque': {
      const align = byValueAlign(type, llvm);
      s = amdhsaSlot({
        name,
        param,
        typeName,
        type,
        role: originRole(p, 'value'),
        offset: alignTo(offset, align),
        size: layoutOf(type, AMDGCN).size,
        valueKind: 'by_value',
        layout: valueLayout(type, AMDGCN),
        align,
      });
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
  constructor(
    private readonly codeObject: AmdhsaCodeObject,
    private readonly llvm: AmdhsaLlvm,
  ) {}
  at(base: number, f: HiddenFacts, localNames: readonly string[]): readonly Bare<AmdhsaSlot>[] {
    const key = `${base}:${f.modulePrints ? 1 : 0}${f.enqueues ? 1 : 0}${f.dynamicLds ? 1 : 0}:${localNames.join(',')}`;
    let list = this.lists.get(key);
    if (!list) {
      list = hiddenArgs(this.codeObject, this.llvm, f).map((h) =>
        amdhsaSlot({
          name: h.kind,
          param: null,
          role: 'hidden',
          offset: base + h.offset,
          size: h.size,
          valueKind: h.kind,
          align: h.size,
        }),
      );
      this.lists.set(key, list);
    } else markSharedRun(list[0]);
    return list;
  }
}

/**
 * ROCm's kernarg segment for amdgcn-amd-amdhsa (gfx900, and every gfx9+ processor alike), as clang-16, clang-19 or
 * clang-22 lays it out at -O0.
 */
export function lowerAmdhsa(module: KernelModule, options: AmdhsaTargetOptions = {}): AmdhsaPlan {
  const { head, kernels } = amdhsaKernelwise(module, options);
  return { ...head, kernels: Array.from({ [Symbol.iterator]: kernels }) };
}

/**
 * `lowerAmdhsa` a kernel at a time: the plan's fields, then each kernel's plan made as it is
 * iterated. Only `printf` anywhere in the module and the call graph reach across kernels, and
 * both are read off the module, not off other kernels' plans.
 */
export function amdhsaKernelwise(
  module: KernelModule,
  options: AmdhsaTargetOptions = {},
): { head: Omit<AmdhsaPlan, 'kernels'>; count: number; kernels: () => Iterator<AmdhsaKernelPlan> } {
  const llvm = options.llvm ?? AMDHSA_DEFAULT_LLVM;
  const codeObject = options.codeObject ?? defaultCodeObject(llvm);
  const modulePrints = module.functions.some((f) => f.calls.some((c) => c.name === 'printf'));
  const hidden = new HiddenSlots(codeObject, llvm);
  const kernels = kernelsOf(module);
  const head = { target: 'amdhsa', codeObject, llvm, mcpu: options.mcpu ?? DEFAULT_AMDGPU_PROCESSOR } as const;
  return {
    head,
    count: kernels.length,
    *kernels() {
      const memo = new KernelShapeMemo<AmdhsaKernelPlan>(module);
      const make = (k: FunctionInfo) => amdhsaKernel(module, k, llvm, codeObject, modulePrints, hidden);
      for (const k of kernels) yield memo.plan(k, make);
    },
  };
}

function amdhsaKernel(
  module: KernelModule,
  k: FunctionInfo,
  llvm: AmdhsaLlvm,
  codeObject: AmdhsaCodeObject,
  modulePrints: boolean,
  hidden: HiddenSlots,
): AmdhsaKernelPlan {
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
  const hiddenBytes = HIDDEN_BYTES[codeObject];
  return placeAmdhsaKernel({
    name: k.name,
    args,
    kernargSegmentSize: alignTo(hiddenBase + hiddenBytes, 4),
    kernargSegmentAlign: Math.max(maxAlign, 8),
    hiddenBytes,
  });
}
