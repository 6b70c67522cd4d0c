// The JS reference's BLAS instructions (tinytc-reference.ts), written from tinytc's definitions and
// nothing of the printers': C := alpha op(A) [op(B)] + beta C element by element, sums in k order.
import type { Inst, Operand, ScalarTypeName } from '../../src/frontend/tinytc/ast.js';
import { type Mem, readAt, readElement, write } from './tinytc-reference-memory.js';
import { type Scalar, add, isF, mul, wrap } from './tinytc-reference-scalars.js';

/** One BLAS instruction, its operands read through the running function's scalar and memref values. */
export function runBlas(
  inst: Extract<Inst, { op: 'blas' }>,
  scalar: (o: Operand, t: ScalarTypeName) => Scalar,
  mem: (o: Operand) => Mem,
): void {
  const o = inst.operands;
  const tn = (i: number) => (inst.types[i].type as { name: ScalarTypeName }).name;
  const n = o.length;
  const c = mem(o[n - 1]);
  const et = c.element;
  // Mixed-type operands: alpha, beta and every element read are converted to C's element type
  // first, and the arithmetic is done in that type.
  const alpha = wrap(et, scalar(o[0], tn(0)));
  const betaOp = o[n === 4 ? 2 : 3];
  const beta = wrap(et, scalar(betaOp, tn(n === 4 ? 2 : 3)));
  const betaZero = betaOp.kind !== 'value';
  const betaIsZero = betaZero && Number(beta) === 0;
  const read = (m: Mem, index: readonly number[]) => wrap(et, readElement(m, index));
  const upd = (index: number[], value: Scalar) => {
    const v = betaIsZero ? value : add(et, value, mul(et, beta, readElement(c, index)));
    write(c, index, wrap(et, v));
  };
  // op(m) as a matrix: element (i, j) at base + i·rs + j·cs, computed without an index array. With an index array
  // per read (summed by reduce) V8 11.3 (Node 20) left one product out of one sum now and then under load, when its
  // optimizing compiler ran on its own thread: docs/testing.md, scripts/reference-repeat.ts.
  const T = (m: Mem, t: 'n' | 't' | null) => {
    const two = m.shape.length === 2;
    const swap = t === 't' && two;
    const rs = swap ? m.stride[1] : m.stride[0];
    const cs = swap ? m.stride[0] : two ? m.stride[1] : 0;
    return {
      rows: swap ? m.shape[1] : m.shape[0],
      cols: swap ? m.shape[0] : two ? m.shape[1] : 1,
      at: (i: number, j: number) => wrap(et, readAt(m, m.base + i * rs + j * cs)),
    };
  };
  switch (inst.fn) {
    case 'axpby': {
      const a = mem(o[1]);
      if (c.shape.length === 0) upd([], mul(et, alpha, read(a, [])));
      else if (c.shape.length === 1) for (let i = 0; i < c.shape[0]; i++) upd([i], mul(et, alpha, read(a, [i])));
      else {
        const A = T(a, inst.transA);
        for (let j = 0; j < c.shape[1]; j++)
          for (let i = 0; i < c.shape[0]; i++) upd([i, j], mul(et, alpha, A.at(i, j)));
      }
      return;
    }
    case 'hadamard': {
      const a = mem(o[1]);
      const b = mem(o[2]);
      for (let i = 0; i < c.shape[0]; i++) upd([i], mul(et, mul(et, alpha, read(a, [i])), read(b, [i])));
      return;
    }
    case 'ger': {
      const a = mem(o[1]);
      const b = mem(o[2]);
      for (let j = 0; j < c.shape[1]; j++)
        for (let i = 0; i < c.shape[0]; i++) upd([i, j], mul(et, mul(et, alpha, read(a, [i])), read(b, [j])));
      return;
    }
    case 'gemv': {
      const A = T(mem(o[1]), inst.transA);
      const bk = T(mem(o[2]), null);
      for (let i = 0; i < c.shape[0]; i++) {
        let acc: Scalar = isF(et) ? 0 : 0n;
        for (let k = 0; k < A.cols; k++) acc = wrap(et, add(et, acc, mul(et, A.at(i, k), bk.at(k, 0))));
        upd([i], mul(et, alpha, acc));
      }
      return;
    }
    case 'sum': {
      const a = mem(o[1]);
      if (a.shape.length === 2) {
        const A = T(a, inst.transA);
        for (let i = 0; i < c.shape[0]; i++) {
          let acc: Scalar = isF(et) ? 0 : 0n;
          for (let k = 0; k < A.cols; k++) acc = wrap(et, add(et, acc, A.at(i, k)));
          upd([i], mul(et, alpha, acc));
        }
      } else {
        let acc: Scalar = isF(et) ? 0 : 0n;
        for (let k = 0; k < a.shape[0]; k++) acc = wrap(et, add(et, acc, read(a, [k])));
        upd([], mul(et, alpha, acc));
      }
      return;
    }
    case 'gemm': {
      const A = T(mem(o[1]), inst.transA);
      const B = T(mem(o[2]), inst.transB);
      for (let j = 0; j < c.shape[1]; j++) {
        for (let i = 0; i < c.shape[0]; i++) {
          let acc: Scalar = isF(et) ? 0 : 0n;
          for (let k = 0; k < A.cols; k++) acc = wrap(et, add(et, acc, mul(et, A.at(i, k), B.at(k, j))));
          upd([i, j], mul(et, alpha, acc));
        }
      }
      return;
    }
  }
}
