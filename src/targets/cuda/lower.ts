// The PTX `.param` list of each kernel as clang's NVPTX backend lays it out for the nvcl OS
// (`nvptx64-nvidia-nvcl`, `nvptx-nvidia-nvcl`), and where each parameter's bytes go in the packed
// buffer a CUDA host passes with CU_LAUNCH_PARAM_BUFFER_POINTER.
import type { SlotLiteral } from '../../abi/slot-shape.js';
import { cudaSlot } from './slot.js';
import { POCL_APPENDED_BYTES, POCL_APPENDED_NAMES } from './pocl-appended.js';
import { Messages } from '../../diagnostics/messages.js';
import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { SPIR, SPIR64, type DataLayout } from '../../layout/data-layout.js';
import { irAlign } from '../../layout/ir-align.js';
import { layoutOf } from '../../layout/layout.js';
import { valueLayout } from '../../layout/value-layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { classifyArg } from '../../model/arg-class.js';
import { kernelArgTypeName } from '../../types/print.js';
import { type QualType, type Type, canonical, containsType } from '../../types/types.js';
import { assertNever } from '../../assert-never.js';
import type { Bare, SlotRole } from '../../abi/plan.js';
import { originParam, originRole, withOriginDetail } from '../../abi/origin.js';
import type {
  CudaArch,
  CudaKernelPlan,
  CudaLocalMemory,
  CudaPlan,
  CudaSlot,
  CudaSm,
  PtxParamType,
  PtxPointerSpace,
} from './plan.js';
import { DEFAULT_CUDA_SM, paramOffset } from './param-base.js';
import { placeCudaKernel } from './placement.js';
import { checkNvptxFeatures } from './features.js';
import { KernelShapeMemo } from '../../abi/kernel-shape-memo.js';
import { someKernelMayReport } from '../../abi/may-report.js';

export const CUDA_ARCHES: readonly CudaArch[] = ['nvptx64', 'nvptx'];
export const CUDA_LOCAL_MEMORY: readonly CudaLocalMemory[] = ['nvidia', 'pocl'];

/** CUDA's parameter limits: 4,096 bytes before CUDA 12.1; 32,764 bytes with CUDA 12.1 on Volta and later. */
export const CUDA_PARAM_LIMIT_CLASSIC = 4096;
export const CUDA_PARAM_LIMIT = 32764;

export interface CudaTargetOptions {
  readonly arch?: CudaArch;
  /** The architecture whose driver places the parameters (default DEFAULT_CUDA_SM). */
  readonly sm?: CudaSm;
  readonly localMemory?: CudaLocalMemory;
}

/** The data layout of an NVPTX arch: OpenCL C's sizes are SPIR's (long and double 8 bytes, pointers 4 or 8). */
export function cudaLayout(arch: CudaArch | undefined): DataLayout {
  return arch === 'nvptx' ? SPIR : SPIR64;
}

/**
 * What LLVM's `getPTXFundamentalTypeStr` prints for a scalar kernel parameter (integers as `.uN` whatever their sign).
 */
function scalarPtxType(t: Type, dl: DataLayout): PtxParamType | undefined {
  if (t.kind === 'enum') return scalarPtxType({ kind: 'scalar', name: t.decl.underlying }, dl);
  if (t.kind !== 'scalar') return undefined;
  switch (t.name) {
    case 'float':
      return 'f32';
    case 'double':
      return 'f64';
    case 'half':
    case 'bool':
    case 'void':
      return undefined;
    default: {
      const size = layoutOf(t, dl).size;
      return size === 1 ? 'u8' : size === 2 ? 'u16' : size === 4 ? 'u32' : 'u64';
    }
  }
}

const isHalf = (t: Type) => (t.kind === 'scalar' && t.name === 'half') || (t.kind === 'vector' && t.element === 'half');

/** The pointee's alignment clang puts on a kernel's pointer parameter (`align N`): 1 for void and incomplete types. */
function pointeeAlign(pointee: QualType, dl: DataLayout): number {
  const c = canonical(pointee).type;
  if (c.kind === 'scalar' && c.name === 'void') return 1;
  if (c.kind === 'record' && c.decl.fields === null) return 1;
  if (c.kind === 'function') return 1;
  // Images, pipes, samplers and events point at opaque structs.
  if (c.kind === 'image' || c.kind === 'pipe' || c.kind === 'opaque') return 1;
  return layoutOf(c, dl).align;
}

interface Draft {
  readonly role: SlotRole;
  readonly ptxType: PtxParamType;
  readonly size: number;
  readonly align: number;
  readonly space?: PtxPointerSpace;
  readonly pointeeAlign?: number;
  readonly layout?: boolean;
}

/**
 * How one parameter is declared: a `.ptr` of the pointer width, a scalar of its own PTX type, or
 * a byte array (vectors, structs, unions) at the type's alignment. `undefined`: refused (reported).
 */
