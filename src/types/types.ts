import type { Span } from '../diagnostics/source.js';
import { SCALAR_FACTS, type ScalarName, isIntegerEncoding } from './scalar-facts.js';

export { SCALARS, type ScalarName } from './scalar-facts.js';

/** Element types a vector may have. */
export const VECTOR_ELEMENTS = [
  'char',
  'uchar',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'half',
  'float',
  'double',
] as const;
export type VectorElement = (typeof VECTOR_ELEMENTS)[number];
export const IMAGE_TYPES = [
  'image1d_t',
  'image1d_array_t',
  'image1d_buffer_t',
  'image2d_t',
  'image2d_array_t',
  'image3d_t',
  'image2d_depth_t',
  'image2d_array_depth_t',
  'image2d_msaa_t',
  'image2d_array_msaa_t',
  'image2d_msaa_depth_t',
  'image2d_array_msaa_depth_t',
] as const;
export type ImageName = (typeof IMAGE_TYPES)[number];

export const OPAQUE_TYPES = ['sampler_t', 'event_t', 'queue_t', 'clk_event_t', 'reserve_id_t', 'ndrange_t'] as const;
export type OpaqueName = (typeof OPAQUE_TYPES)[number];

export type AddressSpace = 'private' | 'global' | 'constant' | 'local' | 'generic';
export type AccessQualifier = 'read_only' | 'write_only' | 'read_write';

export interface ScalarType {
  readonly kind: 'scalar';
  readonly name: ScalarName;
  /**
   * The C keywords it was written with where clang prints them instead of the OpenCL name
   * (`unsigned int`, `signed char`): only type names that keep array sugar show it.
   */
  readonly spelling?: string;
}
export interface VectorType {
  readonly kind: 'vector';
  readonly element: VectorElement;
  readonly length: 2 | 3 | 4 | 8 | 16;
}
export interface PointerType {
  readonly kind: 'pointer';
  readonly pointee: QualType;
}
export interface ArrayType {
  readonly kind: 'array';
  readonly element: QualType;
  /** null for an array of unknown size (a flexible array member, or `int a[]`). */
  readonly length: number | null;
}
export interface RecordType {
  readonly kind: 'record';
  readonly decl: RecordDecl;
}
export interface EnumType {
  readonly kind: 'enum';
  readonly decl: EnumDecl;
}
export interface TypedefType {
  readonly kind: 'typedef';
  readonly name: string;
  readonly target: QualType;
  /** Built-in typedefs such as `float4` or `uint` are spelled like this too, but print as their name. */
  readonly span?: Span;
}
export interface ImageType {
  readonly kind: 'image';
  readonly name: ImageName;
}
export interface OpaqueType {
  readonly kind: 'opaque';
  readonly name: OpaqueName;
}
export interface PipeType {
  readonly kind: 'pipe';
  readonly element: QualType;
}
export interface FunctionType {
  readonly kind: 'function';
  readonly result: QualType;
  readonly params: readonly QualType[];
  readonly variadic: boolean;
}

export type Type =
  | ScalarType
  | VectorType
  | PointerType
  | ArrayType
  | RecordType
  | EnumType
  | TypedefType
  | ImageType
  | OpaqueType
  | PipeType
  | FunctionType;

/** A type with its qualifiers, as C attaches them: address space and access qualifier included. */
export interface QualType {
  readonly type: Type;
  readonly const?: boolean;
  readonly volatile?: boolean;
  readonly restrict?: boolean;
  /** The named address space; absent means the default for where the type is used. */
  readonly space?: AddressSpace;
  /** For images and pipes. */
  readonly access?: AccessQualifier;
}

export interface FieldDecl {
  readonly name: string | null;
  readonly type: QualType;
  /** Bit-field width, if it is one. */
  readonly bitWidth?: number;
  /** `__attribute__((packed))` on the field. */
  readonly packed?: boolean;
  /** `__attribute__((aligned(N)))` on the field. */
  readonly aligned?: number;
  readonly span: Span;
}

export interface RecordDecl {
  readonly tagKind: 'struct' | 'union';
  /** The tag, or null for an anonymous struct/union. */
  readonly name: string | null;
  fields: FieldDecl[] | null; // null while incomplete
  packed: boolean;
  aligned?: number;
  readonly span: Span;
  /** Unique per declaration, for caches and printing. */
  readonly id: number;
  /** For an anonymous record: the first typedef that names it (C's typedef name for linkage). */
  typedefName?: string;
}

export interface EnumDecl {
  readonly name: string | null;
  enumerators: { name: string; value: bigint; span: Span }[];
  /** The integer type it is stored as. */
  underlying: ScalarName;
  packed: boolean;
  complete: boolean;
  readonly span: Span;
  readonly id: number;
  typedefName?: string;
}

