import { Messages } from '../../../diagnostics/messages.js';
import type { Dim } from '../ast.js';
import { type Inst04, type Memref04, type04Text } from './ast.js';
import type { CheckContext04 } from './check-context.js';

/** The checks of tinytc v0.4's BLAS instructions: operand count and kinds, then the shapes agreeing. */
export function checkBlas04(fc: CheckContext04, inst: Extract<Inst04, { form: 'blas' }>): void {
  const three = ['gemm', 'gemv', 'ger', 'hadamard'].includes(inst.op);
  const n = three ? 5 : 4;
  if (inst.operands.length !== n) {
    fc.diags.report(Messages.irOperandCount, inst.span, [inst.op, `${n} operands`]);
    return;
  }
  const types = inst.operands.map((v) => fc.use(v, null, inst.op));
  const scalars = three ? [0, 3] : [0, 2];
  const mems: Memref04[] = [];
  types.forEach((t, i) => {
    if (!t) return;
    const wantScalar = scalars.includes(i);
    if (wantScalar ? t.kind !== 'number' : t.kind !== 'memref')
      fc.diags.report(Messages.irTypeMismatch, inst.operands[i].span, [
        `operand ${i + 1} of ${inst.op} must be ${wantScalar ? 'a number' : 'a memref'}, not ${type04Text(t)}`,
      ]);
    else if (!wantScalar) mems.push(t as Memref04);
  });
  if (mems.length !== n - 2) return;
  const trans = inst.flags.filter((f) => f === '.n' || f === '.t');
  const op = (m: Memref04, t: string | undefined): readonly Dim[] =>
    t === '.t' && m.shape.length === 2 ? [m.shape[1], m.shape[0]] : m.shape;
  const mismatch = (a: Dim, b: Dim) => a !== null && b !== null && a !== b;
  const bad = (() => {
    switch (inst.op) {
      case 'axpby': {
        const a = op(mems[0], trans[0]);
        return a.length !== mems[1].shape.length || a.some((e, i) => mismatch(e, mems[1].shape[i]));
      }
      case 'cumsum':
        return (
          mems[0].shape.length !== mems[1].shape.length || mems[0].shape.some((e, i) => mismatch(e, mems[1].shape[i]))
        );
      case 'sum': {
        const a = op(mems[0], trans[0]);
        return a.length !== mems[1].shape.length + 1 || (a.length === 2 && mismatch(a[0], mems[1].shape[0]));
      }
      case 'gemm': {
        const a = op(mems[0], trans[0]);
        const b = op(mems[1], trans[1]);
        return (
          a.length !== 2 ||
          b.length !== 2 ||
          mems[2].shape.length !== 2 ||
          mismatch(a[1], b[0]) ||
          mismatch(a[0], mems[2].shape[0]) ||
          mismatch(b[1], mems[2].shape[1])
        );
      }
      case 'gemv': {
        const a = op(mems[0], trans[0]);
        return (
          a.length !== 2 ||
          mems[1].shape.length !== 1 ||
          mems[2].shape.length !== 1 ||
          mismatch(a[1], mems[1].shape[0]) ||
          mismatch(a[0], mems[2].shape[0])
        );
      }
      case 'ger':
        return (
          mems[0].shape.length !== 1 ||
          mems[1].shape.length !== 1 ||
          mems[2].shape.length !== 2 ||
          mismatch(mems[0].shape[0], mems[2].shape[0]) ||
          mismatch(mems[1].shape[0], mems[2].shape[1])
        );
      case 'hadamard':
        return (
          mems.some((m) => m.shape.length !== mems[2].shape.length) ||
          mems.some((m) => m.shape.some((e, i) => mismatch(e, mems[2].shape[i])))
        );
      default:
        return false;
    }
  })();
  if (bad)
    fc.diags.report(Messages.irShapeMismatch, inst.span, [
      inst.op,
      `incompatible tensor shapes (${mems.map((m) => type04Text(m)).join(', ')})`,
    ]);
}
