/** Type relations the checker asks about: redeclaration compatibility and records that hold pointers. */
import type { FunctionInfo } from '../../model/kernel-module.js';
import { type QualType, type RecordDecl, type Type, canonical } from '../../types/types.js';

export function functionTypeOf(f: FunctionInfo): Type {
  return { kind: 'function', result: f.result, params: f.params.map((p) => p.type), variadic: false };
}

/** Structural type equality after typedefs (for redeclarations). */
export function sameType(a: QualType, b: QualType): boolean {
  const x = canonical(a);
  const y = canonical(b);
  if (!!x.const !== !!y.const || !!x.volatile !== !!y.volatile || (x.space ?? 'private') !== (y.space ?? 'private'))
    return false;
  const s = x.type;
  const t = y.type;
  if (s.kind !== t.kind) return false;
  switch (s.kind) {
    case 'scalar':
      return s.name === (t as typeof s).name;
    case 'vector':
      return s.element === (t as typeof s).element && s.length === (t as typeof s).length;
    case 'pointer':
      return sameType(s.pointee, (t as typeof s).pointee);
    case 'array':
      return s.length === (t as typeof s).length && sameType(s.element, (t as typeof s).element);
    case 'record':
    case 'enum':
      return s.decl === (t as typeof s).decl;
    case 'image':
    case 'opaque':
      return s.name === (t as typeof s).name;
    case 'pipe':
      return sameType(s.element, (t as typeof s).element);
    case 'function': {
      const u = t as typeof s;
      // Top-level qualifiers of parameters are not part of the function type (C11 6.7.6.3p15).
      const unqualified = (p: QualType): QualType => ({ type: p.type, ...(p.space ? { space: p.space } : {}) });
      return (
        sameType(s.result, u.result) &&
        s.params.length === u.params.length &&
        s.params.every((p, i) => sameType(unqualified(p), unqualified(u.params[i])))
      );
    }
    default:
      return false;
  }
}

/** Object types of a declaration and its definition: equal, or arrays of equal elements one of which leaves its length out. */
export function compatibleObjectTypes(a: QualType, b: QualType): boolean {
  const x = canonical(a);
  const y = canonical(b);
  if (x.type.kind === 'array' && y.type.kind === 'array' && (x.type.length === null || y.type.length === null))
    return sameType(x.type.element, y.type.element);
  return sameType(a, b);
}

export function recordHasPointer(decl: RecordDecl, seen = new Set<number>()): boolean {
  if (seen.has(decl.id)) return false;
  seen.add(decl.id);
  for (const f of decl.fields ?? []) {
    let c = canonical(f.type).type;
    while (c.kind === 'array') c = canonical(c.element).type;
    if (c.kind === 'pointer') return true;
    if (c.kind === 'record' && recordHasPointer(c.decl, seen)) return true;
  }
  return false;
}
