import type { Inst } from '../../frontend/tinytc/ast.js';
import { blasCall, blasLoops, gemmOperands } from '../blas-loops.js';
import type { BodyScope } from './body-scope.js';
import { collective } from './collective.js';
import { gemm } from './gemm.js';

/**
 * A BLAS-like instruction as OpenCL C: its operands read from the scope by role (alpha and beta in
 * the C operand's element type, blas-loops.ts), GEMM's printer or the loops of the others printed.
 */
export function blasC(s: BodyScope, inst: Extract<Inst, { op: 'blas' }>): void {
  const call = blasCall(inst, s.k.atomicModes.get(inst) ?? null, s);
  const lines = call.fn === 'gemm' ? gemm(s.ctx, ...gemmOperands(call)) : collective(s.ctx, blasLoops(call));
  for (const l of lines) s.line(l);
}
