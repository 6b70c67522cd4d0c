// The zebin plan: each kernel's cross-thread payload as IGC lays it out (the `payload_arguments`
// of a zebin's `.ze_info` section), one slot per payload argument, in IGC's order.
import type { AccessQualifier, QualType } from '../../types/types.js';
import type { KernelPlanBase, SlotBase, ValueLayout } from '../../abi/plan.js';
import type { ZebinDevice } from './devices.js';

/**
 * `.ze_info`'s `arg_type` of an argument kernarg lays out: explicit ones and the implicit ones IGC adds for builtins
 * the body uses.
 */
export type ZeArgType =
  | 'arg_bypointer'
  | 'arg_byvalue'
  | 'buffer_address'
  | 'global_id_offset'
  | 'local_size'
  | 'enqueued_local_size'
  | 'global_size'
  | 'group_count'
  | 'work_dimensions'
  | 'private_base_stateless'
  | 'printf_buffer'
  | 'image_height'
  | 'image_width'
  | 'image_depth'
  | 'image_array_size'
  | 'image_channel_data_type'
  | 'image_channel_order'
  | 'sampler_snap_wa'
  /** A parameter IGC gives no payload entry (`queue_t`: no device-side enqueue on these devices). */
  | 'none';

export type ZeAddrMode = 'stateless' | 'stateful' | 'slm';
export type ZeAddrSpace = 'global' | 'constant' | 'local' | 'image' | 'sampler';
export type ZeAccess = 'readonly' | 'writeonly' | 'readwrite';

/**
 * One piece of a by-value struct: IGC passes a struct's scalar leaves, runs of them merged where they are contiguous on
 * both sides.
 */
export interface ZePiece {
  readonly sourceOffset: number;
  readonly offset: number;
  readonly size: number;
}

/** One payload argument (or, for images and samplers, one binding-table entry of size 0). */
export interface ZebinSlot extends SlotBase {
  readonly argType: ZeArgType;
  /** Bytes into the cross-thread payload (0 for binding-table entries). */
  readonly offset: number;
  readonly size: number;
  /** The explicit argument an entry belongs to (`arg_index`), implicit image and sampler ones included. */
  readonly argIndex?: number;
  readonly addrmode?: ZeAddrMode;
  readonly addrspace?: ZeAddrSpace;
  readonly accessType?: ZeAccess;
  /** A global or constant buffer also gets a stateful binding-table entry, printed before its payload entry. */
  readonly bindingTable?: boolean;
  /** Local pointers: the pointee's alignment. */
  readonly slmAlignment?: number;
  /** By-value structs: the pieces, each its own `arg_byvalue` with a `source_offset`. */
  readonly pieces?: readonly ZePiece[];
  readonly imageType?: string;
  /** A 3-D image read with integer coordinates only: IGC may read it as a 2-D array. */
  readonly imageTransformable?: boolean;
  readonly samplerIndex?: number;
  readonly typeName?: string;
  readonly type?: QualType;
  readonly access?: AccessQualifier;
  readonly layout?: ValueLayout;
}

export interface ZebinKernelPlan extends KernelPlanBase<ZebinSlot> {
  /** Bytes of the cross-thread payload: the end of its last argument. */
  readonly payloadSize: number;
}

export interface ZebinPlan {
  readonly target: 'zebin';
  readonly device: ZebinDevice;
  /** Lowered with --private-memory: every kernel gets private_base_stateless. */
  readonly privateMemory?: boolean;
  readonly kernels: readonly ZebinKernelPlan[];
}
