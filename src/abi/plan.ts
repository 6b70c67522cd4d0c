import type { AmdgpuProcessorName } from './amdgpu-processors.js';
import type { AccessQualifier, QualType } from '../types/types.js';
import type { ValueLayout } from '../layout/value-layout.js';
import type { SlotFill, SlotWhere } from '../layout/placement.js';

export type { ValueLayout };

/** What a physical slot carries. */
export type SlotRole =
  | 'value'
  | 'data'
  | 'local'
  | 'image'
  | 'sampler'
  | 'queue'
  | 'pipe'
  | 'shape'
  | 'stride'
  | 'offset'
  | 'size'
  | 'image-size'
  | 'image-format'
  | 'setup'
  | 'hidden';

/** What a host fills a derived argument with: which logical argument and which part of it. */
export interface HostRule {
  readonly arg: string;
  readonly take: 'data' | 'shape' | 'stride' | 'offset' | 'value' | 'size';
  readonly dim?: number;
  /** A group: a table with one entry per member. */
  readonly perMember?: boolean;
}

export interface SlotBase {
  readonly name: string;
  /** Source parameter index, or null for setup/hidden/implicit slots. */
  readonly param: number | null;
  readonly role: SlotRole;
  /** A slot derived from a logical argument (a tinytc memref's shape or stride): which dimension. */
  readonly dim?: number;
  /** A derived slot: how a host fills it from its logical argument. */
  readonly host?: HostRule;
  /** Where the slot lives (attached by the target's lowering and readPlan; not in the JSON form). */
  readonly where: SlotWhere;
  /** How the slot is filled (attached with `where`). */
  readonly fill: SlotFill;
}

/** A slot as a lowering builds it, before its target attaches `where` and `fill`. */
export type Bare<S extends SlotBase> = Omit<S, 'where' | 'fill'>;

export type OpenCLArgKind = 'buffer' | 'local' | 'value' | 'image' | 'sampler' | 'queue' | 'pipe';

/** One `clSetKernelArg` call. */
export interface OpenCLSlot extends SlotBase {
  readonly index: number;
  readonly kind: OpenCLArgKind;
  readonly addressSpace?: 'global' | 'constant' | 'local';
  readonly access?: AccessQualifier;
  /** As `clGetKernelArgInfo(CL_KERNEL_ARG_TYPE_NAME)` and clang's `kernel_arg_type` spell it. */
  readonly typeName: string;
  /**
   * As `CL_KERNEL_ARG_TYPE_QUALIFIER` and clang's `kernel_arg_type_qual`: `const`, `restrict`, `volatile`, `pipe`,
   * space-separated, or ''.
   */
  readonly typeQual: string;
  /** The `arg_size` of clSetKernelArg; null for local memory (the caller chooses). */
  readonly size: number | null;
  /** The declared type, for packers and emitters. */
  readonly type: QualType;
  /** Byte layout for value arguments. */
  readonly layout?: ValueLayout;
}

export interface KernelPlanBase<S extends SlotBase> {
  readonly name: string;
  readonly args: readonly S[];
}

export interface OpenCLKernelPlan extends KernelPlanBase<OpenCLSlot> {
  readonly reqdWorkGroupSize?: readonly [number, number, number];
  readonly workGroupSizeHint?: readonly [number, number, number];
  readonly vecTypeHint?: string;
  readonly intelReqdSubGroupSize?: number;
  /** tinytc: kernarg chose the work-group size (the function gave none). */
  readonly workGroupSizeChosen?: boolean;
}

export interface OpenCLPlan {
  readonly target: 'opencl';
  /** The data layout value sizes are computed with. */
  readonly arch: 'spir' | 'spir64';
  readonly kernels: readonly OpenCLKernelPlan[];
}

