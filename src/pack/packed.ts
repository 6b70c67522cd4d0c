// What a pack writes: the packer's own objects, refilled every call.

/** One argument set by index: bytes of a value, a local-memory size, or a host object's handle. */
export type SetArg =
  | { readonly index: number; readonly kind: 'value'; readonly size: number; readonly bytes: Uint8Array }
  | { readonly index: number; readonly kind: 'local'; size: number }
  | {
      readonly index: number;
      readonly kind: 'handle';
      readonly resource: string;
      readonly size: number;
      handle: unknown;
    };

/** One descriptor binding: the bytes of the values that live in its buffer, or the resource object bound there. */
export type Descriptor =
  | { readonly set: number; readonly binding: number; readonly kind: 'bytes'; readonly value: Uint8Array }
  | {
      readonly set: number;
      readonly binding: number;
      readonly kind: 'handle';
      readonly resource: string;
      value: unknown;
    };

/** Everything a pack writes; the same objects every call (nothing is allocated). */
export interface Packed {
  readonly segment: Uint8Array;
  readonly args: readonly SetArg[];
  readonly pushConstants: Uint8Array;
  /** In the order the slots first name them. */
  readonly descriptors: readonly Descriptor[];
  /** Spec id → value (a local argument's element count). */
  readonly specConstants: Map<number, number>;
}
