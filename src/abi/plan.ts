import type { AccessQualifier, QualType } from '../types/types.js';

/** What a physical slot carries. */
export type SlotRole =
  | 'value' | 'data' | 'local' | 'image' | 'sampler' | 'queue' | 'pipe'
  | 'shape' | 'stride' | 'offset' | 'image-size' | 'image-format' | 'setup' | 'hidden';

/** The byte layout of a by-value argument, for packers and readers. */
export type ValueLayout =
  | { readonly kind: 'scalar'; readonly scalar: string; readonly size: number; readonly align: number }
  | { readonly kind: 'vector'; readonly element: string; readonly length: number; readonly size: number; readonly align: number }
  | { readonly kind: 'array'; readonly element: ValueLayout; readonly length: number; readonly stride: number; readonly size: number; readonly align: number }
  | {
      readonly kind: 'record';
      readonly tagKind: 'struct' | 'union';
      readonly typeName: string;
      readonly size: number;
      readonly align: number;
      readonly fields: readonly { readonly name: string | null; readonly offset: number; readonly layout: ValueLayout; readonly bitOffset?: number; readonly bitWidth?: number }[];
    };

export interface SlotBase {
  readonly name: string;
  /** Source parameter index, or null for setup/hidden/implicit slots. */
  readonly param: number | null;
  readonly role: SlotRole;
}

export type OpenCLArgKind = 'buffer' | 'local' | 'value' | 'image' | 'sampler' | 'queue' | 'pipe';

/** One `clSetKernelArg` call. */
export interface OpenCLSlot extends SlotBase {
  readonly index: number;
  readonly kind: OpenCLArgKind;
  readonly addressSpace?: 'global' | 'constant' | 'local';
  readonly access?: AccessQualifier;
  /** As `clGetKernelArgInfo(CL_KERNEL_ARG_TYPE_NAME)` and clang's `kernel_arg_type` spell it. */
  readonly typeName: string;
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
}

export interface OpenCLPlan {
  readonly target: 'opencl';
  /** The data layout value sizes are computed with. */
  readonly arch: 'spir' | 'spir64';
  readonly kernels: readonly OpenCLKernelPlan[];
}

export type AbiPlan = OpenCLPlan;
