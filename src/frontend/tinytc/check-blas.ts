import type { CheckContext } from './check-context.js';
import { Messages } from '../../diagnostics/messages.js';
import type { Dim, Inst, MemrefType } from './ast.js';

/** The checks of the collective BLAS instruction: operand roles and types, memref orders, extents. */

export function checkBlas(fc: CheckContext, inst: Extract<Inst, { op: 'blas' }>): void {
  fc.collective(inst, inst.fn);
  const n = inst.fn === 'axpby' || inst.fn === 'sum' ? 4 : 5;
  if (inst.operands.length !== n || inst.types.length !== n) {
    fc.diags.report(Messages.irOperandCount, inst.span, [inst.fn, `${n} operands and ${n} types`]);
    return;
  }
  // Operand roles: alpha, A, [B], beta, C.
  const scalars = n === 4 ? [0, 2] : [0, 3];
  let ok = true;
  inst.operands.forEach((o, i) => {
    const t = inst.types[i].type;
    if (scalars.includes(i) ? t.kind !== 'scalar' : t.kind !== 'memref') {
      fc.diags.report(Messages.irTypeMismatch, inst.types[i].span, [
        `operand ${i + 1} of ${inst.fn} must be ${scalars.includes(i) ? 'a scalar' : 'a memref'}`,
      ]);
      ok = false;
    }
    fc.use(o, t, `operand ${i + 1} of ${inst.fn}`);
  });
  if (!ok) return;
  const mems = inst.types.filter((t) => t.type.kind === 'memref').map((t) => t.type as MemrefType);
  const ranks = mems.map((m) => m.shape.length);
  const want: Record<string, number[]> = {
    axpby: [-1, -1],
    sum: [2, 1],
    gemm: [2, 2, 2],
    gemv: [2, 1, 1],
    ger: [1, 1, 2],
    hadamard: [1, 1, 1],
  };
  const w = [...want[inst.fn]];
  if (inst.fn === 'sum' && ranks[0] === 1) w.splice(0, 2, 1, 0);
  let ranksOk = true;
  ranks.forEach((r, i) => {
    if (w[i] >= 0 && r !== w[i]) {
      fc.diags.report(Messages.irTypeMismatch, inst.span, [
        `${inst.fn} operand memref ${i + 1} must have order ${w[i]}, not ${r}`,
      ]);
      ranksOk = false;
    }
  });
  if (inst.fn === 'axpby' && (ranks[0] !== ranks[1] || ranks[0] > 2)) {
    fc.diags.report(Messages.irTypeMismatch, inst.span, ['axpby needs A and B of the same order, at most 2']);
    ranksOk = false;
  }
  if (ranksOk) blasShapes(fc, inst, mems);
  const c = mems[mems.length - 1];
  if (inst.atomic && (c.element === 'i1' || c.element === 'i8' || c.element === 'i16')) {
    fc.diags.report(Messages.irNarrowAtomic, inst.span, [c.element]);
  }
  fc.results(inst, []);
}

/** The extents of op(A), op(B) and C must agree where they are static. */
function blasShapes(fc: CheckContext, inst: Extract<Inst, { op: 'blas' }>, m: readonly MemrefType[]): void {
  const op = (x: MemrefType, t: 'n' | 't' | null): readonly Dim[] =>
    t === 't' && x.shape.length === 2 ? [x.shape[1], x.shape[0]] : x.shape;
  switch (inst.fn) {
    case 'axpby': {
      const a = op(m[0], inst.transA);
      a.forEach((e, i) => fc.sameExtent(e, m[1].shape[i], inst, `mode ${i} of op(A) and B`));
      return;
    }
    case 'sum': {
      const a = op(m[0], inst.transA);
      if (a.length === 2) fc.sameExtent(a[0], m[1].shape[0], inst, 'rows of op(A) and B');
      return;
    }
    case 'gemm': {
      const a = op(m[0], inst.transA);
      const b = op(m[1], inst.transB);
      fc.sameExtent(a[1], b[0], inst, 'columns of op(A) and rows of op(B)');
      fc.sameExtent(a[0], m[2].shape[0], inst, 'rows of op(A) and C');
      fc.sameExtent(b[1], m[2].shape[1], inst, 'columns of op(B) and C');
      return;
    }
    case 'gemv': {
      const a = op(m[0], inst.transA);
      fc.sameExtent(a[1], m[1].shape[0], inst, 'columns of op(A) and rows of b');
      fc.sameExtent(a[0], m[2].shape[0], inst, 'rows of op(A) and c');
      return;
    }
    case 'ger':
      fc.sameExtent(m[0].shape[0], m[2].shape[0], inst, 'rows of a and C');
      fc.sameExtent(m[1].shape[0], m[2].shape[1], inst, 'rows of b and columns of C');
      return;
    case 'hadamard':
      fc.sameExtent(m[0].shape[0], m[2].shape[0], inst, 'a and c');
      fc.sameExtent(m[1].shape[0], m[2].shape[0], inst, 'b and c');
      return;
  }
}