/** One amdhsa kernarg slot: an explicit argument at its ABI alignment, or a hidden one. */
export interface AmdhsaSlot extends SlotBase {
  readonly offset: number;
  readonly size: number;
  /** The alignment the offset was rounded to (the LLVM type's ABI alignment; a hidden value's size). */
  readonly align?: number;
  /** clang's `.value_kind`: by_value, global_buffer, dynamic_shared_pointer, image, sampler, queue, pipe, hidden_*. */
  readonly valueKind: string;
  readonly typeName?: string;
  readonly addressSpace?: 'global' | 'constant' | 'local';
  readonly access?: AccessQualifier;
  /** For dynamic_shared_pointer: the pointee's alignment. */
  readonly pointeeAlign?: number;
  readonly type?: QualType;
  readonly layout?: ValueLayout;
}

export interface AmdhsaKernelPlan extends KernelPlanBase<AmdhsaSlot> {
  readonly kernargSegmentSize: number;
  readonly kernargSegmentAlign: number;
  /** Bytes of hidden arguments (56 for code object 4, 256 for 5 and 6). */
  readonly hiddenBytes: number;
}

export interface AmdhsaPlan {
  readonly target: 'amdhsa';
  readonly codeObject: 4 | 5 | 6;
  /** The LLVM generation the layout follows (16, 19 or 22). */
  readonly llvm: 16 | 19 | 22;
  /** The processor (`-mcpu`): gfx9 and later lay the kernarg segment out alike (src/abi/amdgpu-processors.ts). */
  readonly mcpu: AmdgpuProcessorName;
  readonly kernels: readonly AmdhsaKernelPlan[];
}

/** One slot of the AMD Catalyst OpenCL 2.0 argument buffer (CLRX's description). */
export interface AmdCl2Slot extends SlotBase {
  readonly offset: number;
  readonly size: number;
  readonly align: number;
  /** CLRX's `.arg` type word: uint, float4, structure, image2d, sampler, queue, clkevent, pipe, `uint*`, ... */
  readonly argType: string;
  readonly typeName: string;
  readonly addressSpace?: 'global' | 'constant' | 'local';
  readonly access?: AccessQualifier;
  /** Struct size for structures by value and pointers to structures. */
  readonly structSize?: number;
  /** Index within its group: read-only images, write-only images, read-write images, samplers. */
  readonly resourceId?: number;
  readonly qualifiers?: readonly ('const' | 'restrict' | 'volatile')[];
  readonly type?: QualType;
  readonly layout?: ValueLayout;
}

export interface UserSgprLayout {
  /** Number of user data SGPRs the kernel gets. */
  readonly count: number;
  /** s[0:3]: the scratch buffer descriptor, always. */
  readonly scratchDescriptor: readonly [number, number];
  readonly setupPointer: readonly [number, number] | null;
  readonly argsPointer: readonly [number, number] | null;
  /** With usegeneric: s[6:7] buffer whose dwords 16/17 hold the high halves of the LDS and scratch FLAT bases. */
  readonly flatBasesPointer: readonly [number, number] | null;
  readonly flatScratchOffset: number | null;
  readonly scratchPerThread: number | null;
}

export interface AmdCl2KernelPlan extends KernelPlanBase<AmdCl2Slot> {
  /** Bytes of the argument buffer (rounded to 16 for new drivers). */
  readonly kernargSize: number;
  readonly userSgprs: UserSgprLayout;
}

export interface AmdCl2Plan {
  readonly target: 'amd-cl2';
  readonly bits: 32 | 64;
  readonly driver: 'new' | 'old';
  readonly use: readonly ('setup' | 'args' | 'enqueue' | 'generic')[];
  readonly gfx9: boolean;
  /** The kernel setup buffer the setup pointer points to: dword index, bits and meaning. */
  readonly setupBuffer: readonly { readonly dword: number; readonly bits: string; readonly field: string }[];
  readonly kernels: readonly AmdCl2KernelPlan[];
}

/** What every target's plan has: its target's name and, per kernel, the ordered slots. */
export interface PlanBase {
  readonly target: string;
  readonly kernels: readonly KernelPlanBase<SlotBase>[];
}
