/**
 * What a kernel parameter is, in one place for every target (in the spirit of clspv's
 * `lib/ArgKind.cpp`): one function from a parameter's declared type to its argument class.
 * Targets map classes onto their own slots (clSetKernelArg kinds, kernarg value kinds, CLRX
 * words, descriptor kinds) with a switch over `kind` that ends in `assertNever`, so a new class
 * does not compile until every target places it.
 */
import { assertNever } from '../assert-never.js';
import { type AccessQualifier, type ImageName, type QualType, type Type, canonical } from '../types/types.js';

/** A type passed by value: the canonical type's kind says its shape. */
export type PodType = Extract<Type, { kind: 'scalar' | 'vector' | 'record' | 'array' | 'enum' | 'function' }>;

/** An image's shape, from its type name. */
export interface ImageShape {
  readonly dims: 1 | 2 | 3;
  readonly arrayed: boolean;
  /** `image1d_buffer_t`: a texel buffer. */
  readonly buffer: boolean;
  readonly depth: boolean;
  readonly msaa: boolean;
}

export type ArgClass =
  /** A pointer into global or constant memory (any pointer not into local memory). */
  | { readonly kind: 'buffer'; readonly space: 'global' | 'constant'; readonly pointee: QualType }
  /** A pointer into local memory: the host gives a size, not a value. */
  | { readonly kind: 'local'; readonly pointee: QualType }
  /** A value: scalar, vector, enum, struct/union or array. */
  | { readonly kind: 'pod'; readonly type: PodType }
  | { readonly kind: 'image'; readonly image: ImageName; readonly access: AccessQualifier; readonly shape: ImageShape }
  | { readonly kind: 'sampler' }
  | { readonly kind: 'pipe'; readonly access: AccessQualifier; readonly element: QualType }
  | { readonly kind: 'queue' }
  /** `clk_event_t`. */
  | { readonly kind: 'event' }
  /** Other opaque types (`event_t`, `reserve_id_t`, `ndrange_t`): the OpenCL C checker refuses them as kernel parameters; a hand-built module may still hold one. */
  | { readonly kind: 'opaque'; readonly name: 'event_t' | 'reserve_id_t' | 'ndrange_t' };

export type ArgClassKind = ArgClass['kind'];

const SHAPES: Readonly<Record<ImageName, ImageShape>> = {
  image1d_t: shape(1),
  image1d_array_t: shape(1, { arrayed: true }),
  image1d_buffer_t: shape(1, { buffer: true }),
  image2d_t: shape(2),
  image2d_array_t: shape(2, { arrayed: true }),
  image3d_t: shape(3),
  image2d_depth_t: shape(2, { depth: true }),
  image2d_array_depth_t: shape(2, { arrayed: true, depth: true }),
  image2d_msaa_t: shape(2, { msaa: true }),
  image2d_array_msaa_t: shape(2, { arrayed: true, msaa: true }),
  image2d_msaa_depth_t: shape(2, { msaa: true, depth: true }),
  image2d_array_msaa_depth_t: shape(2, { arrayed: true, msaa: true, depth: true }),
};

function shape(dims: 1 | 2 | 3, f: Partial<Omit<ImageShape, 'dims'>> = {}): ImageShape {
  return {
    dims,
    arrayed: f.arrayed ?? false,
    buffer: f.buffer ?? false,
    depth: f.depth ?? false,
    msaa: f.msaa ?? false,
  };
}

/**
 * The class of a parameter of this declared type (typedefs seen through; images and pipes read_only unless qualified).
 */
export function classifyArg(t: QualType): ArgClass {
  const c = canonical(t);
  const ty = c.type;
  switch (ty.kind) {
    case 'pointer': {
      const pointee = canonical(ty.pointee);
      if (pointee.space === 'local') return { kind: 'local', pointee };
      return { kind: 'buffer', space: pointee.space === 'constant' ? 'constant' : 'global', pointee };
    }
    case 'image':
      return { kind: 'image', image: ty.name, access: c.access ?? 'read_only', shape: SHAPES[ty.name] };
    case 'pipe':
      return { kind: 'pipe', access: c.access ?? 'read_only', element: ty.element };
    case 'opaque':
      switch (ty.name) {
        case 'sampler_t':
          return { kind: 'sampler' };
        case 'queue_t':
          return { kind: 'queue' };
        case 'clk_event_t':
          return { kind: 'event' };
        default:
          return { kind: 'opaque', name: ty.name };
      }
    case 'typedef':
      // canonical() removes every typedef; kept for exhaustiveness.
      return classifyArg(ty.target);
    case 'scalar':
    case 'vector':
    case 'record':
    case 'array':
    case 'enum':
    case 'function':
      return { kind: 'pod', type: ty };
    default:
      return assertNever(ty);
  }
}
