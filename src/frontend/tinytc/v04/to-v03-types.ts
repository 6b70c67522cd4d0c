import type { Span } from '../../../diagnostics/source.js';
import { type IrType, type MemrefType, type ScalarTypeName, V04_SCALAR_TYPES } from '../ast.js';
import type { Type04 } from './ast.js';
import { NotLowered } from './to-v03-spmd.js';

/** The v0.3 types of tinytc v0.4's types, where v0.3 has them. */

const SCALAR: Partial<Record<string, ScalarTypeName>> = {
  i8: 'i8',
  i16: 'i16',
  i32: 'i32',
  i64: 'i64',
  index: 'index',
  f32: 'f32',
  f64: 'f64',
  f16: 'f16',
  bf16: 'bf16',
  c32: 'c32',
  c64: 'c64',
};
/** The scalar types only v0.4 knows. */
export const V04_ONLY = new Set<string>(V04_SCALAR_TYPES);

/** The v0.3 type of a v0.4 type, or why there is none. */
export function type03(t: Type04, span: Span): IrType {
  switch (t.kind) {
    case 'bool':
      return { kind: 'scalar', name: 'i1' };
    case 'number': {
      const s = SCALAR[t.name];
      if (!s) throw new NotLowered(t.name, span);
      return { kind: 'scalar', name: s };
    }
    case 'memref':
      return memref03(t, span);
    case 'group':
      return { kind: 'group', memref: memref03(t.memref, span), offset: t.offset, size: t.size };
    case 'coopmatrix':
      throw new NotLowered('coopmatrix', span);
    case 'void':
      return { kind: 'void' };
  }
}

function memref03(t: Extract<Type04, { kind: 'memref' }>, span: Span): MemrefType {
  const s = SCALAR[t.element];
  if (!s) throw new NotLowered(`memref of ${t.element}`, span);
  return { kind: 'memref', element: s, shape: t.shape, stride: t.stride, explicitStride: t.explicitStride };
}
