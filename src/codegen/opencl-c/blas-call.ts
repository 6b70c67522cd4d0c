import type { Inst, ScalarTypeName } from '../../frontend/tinytc/ast.js';
import type { BodyScope } from './body-scope.js';
import * as blas from './collective.js';
import { gemm } from './gemm.js';

/**
 * A BLAS-like instruction as OpenCL C: its operands read from the scope (alpha and beta in the C
 * operand's element type), the collective printer of its function called, its lines printed.
 */
export function blasC(s: BodyScope, inst: Extract<Inst, { op: 'blas' }>): void {
  const t = (i: number) => (inst.types[i].type as { name: ScalarTypeName }).name;
  const o = inst.operands;
  const atomic = s.k.atomicModes.get(inst) ?? null;
  const e = s.view(o[o.length - 1]).element;
  let lines: string[];
  switch (inst.fn) {
    case 'axpby':
      lines = blas.axpby(
        s.ctx,
        inst.transA,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.scalarArg(o[2], t(2), e),
        s.view(o[3]),
      );
      break;
    case 'sum':
      lines = blas.sum(
        s.ctx,
        inst.transA,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.scalarArg(o[2], t(2), e),
        s.view(o[3]),
      );
      break;
    case 'gemm':
      lines = gemm(
        s.ctx,
        inst.transA,
        inst.transB,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.view(o[2]),
        s.scalarArg(o[3], t(3), e),
        s.view(o[4]),
      );
      break;
    case 'gemv':
      lines = blas.gemv(
        s.ctx,
        inst.transA,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.view(o[2]),
        s.scalarArg(o[3], t(3), e),
        s.view(o[4]),
      );
      break;
    case 'ger':
      lines = blas.ger(
        s.ctx,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.view(o[2]),
        s.scalarArg(o[3], t(3), e),
        s.view(o[4]),
      );
      break;
    case 'hadamard':
      lines = blas.hadamard(
        s.ctx,
        atomic,
        s.scalarArg(o[0], t(0), e),
        s.view(o[1]),
        s.view(o[2]),
        s.scalarArg(o[3], t(3), e),
        s.view(o[4]),
      );
      break;
  }
  for (const l of lines) s.line(l);
}
