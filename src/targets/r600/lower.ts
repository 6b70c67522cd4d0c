import { alignTo } from '../../layout/align.js';
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { SPIR } from '../../layout/data-layout.js';
import { irAlign } from '../../layout/ir-align.js';
import { layoutOf } from '../../layout/layout.js';
import { type KernelModule, type Parameter, kernelsOf } from '../../model/kernel-module.js';
import { assertNever } from '../../assert-never.js';
import { classifyArg } from '../../model/arg-class.js';
import { type LlvmKernelPlan, type LlvmSlot, checkKernelCalls, llvmKernelPlan } from '../../abi/llvm-kernel.js';
import { type Draft, setOrigin } from '../../abi/origin.js';
import type { Bare } from '../../abi/plan.js';
import type { R600KernelPlan, R600Plan, R600Slot } from './plan.js';
import { placeR600Kernel } from './placement.js';
import { valueLayout } from '../../layout/value-layout.js';

export type { R600KernelPlan, R600Plan, R600Slot } from './plan.js';

/** The first explicit argument's offset on r600 (9 implicit dwords: ngroups, global size, local size). */
export const R600_EXPLICIT_OFFSET = 36;

/**
 * What LLVM's R600 OpenCL Image Type Pass does to the legacy `!opencl.kernels` module, and what
 * clover then binds: each `image2d_t`/`image3d_t` argument is followed by `__size_<name>` and
 * `__format_<name>`; resource IDs count read-only images, write-only images and samplers.
 */
export function lowerR600(module: KernelModule, diags: DiagnosticBag): { plan: R600Plan; llvm: LlvmKernelPlan[] } | undefined {
  checkKernelCalls(module, false, diags, Messages.r600KernelCall);
  const kernels: R600KernelPlan[] = [];
  const llvm: LlvmKernelPlan[] = [];
  // clover's two trailing slots depend only on where they start: made once per offset, shared (read-only).
  const trailing = new Map<number, readonly Bare<R600Slot>[]>();
  for (const k of kernelsOf(module)) {
    const lp = llvmKernelPlan(k, SPIR);
    llvm.push(lp);
    const args: Bare<R600Slot>[] = [];
    let off = R600_EXPLICIT_OFFSET;
    const counters = { read_only: 0, write_only: 0, sampler: 0 };
    // Fields in the JSON's order: the slot's own, then its offset (aligned here).
    const push = (slot: Draft<Omit<Bare<R600Slot>, 'offset'>> & { offset?: number }, align: number) => {
      off = alignTo(off, align);
      slot.offset = off;
      args.push(slot as Bare<R600Slot>);
      off += slot.size;
    };
    const base = (p: Parameter, a: LlvmSlot, size: number, role?: R600Slot['role']): Draft<Bare<R600Slot>> => {
      const slot = { name: p.name } as Draft<Bare<R600Slot>>;
      setOrigin(slot, p, a.role);
      slot.typeName = a.typeName;
      if (role) slot.role = role;
      slot.size = size;
      return slot;
    };
    for (const [i, p] of k.params.entries()) {
      const a: LlvmSlot = lp.args[i];
      // Every handle the pass leaves alone is a 32-bit pointer.
      const handle = (access?: string) => {
        const slot = base(p, a, 4);
        slot.irType = 'ptr';
        if (access) slot.accessQual = access;
        push(slot, 4);
      };
      const arg = classifyArg(p.type);
      // The pass recognizes images and samplers by their kernel_arg_type spelling, so typedef names are left alone.
      switch (arg.kind) {
        case 'image': {
          if (a.typeName !== 'image2d_t' && a.typeName !== 'image3d_t') {
            handle(arg.access);
            break;
          }
          if (arg.access === 'read_write') {
            diags.report(Messages.r600ReadWriteImage, p.span, [p.name]);
            break;
          }
          const image = base(p, a, 4, 'image');
          image.irType = 'ptr addrspace(1)';
          image.accessQual = arg.access;
          image.resourceId = counters[arg.access]++;
          push(image, 4);
          push({ name: `__size_${p.name}`, param: null, role: 'image-size', size: 12, irType: '[3 x i32]', typeName: '__llvm_image_size', image: p.name, fields: ['width', 'height', 'depth'] }, 4);
          push({ name: `__format_${p.name}`, param: null, role: 'image-format', size: 8, irType: '[2 x i32]', typeName: '__llvm_image_format', image: p.name, fields: ['channel_data_type', 'channel_order'] }, 4);
          break;
        }
        case 'sampler': {
          if (a.typeName !== 'sampler_t') {
            handle();
            break;
          }
          const sampler = base(p, a, 4, 'sampler');
          sampler.irType = 'ptr addrspace(4)';
          sampler.resourceId = counters.sampler++;
          push(sampler, 4);
          break;
        }
        case 'buffer':
        case 'local':
        case 'pipe':
        case 'queue':
        case 'event':
        case 'opaque':
          handle();
          break;
        case 'pod': {
          const value = base(p, a, layoutOf(p.type, SPIR).size);
          value.layout = valueLayout(p.type, SPIR);
          push(value, irAlign(p.type, SPIR));
          break;
        }
        default:
          assertNever(arg);
      }
    }
    // clover appends these after every explicit argument.
    off = alignTo(off, 4);
    let tail = trailing.get(off);
    if (!tail) {
      tail = [
        { name: 'grid_dimension', param: null, role: 'hidden', size: 4, irType: 'i32', typeName: 'uint', offset: off },
        { name: 'grid_offset', param: null, role: 'hidden', size: 12, irType: '[3 x i32]', typeName: 'uint', fields: ['x', 'y', 'z'], offset: off + 4 },
      ];
      trailing.set(off, tail);
    }
    args.push(...tail);
    kernels.push(placeR600Kernel({ name: k.name, args, inputSize: off + 16 }));
  }
  if (diags.hasErrors) return undefined;
  return { plan: { target: 'r600', mcpu: 'cypress', kernels }, llvm };
}
