import type { ScalarTypeName } from '../../frontend/tinytc/ast.js';
import { type Ext as ExtOf, extOps } from '../dope.js';

/** A static extent, stride or index (a number) or a C expression that computes it at run time. */
export type Ext = ExtOf<string>;

/** A memref as the generated code sees it: a pointer expression and its dope vector, entry by entry. */
export interface View {
  readonly ptr: string;
  readonly space: 'global' | 'local';
  readonly element: ScalarTypeName;
  readonly shape: readonly Ext[];
  readonly stride: readonly Ext[];
}

const text = (e: Ext) => (typeof e === 'number' ? (e < 0 ? `(${e})` : String(e)) : e);

/** The folding rules of dope.ts, spelled in OpenCL C. */
export const C_EXT = extOps<string>({
  mul: (a, b) => `(${text(a)} * ${text(b)})`,
  add: (a, b) => `(${text(a)} + ${text(b)})`,
  sub: (a, b) => `(${text(a)} - ${text(b)})`,
  div: (a, b) => `(${text(a)} / ${text(b)})`,
});

export const mulExt = C_EXT.mul;
export const addExt = C_EXT.add;
export const subExt = C_EXT.sub;
export const divExt = C_EXT.div;
export const offsetOf = C_EXT.offsetOf;
export const extText = text;

/** The lvalue of one element. */
export function elementAt(v: View, index: readonly Ext[]): string {
  return `${v.ptr}[${text(offsetOf(v.stride, index))}]`;
}

/** `global float*`, `local double*`. */
export function pointerType(space: 'global' | 'local', cType: string): string {
  return `${space} ${cType}*`;
}
