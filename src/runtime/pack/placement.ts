// What the one packer reads: per kernel, every slot's place (where its bytes or handle go) and
// fill (where they come from). Targets derive these from their plans (src/targets/<t>/pack.ts);
// nothing here or in the packer knows which target a layout came from.
import type { ValueLayout } from '../../layout/value-layout.js';

/** Where a slot lives. */
export type SlotWhere =
  /** A kernel argument set by index, with its argument size (0 for local memory). */
  | { readonly kind: 'arg-index'; readonly index: number; readonly size: number }
  /** Bytes of the kernel's argument segment (kernarg segment, argument buffer, input buffer). */
  | { readonly kind: 'segment'; readonly offset: number; readonly size: number }
  /** A descriptor binding; byte fills go at `offset` of the binding's own `bytes`-long buffer. */
  | { readonly kind: 'descriptor'; readonly set: number; readonly binding: number; readonly offset: number; readonly bytes: number }
  | { readonly kind: 'push-constant'; readonly offset: number }
  | { readonly kind: 'spec-constant'; readonly id: number };

/** A 4-byte slot that refuses wider values: the error's path and text (`address <v> <text>`); without one, wider values are cut to 32 bits. */
export interface Overflow {
  readonly path: string;
  readonly text: string;
}

/** A launch-geometry field, per axis: what hidden and implicit slots carry. */
export type GeometryField = 'global-offset' | 'block-count' | 'group-size' | 'remainder' | 'grid-dims';

/** How a slot is filled. */
export type SlotFill =
  /** A parameter's value in its byte layout. */
  | { readonly kind: 'value'; readonly param: string; readonly layout: ValueLayout }
  /** A parameter's device address. */
  | { readonly kind: 'address'; readonly param: string; readonly bytes: 4 | 8; readonly overflow?: Overflow }
  /** A parameter's resource object (a buffer, image, sampler, ... of the host), bound as it is; `resource` names it in refusals. */
  | { readonly kind: 'handle'; readonly param: string; readonly resource: string }
  /** A parameter's local-memory byte count (`{local}`), a positive multiple of `elementSize`; a spec constant takes the element count. */
  | { readonly kind: 'local-bytes'; readonly param: string; readonly elementSize: number }
  /** The LDS offset of a local argument's block (`{local, offset?}`). */
  | { readonly kind: 'lds-offset'; readonly param: string }
  /** The dynamic LDS bytes of the dispatch: the sum of these local arguments' sizes. */
  | { readonly kind: 'lds-size'; readonly params: readonly string[] }
  | { readonly kind: 'geometry'; readonly field: GeometryField; readonly axis: 0 | 1 | 2; readonly bytes: 2 | 4 | 8; readonly overflow?: Overflow }
  /** An image's width, height and depth as three 32-bit words. */
  | { readonly kind: 'image-size'; readonly image: string }
  /** An image's channel data type and channel order as two 32-bit words. */
  | { readonly kind: 'image-format'; readonly image: string }
  /** An image's device address as one 32-bit word. */
  | { readonly kind: 'image-address'; readonly image: string }
  /** A value the runtime supplies by name (`LaunchInfo.hidden`), 0 when absent. */
  | { readonly kind: 'hidden'; readonly key: string; readonly bytes: 4 | 8; readonly overflow?: Overflow }
  | { readonly kind: 'zero' };

export interface PlacedSlot {
  readonly where: SlotWhere;
  readonly fill: SlotFill;
}

/** A kernel as the packer reads it: the argument names the caller gives, the sizes of its byte blocks, its slots. */
export interface PackLayout {
  readonly kernel: string;
  readonly names: readonly string[];
  /** Bytes of the argument segment (0 where no slot lives there). */
  readonly segmentSize: number;
  /** Bytes of the push-constant block the kernel's slots fill (0 where none). */
  readonly pushConstantSize: number;
  readonly slots: readonly PlacedSlot[];
}
