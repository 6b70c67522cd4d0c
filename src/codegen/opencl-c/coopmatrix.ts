import type { Inst, IrType, Operand, ScalarTypeName } from '../../frontend/tinytc/ast.js';
import { varName } from '../../frontend/tinytc/calling-convention.js';
import type { CoopmatrixType } from '../../frontend/tinytc/coopmatrix-layout.js';
import type { BodyScope } from './body-scope.js';
import { C_TYPE } from './c-scalars.js';

// tinytc v0.4's cooperative matrices in OpenCL C: a work-item's share of a matrix is its components, each a C
// expression of the component type (a variable or a literal) kept apart; an extract reads one, an insert
// replaces one, a construct repeats one, and no line of C is printed for any of them. Only an if's results
// and a loop's carried values need variables: one per component (the v0.4 rewrite, to-v03-coopmatrix.ts,
// has spelled every component-wise instruction as scalar instructions between extracts and inserts).

/** The scalar types of the C variables that hold a value of type t: itself, or a coopmatrix's components. */
export function cSlots(t: IrType): ScalarTypeName[] {
  if (t.kind === 'coopmatrix') return new Array<ScalarTypeName>(t.layout.length).fill(t.component);
  return [(t as { name: ScalarTypeName }).name];
}

/** An operand of type t as the C expressions of its slots (cSlots). */
export function cSlotExprs(s: BodyScope, o: Operand, t: IrType): string[] {
  if (t.kind !== 'coopmatrix') return [s.scalar(o, (t as { name: ScalarTypeName }).name)];
  const v = s.value(o);
  if (v.kind !== 'coopmatrix') throw new Error('kernarg: a coopmatrix operand that is not a coopmatrix value');
  return [...v.exprs];
}

/** Names the value `irName` of type t after the C variables (or expressions) of its slots. */
export function bindSlots(s: BodyScope, irName: string, t: IrType, exprs: readonly string[]): void {
  if (t.kind === 'coopmatrix') s.values.set(irName, { kind: 'coopmatrix', exprs, type: t });
  else s.values.set(irName, { kind: 'scalar', expr: exprs[0], type: (t as { name: ScalarTypeName }).name });
}

/** Fresh C variables for the slots of a value of type t, declared (with `init`, when given). */
export function declareSlots(s: BodyScope, irName: string, t: IrType, init?: readonly string[]): string[] {
  const slots = cSlots(t);
  return slots.map((ct, j) => {
    const c = s.names.fresh(slots.length > 1 || t.kind === 'coopmatrix' ? `${varName(irName)}_${j}` : varName(irName));
    s.line(`${C_TYPE[ct]} ${c}${init ? ` = ${init[j]}` : ''};`);
    return c;
  });
}

/** The v0.3 tree's coopmatrix instructions (the v0.4 rewrite's) in OpenCL C. */
export function coopmatrixC(
  s: BodyScope,
  inst: Extract<Inst, { op: 'coopmatrix_construct' | 'coopmatrix_extract' | 'coopmatrix_insert' }>,
  result: string,
): void {
  const t = inst.type.type as CoopmatrixType;
  const n = t.layout.length;
  switch (inst.op) {
    case 'coopmatrix_construct': {
      // Components not yet inserted hold 0 (nothing reads them before an insert: the rewrite inserts each).
      const o: Operand = inst.operand ?? { kind: 'int', value: 0n, span: inst.span };
      const expr = s.scalar(o, t.component);
      s.values.set(result, { kind: 'coopmatrix', exprs: new Array<string>(n).fill(expr), type: t });
      return;
    }
    case 'coopmatrix_extract': {
      const exprs = cSlotExprs(s, inst.operand, t);
      s.values.set(result, { kind: 'scalar', expr: exprs[inst.index], type: t.component });
      return;
    }
    case 'coopmatrix_insert': {
      const exprs = cSlotExprs(s, inst.operand, t);
      exprs[inst.index] = s.scalar(inst.value, t.component);
      s.values.set(result, { kind: 'coopmatrix', exprs, type: t });
      return;
    }
  }
}
