import { Messages } from '../../diagnostics/messages.js';
import type { Inst, IrType } from './ast.js';
import type { CheckContext } from './check-context.js';

/**
 * The v0.3 tree's cooperative-matrix instructions, which only the v0.4 rewrite makes (to-v03-coopmatrix.ts):
 * their operands and results, as the rest of the rewrite is checked for its value types.
 */
export function checkCoopmatrix(
  cx: CheckContext,
  inst: Extract<Inst, { op: 'coopmatrix_construct' | 'coopmatrix_extract' | 'coopmatrix_insert' }>,
): void {
  const t = inst.type.type;
  if (t.kind !== 'coopmatrix') {
    cx.diags.report(Messages.irTypeMismatch, inst.type.span, [`${inst.op} needs a coopmatrix type`]);
    return cx.results(inst, [{ kind: 'void' }]);
  }
  const component: IrType = { kind: 'scalar', name: t.component };
  switch (inst.op) {
    case 'coopmatrix_construct':
      if (inst.operand) cx.use(inst.operand, component, 'the coopmatrix component');
      return cx.results(inst, [t]);
    case 'coopmatrix_extract':
      cx.use(inst.operand, t, inst.op);
      return cx.results(inst, [component]);
    case 'coopmatrix_insert':
      cx.use(inst.operand, t, inst.op);
      cx.use(inst.value, component, 'the inserted component');
      return cx.results(inst, [t]);
  }
}