function declare(
  p: FunctionInfo['params'][number],
  dl: DataLayout,
  local: CudaLocalMemory,
  diags: DiagnosticBag,
): Draft | undefined {
  const type = p.type;
  const ptr = dl.pointerSize('global');
  const ptrType: PtxParamType = ptr === 8 ? 'u64' : 'u32';
  const arg = classifyArg(type);
  const poclRefuses = (what: string) => {
    diags.report(Messages.cudaPoclArgument, p.span, [what, p.name]);
    return undefined;
  };
  switch (arg.kind) {
    case 'buffer':
      if (local === 'pocl' && arg.space === 'constant')
        return { role: originRole(p, 'data'), ptxType: 'u32', size: 4, align: 4 };
      if (containsType(arg.pointee, (t) => t.kind === 'vector' && t.element === 'half')) {
        diags.report(Messages.cudaHalfVector, p.span, [kernelArgTypeName(type), p.name]);
        return undefined;
      }
      return {
        role: originRole(p, 'data'),
        ptxType: ptrType,
        size: ptr,
        align: ptr,
        space: arg.space === 'constant' ? 'const' : 'global',
        pointeeAlign: pointeeAlign(arg.pointee, dl),
      };
    case 'local':
      // pocl pads each block in shared memory to its pointee's alignment (pocl_cuda_get_ptr_arg_alignment): kept for
      // the host.
      if (local === 'pocl')
        return {
          role: originRole(p, 'local'),
          ptxType: 'u32',
          size: 4,
          align: 4,
          pointeeAlign: pointeeAlign(arg.pointee, dl),
        };
      if (containsType(arg.pointee, (t) => t.kind === 'vector' && t.element === 'half')) {
        diags.report(Messages.cudaHalfVector, p.span, [kernelArgTypeName(type), p.name]);
        return undefined;
      }
      return {
        role: originRole(p, 'local'),
        ptxType: ptrType,
        size: ptr,
        align: ptr,
        space: 'shared',
        pointeeAlign: pointeeAlign(arg.pointee, dl),
      };
    case 'image':
    case 'pipe':
      // clang: pointers to opaque structs in the global space.
      if (local === 'pocl') return poclRefuses(arg.kind);
      return {
        role: originRole(p, arg.kind),
        ptxType: ptrType,
        size: ptr,
        align: ptr,
        space: 'global',
        pointeeAlign: 1,
      };
    case 'sampler':
      if (local === 'pocl') return poclRefuses('sampler');
      return {
        role: originRole(p, 'sampler'),
        ptxType: ptrType,
        size: ptr,
        align: ptr,
        space: 'const',
        pointeeAlign: 1,
      };
    case 'queue':
    case 'event':
      // queue_t and clk_event_t are generic pointers: `.ptr` with no space.
      if (local === 'pocl') return poclRefuses(arg.kind);
      return {
        role: originRole(p, arg.kind === 'queue' ? 'queue' : 'value'),
        ptxType: ptrType,
        size: ptr,
        align: ptr,
        space: 'generic',
        pointeeAlign: 1,
      };
    case 'opaque':
      return {
        role: originRole(p, 'value'),
        ptxType: ptrType,
        size: ptr,
        align: ptr,
        space: 'generic',
        pointeeAlign: 1,
      };
    case 'pod': {
      // NVPTX has no cl_khr_fp16: clang refuses half by value, half vectors and records holding half.
      if (containsType(type, isHalf)) {
        diags.report(Messages.cudaHalfByValue, p.span, [kernelArgTypeName(type), p.name]);
        return undefined;
      }
      const t = arg.type;
      const scalar = scalarPtxType(t, dl);
      if (scalar) {
        const size = layoutOf(t, dl).size;
        return { role: originRole(p, 'value'), ptxType: scalar, size, align: size, layout: true };
      }
      // Byte arrays: LLVM's `.align` is the larger of the IR type's ABI alignment and clang's byval alignment.
      const l = layoutOf(t, dl);
      return {
        role: originRole(p, 'value'),
        ptxType: 'b8',
        size: l.size,
        align: Math.max(l.align, irAlign(t, dl)),
        layout: true,
      };
    }
    default:
      return assertNever(arg);
  }
}

