import { type Type04, type04Text } from './ast.js';

/** tinytc v0.4's type equality, which every instruction check shares: two types are one where they print alike. */
export function sameType04(a: Type04, b: Type04): boolean {
  return type04Text(a) === type04Text(b);
}

/** The types the checks name again and again. */
export const INDEX: Type04 = { kind: 'number', name: 'index' };
export const BOOL: Type04 = { kind: 'bool' };
export const I32: Type04 = { kind: 'number', name: 'i32' };
