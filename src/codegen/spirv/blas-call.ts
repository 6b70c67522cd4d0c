import type { Inst, ScalarTypeName } from '../../frontend/tinytc/ast.js';
import type { BodyScope } from './body-scope.js';
import * as blas from './collective.js';
import { gemm } from './gemm.js';

/**
 * A BLAS-like instruction as SPIR-V: its operands read from the scope (alpha and beta converted to
 * the C operand's element type), the collective emitter of its function called.
 */
export function blasS(s: BodyScope, inst: Extract<Inst, { op: 'blas' }>): void {
  const t = (i: number) => (inst.types[i].type as { name: ScalarTypeName }).name;
  const o = inst.operands;
  const c = s.ctx;
  const e = s.view(o[o.length - 1]).element;
  const atomic = s.k.atomicModes.get(inst) ?? null;
  switch (inst.fn) {
    case 'axpby':
      return blas.axpby(
        c,
        inst.transA,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.scalarArg(o[2], t(2), e),
        s.view(o[3]),
      );
    case 'sum':
      return blas.sum(
        c,
        inst.transA,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.scalarArg(o[2], t(2), e),
        s.view(o[3]),
      );
    case 'gemm':
      return gemm(
        c,
        inst.transA,
        inst.transB,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.view(o[2]),
        s.scalarArg(o[3], t(3), e),
        s.view(o[4]),
      );
    case 'gemv':
      return blas.gemv(
        c,
        inst.transA,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.view(o[2]),
        s.scalarArg(o[3], t(3), e),
        s.view(o[4]),
      );
    case 'ger':
      return blas.ger(
        c,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.view(o[2]),
        s.scalarArg(o[3], t(3), e),
        s.view(o[4]),
      );
    case 'hadamard':
      return blas.hadamard(
        c,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.view(o[2]),
        s.scalarArg(o[3], t(3), e),
        s.view(o[4]),
      );
  }
}
