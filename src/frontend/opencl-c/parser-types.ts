/** Type helpers for the parser: field lookup, qualifier stripping and type substitution. */
import type { DataLayout } from '../../layout/data-layout.js';
import { type FieldLayout, recordLayout } from '../../layout/layout.js';
import { type QualType, type Type, canonical } from '../../types/types.js';

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
  return {
    type: t.type,
    ...(t.const ? { const: true } : {}),
    ...(t.volatile ? { volatile: true } : {}),
    ...(t.restrict ? { restrict: true } : {}),
  };
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
