import { type KernelSeq, kernelSeq } from '../../abi/stream-plan.js';
import { alignTo } from '../../layout/align.js';
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { SPIR } from '../../layout/data-layout.js';
import { irAlign } from '../../layout/ir-align.js';
import { layoutOf } from '../../layout/layout.js';
import { type FunctionInfo, type KernelModule, type Parameter, kernelsOf } from '../../model/kernel-module.js';
import { KernelShapeMemo } from '../../abi/kernel-shape-memo.js';
import { markSharedRun } from '../../abi/shared-runs.js';
import { kernelArgTypeName } from '../../types/print.js';
import { assertNever } from '../../assert-never.js';
import { classifyArg } from '../../model/arg-class.js';
import { type LlvmKernelPlan, checkKernelCalls, llvmArg, llvmKernelPlan } from '../../abi/llvm-kernel.js';
import { type Draft, originParam, originRole, withOriginDetail } from '../../abi/origin.js';
import type { Bare } from '../../abi/plan.js';
import type { R600KernelPlan, R600Plan, R600Slot } from './plan.js';
import { placeR600Kernel } from './placement.js';
import { valueLayout } from '../../layout/value-layout.js';
import { someKernelMayReport } from '../../abi/may-report.js';

export type { R600KernelPlan, R600Plan, R600Slot } from './plan.js';

/** The first explicit argument's offset on r600 (9 implicit dwords: ngroups, global size, local size). */
export const R600_EXPLICIT_OFFSET = 36;

/** Resource IDs handed out so far in one kernel: read-only images, write-only images and samplers each count from 0. */
type Counters = { read_only: number; write_only: number; sampler: number };

/** One kernel's input buffer being laid out: slots in order, each at its alignment. */
class InputBuffer {
  readonly args: Bare<R600Slot>[] = [];
  off = R600_EXPLICIT_OFFSET;
  // Fields in the JSON's order: the slot's own, then its offset (aligned here).
  push(slot: Draft<Omit<Bare<R600Slot>, 'offset'>> & { offset?: number }, align: number): void {
    this.off = alignTo(this.off, align);
    slot.offset = this.off;
    this.args.push(slot as Bare<R600Slot>);
    this.off += slot.size;
  }
}

/** A parameter's slot, its offset to come: the fields every kind has, the origin's `dim` and `host` after `role`. */
function base(
  p: Parameter,
  role: R600Slot['role'],
  typeName: string,
  size: number,
): Draft<Omit<Bare<R600Slot>, 'offset'>> {
  const slot: Draft<Omit<Bare<R600Slot>, 'offset'>> = {
    name: p.name,
    param: originParam(p),
    role: originRole(p, role),
    typeName,
    size,
  };
  return withOriginDetail(slot, p);
}

/** Every handle the pass leaves alone is a 32-bit pointer. */
function handle(buf: InputBuffer, p: Parameter, role: R600Slot['role'], typeName: string, access?: string): void {
  const slot = base(p, role, typeName, 4);
  slot.irType = 'ptr';
  if (access) slot.accessQual = access;
  buf.push(slot, 4);
}

/**
 * One parameter's slots: the pass recognizes images and samplers by their kernel_arg_type spelling, so typedef names
 * are left alone.
 */
function paramSlots(buf: InputBuffer, p: Parameter, counters: Counters, diags: DiagnosticBag): void {
  const arg = classifyArg(p.type);
  const role = llvmArg(arg).role;
  const typeName = kernelArgTypeName(p.type);
  switch (arg.kind) {
    case 'image': {
      if (typeName !== 'image2d_t' && typeName !== 'image3d_t') return handle(buf, p, role, typeName, arg.access);
      if (arg.access === 'read_write') {
        diags.report(Messages.r600ReadWriteImage, p.span, [p.name]);
        return;
      }
      const image = base(p, role, typeName, 4);
      image.role = 'image';
      image.irType = 'ptr addrspace(1)';
      image.accessQual = arg.access;
      image.resourceId = counters[arg.access]++;
      buf.push(image, 4);
      buf.push(
        {
          name: `__size_${p.name}`,
          param: null,
          role: 'image-size',
          size: 12,
          irType: '[3 x i32]',
          typeName: '__llvm_image_size',
          image: p.name,
          fields: ['width', 'height', 'depth'],
        },
        4,
      );
      buf.push(
        {
          name: `__format_${p.name}`,
          param: null,
          role: 'image-format',
          size: 8,
          irType: '[2 x i32]',
          typeName: '__llvm_image_format',
          image: p.name,
          fields: ['channel_data_type', 'channel_order'],
        },
        4,
      );
      return;
    }
    case 'sampler': {
      if (typeName !== 'sampler_t') return handle(buf, p, role, typeName);
      const sampler = base(p, role, typeName, 4);
      sampler.role = 'sampler';
      sampler.irType = 'ptr addrspace(4)';
      sampler.resourceId = counters.sampler++;
      buf.push(sampler, 4);
      return;
    }
    case 'buffer':
    case 'local':
    case 'pipe':
    case 'queue':
    case 'event':
    case 'opaque':
      return handle(buf, p, role, typeName);
    case 'pod': {
      const value = base(p, role, typeName, layoutOf(p.type, SPIR).size);
      value.layout = valueLayout(p.type, SPIR);
      buf.push(value, irAlign(p.type, SPIR));
      return;
    }
    default:
      assertNever(arg);
  }
}

