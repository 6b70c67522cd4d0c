import type { Inst, IrType, ScalarTypeName } from '../../frontend/tinytc/ast.js';
import type { CoopmatrixType } from '../../frontend/tinytc/coopmatrix-layout.js';
import type { BodyScope } from './body-scope.js';
import { coopmatrixConstant, coopmatrixConstruct, coopmatrixExtract, coopmatrixInsert } from './coopmatrix.js';

/** What a value of an if result or a loop-carried value is kept as: its scalar type, or its coopmatrix type. */
export const valueType = (t: IrType): ScalarTypeName | CoopmatrixType =>
  t.kind === 'coopmatrix' ? t : (t as { name: ScalarTypeName }).name;

/** The v0.3 tree's coopmatrix instructions (the v0.4 rewrite's, to-v03-coopmatrix.ts) as SPIR-V. */
export function coopmatrixS(
  s: BodyScope,
  inst: Extract<Inst, { op: 'coopmatrix_construct' | 'coopmatrix_extract' | 'coopmatrix_insert' }>,
  result: string,
): void {
  const g = s.g;
  const t = inst.type.type as CoopmatrixType;
  switch (inst.op) {
    case 'coopmatrix_construct': {
      const o = inst.operand;
      const id =
        o === null
          ? coopmatrixConstruct(g, t, null)
          : inst.constant && o.kind !== 'value'
            ? coopmatrixConstant(g, t, o)
            : coopmatrixConstruct(g, t, s.scalar(o, t.component), o.kind !== 'value');
      s.define(result, id, t);
      return;
    }
    case 'coopmatrix_extract':
      s.define(result, coopmatrixExtract(g, t, s.scalar(inst.operand, t), inst.index), t.component);
      return;
    case 'coopmatrix_insert': {
      const val = s.scalar(inst.value, t.component);
      s.define(result, coopmatrixInsert(g, t, val, s.scalar(inst.operand, t), inst.index), t);
      return;
    }
  }
}
