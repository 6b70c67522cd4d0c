/** tinytc v0.3's type rules that every instruction check shares: type equality and the types checks name. */

import type { IrType, MemrefType } from './ast.js';

/** The types the checks name again and again. */
export const INDEX: IrType = { kind: 'scalar', name: 'index' };
export const I1: IrType = { kind: 'scalar', name: 'i1' };
export const I32: IrType = { kind: 'scalar', name: 'i32' };

/** Type equality as tinytc defines it: a group's offset does not take part. */
export function sameIrType(a: IrType, b: IrType): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'scalar') return a.name === (b as typeof a).name;
  if (a.kind === 'void') return true;
  if (a.kind === 'group') return sameIrType(a.memref, (b as typeof a).memref);
  if (a.kind === 'coopmatrix') {
    const c = b as typeof a;
    return a.component === c.component && a.use === c.use && a.shape[0] === c.shape[0] && a.shape[1] === c.shape[1];
  }
  const m = b as MemrefType;
  return (
    a.element === m.element &&
    a.shape.length === m.shape.length &&
    a.shape.every((d, i) => d === m.shape[i]) &&
    a.stride.every((d, i) => d === m.stride[i])
  );
}
