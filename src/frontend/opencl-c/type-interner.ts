/**
 * One object per distinct type among a file's function signatures. The parser builds a fresh
 * QualType, Type and pointee for every parameter it reads; a file of 190,000 kernels with the same
 * three parameters held 570,000 of each (about 370 bytes a kernel, a third of its module: issue
 * 30). The checker passes each parameter and result type through `qual` before it keeps it, so
 * equal types are one object. Types are never changed once built, and equal types lay out alike,
 * so sharing them changes no answer (and caches keyed by a type object hit more often).
 *
 * Records, enums, arrays, functions and pipes keep their identity (a record type is its
 * declaration's); a typedef's use is shared per declaration (its target object) and name.
 */
import { assertNever } from '../../assert-never.js';
import type {
  AccessQualifier,
  ImageType,
  OpaqueType,
  VectorType,
  AddressSpace,
  PointerType,
  QualType,
  ScalarType,
  Type,
  TypedefType,
} from '../../types/types.js';

/** Qualifier bits of a QualType's key: const, volatile, restrict, then the space and the access as small numbers. */
const SPACE_BITS = { private: 1, global: 2, constant: 3, local: 4, generic: 5 } satisfies Record<AddressSpace, number>;
const ACCESS_BITS = { read_only: 1, write_only: 2, read_write: 3 } satisfies Record<AccessQualifier, number>;

function qualKey(t: QualType): number {
  return (
    (t.const ? 1 : 0) |
    (t.volatile ? 2 : 0) |
    (t.restrict ? 4 : 0) |
    ((t.space ? SPACE_BITS[t.space] : 0) << 3) |
    ((t.access ? ACCESS_BITS[t.access] : 0) << 6)
  );
}

export class TypeInterner {
  /** Scalars by name (spelled ones by name and spelling), vectors by element and length, images and opaque types by name. */
  private readonly scalars = new Map<string, ScalarType>();
  private readonly vectors = new Map<string, VectorType>();
  private readonly named = new Map<string, ImageType | OpaqueType>();
  /** Pointers by their (shared) pointee. */
  private readonly pointers = new WeakMap<QualType, PointerType>();
  /** Typedef uses by the declaration's target type, then name. */
  private readonly typedefs = new WeakMap<QualType, Map<string, TypedefType>>();
  /** Qualified types by their (shared) type, then `qualKey`. */
  private readonly quals = new WeakMap<Type, Map<number, QualType>>();

  /**
   * The objects `qual` answered: asked again with one of them it is one lookup, not one per level (the parser's fast
   * path hands the same object for every parameter spelled alike: parser-plain-function.ts).
   */
  private readonly answered = new WeakSet<QualType>();

  qual(t: QualType): QualType {
    if (this.answered.has(t)) return t;
    const out = this.lookup(t);
    this.answered.add(out);
    return out;
  }

  private lookup(t: QualType): QualType {
    const type = this.type(t.type);
    let byKey = this.quals.get(type);
    if (!byKey) this.quals.set(type, (byKey = new Map()));
    const key = qualKey(t);
    let out = byKey.get(key);
    if (!out) byKey.set(key, (out = type === t.type ? t : { ...t, type }));
    return out;
  }

  private type(t: Type): Type {
    switch (t.kind) {
      case 'scalar':
        return shared(this.scalars, t.spelling === undefined ? t.name : `${t.name} ${t.spelling}`, t);
      case 'vector':
        return shared(this.vectors, `${t.element}${t.length}`, t);
      case 'image':
      case 'opaque':
        return shared(this.named, t.name, t);
      case 'pointer': {
        const pointee = this.qual(t.pointee);
        let out = this.pointers.get(pointee);
        if (!out) this.pointers.set(pointee, (out = pointee === t.pointee ? t : { kind: 'pointer', pointee }));
        return out;
      }
      case 'typedef': {
        let byName = this.typedefs.get(t.target);
        if (!byName) this.typedefs.set(t.target, (byName = new Map()));
        let out = byName.get(t.name);
        if (!out) byName.set(t.name, (out = t));
        // Another use of the declaration with the same span: the same type. (A span differs only for a
        // redeclared typedef of the same target, which is a type of its own for printing.)
        return out.span === t.span ? out : t;
      }
      case 'record':
      case 'enum':
      case 'array':
      case 'function':
      case 'pipe':
        return t;
      default:
        return assertNever(t);
    }
  }
}

/** The type `map` holds at `key`, `t` if none yet. */
function shared<T>(map: Map<string, T>, key: string, t: T): T {
  const out = map.get(key);
  if (out !== undefined) return out;
  map.set(key, t);
  return t;
}
