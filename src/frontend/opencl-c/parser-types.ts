/** Type helpers for the parser: field lookup, qualifier stripping, type substitution and compatibility. */
import type { DataLayout } from '../../layout/data-layout.js';
import { type FieldLayout, recordLayout } from '../../layout/layout.js';
import type { FunctionInfo } from '../../model/kernel-module.js';
import { type QualType, type RecordDecl, type Type, canonical, scalar } from '../../types/types.js';

/** A named field, looking into anonymous struct/union members; offsets are relative to the record. */
export function findField(fields: readonly FieldLayout[], name: string, dl: DataLayout): FieldLayout | undefined {
  for (const f of fields) {
    if (f.name === name) return f;
    const c = canonical(f.type).type;
    if (f.name === null && c.kind === 'record') {
      const inner = findField(recordLayout(c.decl, dl).fields, name, dl);
      if (inner) return { ...inner, offset: f.offset + inner.offset };
    }
  }
  return undefined;
}

export function stripQuals(t: QualType): QualType {
  return { type: t.type, ...(t.const ? { const: true } : {}), ...(t.volatile ? { volatile: true } : {}), ...(t.restrict ? { restrict: true } : {}) };
}

export function functionTypeOf(f: FunctionInfo): Type {
  return { kind: 'function', result: f.result, params: f.params.map((p) => p.type), variadic: false };
}

/** Replaces the placeholder at the bottom of a declarator's type with the real base type. */
export function substitute(t: QualType, placeholder: QualType, base: QualType): QualType {
  if (t === placeholder) return base;
  const ty = t.type;
  switch (ty.kind) {
    case 'pointer':
      return { ...t, type: { kind: 'pointer', pointee: substitute(ty.pointee, placeholder, base) } };
    case 'array':
      return { ...t, type: { kind: 'array', element: substitute(ty.element, placeholder, base), length: ty.length } };
    case 'function':
      return { ...t, type: { ...ty, result: substitute(ty.result, placeholder, base) } };
    default:
      return t;
  }
}

/** Structural type equality after typedefs (for redeclarations). */
export function sameType(a: QualType, b: QualType): boolean {
  const x = canonical(a);
  const y = canonical(b);
  if (!!x.const !== !!y.const || !!x.volatile !== !!y.volatile || (x.space ?? 'private') !== (y.space ?? 'private')) return false;
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
      return sameType(s.result, u.result) && s.params.length === u.params.length && s.params.every((p, i) => sameType(unqualified(p), unqualified(u.params[i])));
    }
    default:
      return false;
  }
}

/** Object types of a declaration and its definition: equal, or arrays of equal elements one of which leaves its length out. */
export function compatibleObjectTypes(a: QualType, b: QualType): boolean {
  const x = canonical(a);
  const y = canonical(b);
  if (x.type.kind === 'array' && y.type.kind === 'array' && (x.type.length === null || y.type.length === null)) return sameType(x.type.element, y.type.element);
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