/**
 * clover's two trailing slots depend only on where they start: made once per offset per lowering, shared (read-only).
 */
class TrailingSlots {
  private readonly lists = new Map<number, readonly Bare<R600Slot>[]>();
  at(off: number): readonly Bare<R600Slot>[] {
    let tail = this.lists.get(off);
    if (!tail) {
      tail = [
        { name: 'grid_dimension', param: null, role: 'hidden', size: 4, irType: 'i32', typeName: 'uint', offset: off },
        {
          name: 'grid_offset',
          param: null,
          role: 'hidden',
          size: 12,
          irType: '[3 x i32]',
          typeName: 'uint',
          fields: ['x', 'y', 'z'],
          offset: off + 4,
        },
      ];
      this.lists.set(off, tail);
    } else markSharedRun(tail[0]);
    return tail;
  }
}

function kernelPlan(k: FunctionInfo, trailing: TrailingSlots, diags: DiagnosticBag): R600KernelPlan {
  const buf = new InputBuffer();
  const counters: Counters = { read_only: 0, write_only: 0, sampler: 0 };
  for (const p of k.params) paramSlots(buf, p, counters, diags);
  // clover appends these after every explicit argument.
  const off = alignTo(buf.off, 4);
  for (const s of trailing.at(off)) buf.args.push(s);
  return placeR600Kernel({ name: k.name, args: buf.args, inputSize: off + 16 });
}

/**
 * What LLVM's R600 OpenCL Image Type Pass does to the legacy `!opencl.kernels` module, and what
 * clover then binds: each `image2d_t`/`image3d_t` argument is followed by `__size_<name>` and
 * `__format_<name>`; resource IDs count read-only images, write-only images and samplers.
 */
export function r600Plan(module: KernelModule, diags: DiagnosticBag): R600Plan | undefined {
  const { head, kernels } = r600Kernelwise(module, diags);
  const plans: R600KernelPlan[] = [];
  for (let it = kernels(diags), k = it.next(); !k.done; k = it.next()) plans.push(k.value);
  if (diags.hasErrors) return undefined;
  return { ...head, kernels: plans };
}

/**
 * `r600Plan` a kernel at a time: each kernel's arguments are its own (the trailing slots shared
 * as lists made once). A kernel's image arguments can be refused: its diagnostics go to `diags`.
 */
export function r600Kernelwise(
  module: KernelModule,
  diags: DiagnosticBag,
): { head: Omit<R600Plan, 'kernels'>; count: number; kernels: (diags: DiagnosticBag) => Iterator<R600KernelPlan> } {
  checkKernelCalls(module, false, diags, Messages.r600KernelCall);
  const trailing = new TrailingSlots();
  const kernels = kernelsOf(module);
  return {
    head: { target: 'r600', mcpu: 'cypress' },
    count: kernels.length,
    *kernels(diags) {
      const memo = new KernelShapeMemo<R600KernelPlan>(module);
      const make = (k: FunctionInfo) => kernelPlan(k, trailing, diags);
      for (const k of kernels) yield memo.plan(k, make, diags);
    },
  };
}

/**
 * Whether lowering some kernel can report (what a streamed lowering asks before it writes: `KernelwiseLowering.quiet`):
 * a parameter `paramSlots` refuses (a `read_write` image), which its type alone decides.
 */
export function r600MayReport(module: KernelModule): boolean {
  return someKernelMayReport(kernelsOf(module), (p) => {
    const heard = new DiagnosticBag();
    paramSlots(new InputBuffer(), p, { read_only: 0, write_only: 0, sampler: 0 }, heard);
    return heard.items.length ? undefined : 0;
  });
}

/** The kernels as LLVM IR sees them before the pass (what `--format llvm-ir` prints). */
export function r600LlvmKernels(module: KernelModule): LlvmKernelPlan[] {
  return kernelsOf(module).map((k) => llvmKernelPlan(k, SPIR));
}

/** `r600LlvmKernels`, each made as it is iterated. */
export function r600LlvmKernelSeq(module: KernelModule): KernelSeq<LlvmKernelPlan> {
  const kernels = kernelsOf(module);
  const make = (k: FunctionInfo) => llvmKernelPlan(k, SPIR);
  return kernelSeq(kernels.length, function* () {
    const memo = new KernelShapeMemo<LlvmKernelPlan>(module);
    for (const k of kernels) yield memo.plan(k, make);
  });
}

/** The r600 plan and the LLVM kernels it comes from. */
export function lowerR600(
  module: KernelModule,
  diags: DiagnosticBag,
): { plan: R600Plan; llvm: LlvmKernelPlan[] } | undefined {
  const plan = r600Plan(module, diags);
  return plan && { plan, llvm: r600LlvmKernels(module) };
}