export const scalar = (name: ScalarName): ScalarType => ({ kind: 'scalar', name });
export const q = (type: Type, quals: Omit<QualType, 'type'> = {}): QualType => ({ type, ...quals });

/**
 * Strips typedefs (keeping qualifiers merged), as clang's canonical type does; an array
 * carries its elements' qualifiers and address space (C11 6.7.3p9), so a pointer to
 * `global const uchar[6]` points into global memory and to const data.
 */
export function canonical(t: QualType): QualType {
  if (t.type.kind === 'array') return withElementQuals(t);
  if (t.type.kind !== 'typedef') return t;
  // Without qualifiers of its own, the answer depends only on the typedef (one object per
  // declaration, shared by every use): worked out once. Lowering asks this many times per parameter.
  const plain = !t.const && !t.volatile && !t.restrict && !t.space && !t.access;
  if (plain) {
    const known = typedefCanonical.get(t.type);
    if (known) return known;
  }
  // (No object spreads here: src/abi/slot-shape.ts says why.)
  let cur = t;
  let isConst = false;
  let isVolatile = false;
  let isRestrict = false;
  let space: AddressSpace | undefined;
  let access: AccessQualifier | undefined;
  for (;;) {
    isConst ||= !!cur.const;
    isVolatile ||= !!cur.volatile;
    isRestrict ||= !!cur.restrict;
    space ??= cur.space;
    access ??= cur.access;
    if (cur.type.kind !== 'typedef') break;
    cur = cur.type.target;
  }
  const out = qualified(cur.type, isConst, isVolatile, isRestrict, space, access);
  const result = out.type.kind === 'array' ? withElementQuals(out) : out;
  if (plain) typedefCanonical.set(t.type, result);
  return result;
}

/** The canonical type of an unqualified use of each typedef (see `canonical`). */
const typedefCanonical = new WeakMap<Type, QualType>();

/** A qualified type with only the qualifiers that are set, in clean's order. */
function qualified(
  type: Type,
  isConst: boolean,
  isVolatile: boolean,
  isRestrict: boolean,
  space: AddressSpace | undefined,
  access: AccessQualifier | undefined,
): QualType {
  const out: { -readonly [K in keyof QualType]: QualType[K] } = { type };
  if (isConst) out.const = true;
  if (isVolatile) out.volatile = true;
  if (isRestrict) out.restrict = true;
  if (space) out.space = space;
  if (access) out.access = access;
  return out;
}

/**
 * An array's qualifiers with its element's (an array of const T is const). The element's are
 * remembered per array type object (not per qualified type, which `canonical` makes anew at every
 * call): found recursively, so without the memo a walk over n nested arrays that asks at every
 * level cost n² or n³ (250 nested `[1]` took 11 s).
 */
const elementQuals = new WeakMap<ArrayType, Pick<QualType, 'const' | 'volatile' | 'space'>>();
function withElementQuals(t: QualType): QualType {
  if (t.type.kind !== 'array') return t;
  const element = t.type.element;
  // An element that is neither an array nor a typedef shows its qualifiers as it is: nothing to remember.
  let e = element.type.kind !== 'array' && element.type.kind !== 'typedef' ? element : elementQuals.get(t.type);
  if (!e) {
    const c = canonical(t.type.element);
    e = { const: c.const, volatile: c.volatile, space: c.space };
    elementQuals.set(t.type, e);
  }
  if (!e.const && !e.volatile && !e.space) return t;
  return qualified(
    t.type,
    !!(t.const || e.const),
    !!(t.volatile || e.volatile),
    !!t.restrict,
    t.space ?? e.space,
    t.access,
  );
}

export const isInteger = (t: Type): boolean =>
  (t.kind === 'scalar' && t.name !== 'void' && isIntegerEncoding(SCALAR_FACTS[t.name].encoding)) || t.kind === 'enum';
export function isUnsignedScalar(name: ScalarName): boolean {
  return SCALAR_FACTS[name].unsigned;
}

/** Whether any member (transitively) is of a kind the predicate accepts. */
export function containsType(t: QualType, pred: (t: Type) => boolean, seen?: Set<number>): boolean {
  const c = canonical(t).type;
  if (pred(c)) return true;
  if (c.kind === 'array') return containsType(c.element, pred, seen);
  if (c.kind === 'record' && c.decl.fields && !seen?.has(c.decl.id)) {
    // The set of records walked is made only when a record is reached (most types hold none).
    const inner = seen ?? new Set<number>();
    inner.add(c.decl.id);
    for (const f of c.decl.fields) if (containsType(f.type, pred, inner)) return true;
  }
  return false;
}
