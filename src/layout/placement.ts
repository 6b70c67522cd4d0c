// Where each slot of a plan lives and how its bytes are filled: every target's lowering attaches a
// `where` and a `fill` to every slot (src/targets/<t>/placement.ts), and its readPlan attaches the
// same through the same function. The packer (src/pack) reads only these; the JSON form and
// the other emitters leave them out (they restate the target's own fields).
import type { ValueLayout } from './value-layout.js';

/** Where a slot lives. */
export type SlotWhere =
  /** A kernel argument set by index, with its argument size (0 for local memory). */
  | { readonly kind: 'arg-index'; readonly index: number; readonly size: number }
  /** Bytes of the kernel's argument segment (kernarg segment, argument buffer, input buffer). */
  | { readonly kind: 'segment'; readonly offset: number; readonly size: number }
  /** A descriptor binding; byte fills go at `offset` of the binding's own `bytes`-long buffer. */
  | {
      readonly kind: 'descriptor';
      readonly set: number;
      readonly binding: number;
      readonly offset: number;
      readonly bytes: number;
    }
  | { readonly kind: 'push-constant'; readonly offset: number }
  | { readonly kind: 'spec-constant'; readonly id: number }
  /**
   * An LLVM IR kernel parameter by index (the llvm target): the plan describes the IR signature,
   * not bytes or a binding a host sets, and a plan read from JSON has no types to size it by.
   */
  | { readonly kind: 'ir-param'; readonly index: number }
  /** A slot the plan cannot place: the reason, given when a packer is made for its kernel. */
  | { readonly kind: 'unplaced'; readonly reason: string };

/**
 * A 4-byte slot that refuses wider values: the error's path and text (`address <v> <text>`); without one, wider values
 * are cut to 32 bits.
 */
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
  /** One axis of a geometry field; with `axes: 3`, the three axes from `axis` 0 as consecutive words. */
  | {
      readonly kind: 'geometry';
      readonly field: GeometryField;
      readonly axis: 0 | 1 | 2;
      readonly bytes: 2 | 4 | 8;
      readonly axes?: 3;
      readonly overflow?: Overflow;
    }
  /** An image's width, height and depth as three 32-bit words. */
  | { readonly kind: 'image-size'; readonly image: string }
  /** An image's channel data type and channel order as two 32-bit words. */
  | { readonly kind: 'image-format'; readonly image: string }
  /** An image's device address as one 32-bit word. */
  | { readonly kind: 'image-address'; readonly image: string }
  /** A value the runtime supplies by name (`LaunchInfo.hidden`), 0 when absent. */
  | { readonly kind: 'hidden'; readonly key: string; readonly bytes: 4 | 8; readonly overflow?: Overflow }
  /** An LLVM IR parameter's value as the IR passes it (the llvm target: no byte layout in the plan). */
  | { readonly kind: 'ir-value'; readonly param: string }
  | { readonly kind: 'zero' };

export interface PlacedSlot {
  readonly where: SlotWhere;
  readonly fill: SlotFill;
}
