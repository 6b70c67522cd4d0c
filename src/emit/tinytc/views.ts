import type { ScalarTypeName } from '../../frontend/tinytc/ast.js';

/** A static extent, stride or index (a number) or a C expression that computes it at run time. */
export type Ext = number | string;

/** A memref as the generated code sees it: a pointer expression and its dope vector, entry by entry. */
export interface View {
  readonly ptr: string;
  readonly space: 'global' | 'local';
  readonly element: ScalarTypeName;
  readonly shape: readonly Ext[];
  readonly stride: readonly Ext[];
}

const text = (e: Ext) => (typeof e === 'number' ? (e < 0 ? `(${e})` : String(e)) : e);

/** a × b, folded where both are static or one is 0 or 1. */
export function mulExt(a: Ext, b: Ext): Ext {
  if (typeof a === 'number' && typeof b === 'number') return a * b;
  if (a === 0 || b === 0) return 0;
  if (a === 1) return b;
  if (b === 1) return a;
  return `(${text(a)} * ${text(b)})`;
}

/** a + b, folded. */
export function addExt(a: Ext, b: Ext): Ext {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (a === 0) return b;
  if (b === 0) return a;
  return `(${text(a)} + ${text(b)})`;
}

/** a − b, folded. */
export function subExt(a: Ext, b: Ext): Ext {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (b === 0) return a;
  return `(${text(a)} - ${text(b)})`;
}

/** a / b (exact division of extents), folded. */
export function divExt(a: Ext, b: Ext): Ext {
  if (typeof a === 'number' && typeof b === 'number') return a / b;
  if (b === 1) return a;
  return `(${text(a)} / ${text(b)})`;
}

export const extText = text;

/** The element offset of an index tuple: Σ index_i × stride_i. */
export function offsetOf(stride: readonly Ext[], index: readonly Ext[]): Ext {
  return index.reduce<Ext>((acc, i, k) => addExt(acc, mulExt(i, stride[k])), 0);
}

/** The lvalue of one element. */
export function elementAt(v: View, index: readonly Ext[]): string {
  return `${v.ptr}[${text(offsetOf(v.stride, index))}]`;
}

/** `global float*`, `local double*`. */
export function pointerType(space: 'global' | 'local', cType: string): string {
  return `${space} ${cType}*`;
}
