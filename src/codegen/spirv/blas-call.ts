import type { Inst } from '../../frontend/tinytc/ast.js';
import { blasCall, blasLoops, gemmOperands } from '../blas-loops.js';
import type { BodyScope } from './body-scope.js';
import { collective } from './collective.js';
import { gemm } from './gemm.js';

/**
 * A BLAS-like instruction as SPIR-V: its operands read from the scope by role (alpha and beta
 * converted to the C operand's element type, blas-loops.ts), GEMM's emitter or the loops of the others.
 */
export function blasS(s: BodyScope, inst: Extract<Inst, { op: 'blas' }>): void {
  const call = blasCall(inst, s.k.atomicModes.get(inst) ?? null, s);
  if (call.fn === 'gemm') gemm(s.ctx, ...gemmOperands(call));
  else collective(s.ctx, blasLoops(call));
}