function lowerKernel(
  k: FunctionInfo,
  dl: DataLayout,
  sm: CudaSm,
  local: CudaLocalMemory,
  diags: DiagnosticBag,
): CudaKernelPlan | undefined {
  const args: Bare<CudaSlot>[] = [];
  const dynamicShared: string[] = [];
  let offset = 0;
  let refused = false;
  const push = (s: SlotLiteral<CudaSlot>) => {
    args.push(s);
    offset = s.offset + s.size;
  };
  for (const p of k.params) {
    const d = declare(p, dl, local, diags);
    if (!d) {
      refused = true;
      continue;
    }
    const index = args.length;
    const at = paramOffset(offset, d.align, sm);
    const s: SlotLiteral<CudaSlot> = cudaSlot({
      name: p.name,
      param: originParam(p),
      role: d.role,
      index,
      offset: at,
      size: d.size,
      align: d.align,
      ptxType: d.ptxType,
      space: d.space,
      pointeeAlign: d.pointeeAlign,
      typeName: kernelArgTypeName(p.type),
      type: p.type,
      layout: d.layout ? valueLayout(p.type, dl) : undefined,
    });
    push(withOriginDetail(s, p));
    if (classifyArg(p.type).kind === 'local') dynamicShared.push(p.name);
  }
  if (refused) return undefined;
  if (local === 'pocl') {
    for (const name of POCL_APPENDED_NAMES) {
      const index = args.length;
      const size = POCL_APPENDED_BYTES;
      push(
        cudaSlot({
          name,
          param: null,
          role: 'hidden',
          index,
          offset: paramOffset(offset, size, sm),
          size,
          align: size,
          ptxType: 'u32',
        }),
      );
    }
  }
  if (offset > CUDA_PARAM_LIMIT) diags.report(Messages.cudaParamLimit, k.span, [k.name, offset, CUDA_PARAM_LIMIT]);
  else if (offset > CUDA_PARAM_LIMIT_CLASSIC)
    diags.report(Messages.cudaParamLimitClassic, k.span, [k.name, offset, CUDA_PARAM_LIMIT_CLASSIC]);
  return placeCudaKernel({ name: k.name, args, paramBytes: offset, dynamicShared }, local);
}

/** The plan, or undefined when a parameter is refused or a kernel's parameters pass CUDA's limit (reported). */
export function lowerCuda(
  module: KernelModule,
  options: CudaTargetOptions,
  diags: DiagnosticBag,
): CudaPlan | undefined {
  const errors = diags.errors;
  const { head, kernels } = cudaKernelwise(module, options, diags);
  const plans: CudaKernelPlan[] = [];
  for (let it = kernels(diags), k = it.next(); !k.done; k = it.next()) plans.push(k.value);
  return diags.errors === errors ? { ...head, kernels: plans } : undefined;
}

/**
 * `lowerCuda` a kernel at a time: the module's features are checked first (reported to `diags`),
 * then each kernel's parameters are its own; a kernel's refusals go to the `diags` `kernels` is given.
 * Kernels of one shape share one plan (kernel-shape-memo.ts): a slot holds nothing of its kernel's name (its PTX name
 * is made from it where it is printed, ptx-param-name.ts).
 */
export function cudaKernelwise(
  module: KernelModule,
  options: CudaTargetOptions,
  diags: DiagnosticBag,
): { head: Omit<CudaPlan, 'kernels'>; count: number; kernels: (diags: DiagnosticBag) => Iterator<CudaKernelPlan> } {
  const arch = options.arch ?? 'nvptx64';
  const sm = options.sm ?? DEFAULT_CUDA_SM;
  const localMemory = options.localMemory ?? 'nvidia';
  const dl = cudaLayout(arch);
  checkNvptxFeatures(module, diags);
  const kernels = kernelsOf(module);
  return {
    head: { target: 'cuda', arch, sm, localMemory },
    count: kernels.length,
    *kernels(diags) {
      const memo = new KernelShapeMemo<CudaKernelPlan>(module);
      const make = (k: FunctionInfo) => lowerKernel(k, dl, sm, localMemory, diags);
      // A refused kernel (reported) has no plan: the caller writes nothing after such a report.
      for (const k of kernels) {
        const plan = memo.plan(k, make, diags);
        if (plan) yield plan;
      }
    },
  };
}

/**
 * Whether lowering some kernel can report (what a streamed lowering asks before it writes: `KernelwiseLowering.quiet`):
 * a parameter refused, or a parameter buffer past CUDA's 4,096 bytes, each parameter's bytes bounded by size +
 * alignment - 1 (what `paramOffset` can add before it, whatever the architecture's base).
 */
export function cudaMayReport(module: KernelModule, options: CudaTargetOptions): boolean {
  const dl = cudaLayout(options.arch);
  const local = options.localMemory ?? 'nvidia';
  const unheard = new DiagnosticBag();
  const appended = local === 'pocl' ? POCL_APPENDED_NAMES.length * (2 * POCL_APPENDED_BYTES - 1) : 0;
  return someKernelMayReport(
    kernelsOf(module),
    (p) => {
      const d = declare(p, dl, local, unheard);
      return d && d.size + d.align - 1;
    },
    CUDA_PARAM_LIMIT_CLASSIC,
    appended,
  );
}
