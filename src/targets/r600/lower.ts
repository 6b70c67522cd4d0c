import { alignTo } from '../../layout/align.js';
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { SPIR } from '../../layout/data-layout.js';
import { irAlign } from '../../layout/ir-align.js';
import { layoutOf } from '../../layout/layout.js';
import { type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { canonical } from '../../types/types.js';
import { type LlvmKernelPlan, type LlvmSlot, checkKernelCalls, llvmKernelPlan } from '../../abi/llvm-kernel.js';
import { originFields } from '../../abi/origin.js';
import type { KernelPlanBase, SlotBase } from '../../abi/plan.js';
import { valueLayout } from '../../layout/value-layout.js';

/** One argument of the kernel after the R600 image pass, plus clover's implicit ones. */
export interface R600Slot extends SlotBase {
  /** Byte offset in the r600 kernel input buffer (explicit arguments start after 36 bytes of implicit dwords). */
  readonly offset: number;
  readonly size: number;
  /** LLVM type of the argument after the pass (handles and the inserted arrays). */
  readonly irType?: string;
  readonly typeName: string;
  readonly accessQual?: string;
  /** Images: index among read-only or write-only images; samplers: index among samplers. */
  readonly resourceId?: number;
  /** For `image-size` and `image-format` slots: the image argument they describe. */
  readonly image?: string;
  /** What the runtime writes, in order: width/height/depth or channel data type/order (cl_uint each). */
  readonly fields?: readonly string[];
  readonly layout?: ReturnType<typeof valueLayout>;
}

export interface R600KernelPlan extends KernelPlanBase<R600Slot> {
  readonly inputSize: number;
}

export interface R600Plan {
  readonly target: 'r600';
  readonly mcpu: 'cypress';
  readonly kernels: readonly R600KernelPlan[];
}

/** The first explicit argument's offset on r600 (9 implicit dwords: ngroups, global size, local size). */
export const R600_EXPLICIT_OFFSET = 36;

/**
 * What LLVM's R600 OpenCL Image Type Pass does to the legacy `!opencl.kernels` module, and what
 * clover then binds: each `image2d_t`/`image3d_t` argument is followed by `__size_<name>` and
 * `__format_<name>`; resource IDs count read-only images, write-only images and samplers.
 */
export function lowerR600(module: KernelModule, diags: DiagnosticBag): { plan: R600Plan; llvm: LlvmKernelPlan[] } | undefined {
  checkKernelCalls(module, false, diags, 'the r600 module has no kernel entry/body split');
  const kernels: R600KernelPlan[] = [];
  const llvm: LlvmKernelPlan[] = [];
  for (const k of kernelsOf(module)) {
    const lp = llvmKernelPlan(k, SPIR);
    llvm.push(lp);
    const args: R600Slot[] = [];
    let off = R600_EXPLICIT_OFFSET;
    const counters = { read_only: 0, write_only: 0, sampler: 0 };
    const push = (slot: Omit<R600Slot, 'offset'>, align: number) => {
      off = alignTo(off, align);
      args.push({ ...slot, offset: off } as R600Slot);
      off += slot.size;
    };
    for (const [i, p] of k.params.entries()) {
      const a: LlvmSlot = lp.args[i];
      const c = canonical(p.type);
      const t = c.type;
      const base = { name: p.name, ...originFields(p, a.role), typeName: a.typeName };
      // The pass recognizes images and samplers by their kernel_arg_type spelling, so typedef names are left alone.
      if (t.kind === 'image' && (a.typeName === 'image2d_t' || a.typeName === 'image3d_t')) {
        const access = c.access ?? 'read_only';
        if (access === 'read_write') {
          diags.report(Messages.unsupportedForTarget, p.span, [`the R600 image pass handles read_only and write_only images only, not read_write '${p.name}'`]);
          continue;
        }
        push({ ...base, role: 'image', size: 4, irType: 'ptr addrspace(1)', accessQual: access, resourceId: counters[access]++ }, 4);
        push({ name: `__size_${p.name}`, param: null, role: 'image-size', size: 12, irType: '[3 x i32]', typeName: '__llvm_image_size', image: p.name, fields: ['width', 'height', 'depth'] }, 4);
        push({ name: `__format_${p.name}`, param: null, role: 'image-format', size: 8, irType: '[2 x i32]', typeName: '__llvm_image_format', image: p.name, fields: ['channel_data_type', 'channel_order'] }, 4);
        continue;
      }
      if (t.kind === 'opaque' && t.name === 'sampler_t' && a.typeName === 'sampler_t') {
        push({ ...base, role: 'sampler', size: 4, irType: 'ptr addrspace(4)', resourceId: counters.sampler++ }, 4);
        continue;
      }
      if (t.kind === 'pointer' || t.kind === 'image' || t.kind === 'pipe' || t.kind === 'opaque') {
        push({ ...base, size: 4, irType: 'ptr', ...(t.kind === 'image' ? { accessQual: c.access ?? 'read_only' } : {}) }, 4);
        continue;
      }
      push({ ...base, size: layoutOf(p.type, SPIR).size, layout: valueLayout(p.type, SPIR) }, irAlign(p.type, SPIR));
    }
    // clover appends these after every explicit argument.
    push({ name: 'grid_dimension', param: null, role: 'hidden', size: 4, irType: 'i32', typeName: 'uint' }, 4);
    push({ name: 'grid_offset', param: null, role: 'hidden', size: 12, irType: '[3 x i32]', typeName: 'uint', fields: ['x', 'y', 'z'] }, 4);
    kernels.push({ name: k.name, args, inputSize: off });
  }
  if (diags.hasErrors) return undefined;
  return { plan: { target: 'r600', mcpu: 'cypress', kernels }, llvm };
}
