import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import type { Span } from '../../diagnostics/source.js';
import type { Dim, Inst, IrType, MemrefType, Operand } from './ast.js';

/**
 * What the checks of one instruction family (`check-views.ts`, `check-blas.ts`) ask of the function's checker
 * (`check.ts`): its diagnostics, the visible values and the shared operand rules. An interface, so those files
 * need not import the checker that calls them.
 */
export interface CheckContext {
  readonly diags: DiagnosticBag;
  /** The operand's type; immediates take the expected type. Reports undefined values and mismatches. */
  use(o: Operand, expected: IrType | null, what: string): IrType | undefined;
  /** Defines the instruction's results with these types; reports a count that differs. */
  results(inst: Inst, types: IrType[]): void;
  /** The memref type, or a diagnostic and undefined. */
  memref(t: IrType, span: Span, what: string): MemrefType | undefined;
  /** One index operand per mode, each of type index. */
  indices(ix: readonly Operand[], rank: number, span: Span, what: string): void;
  /** Whether the mode is in range; reports it when not. */
  mode(m: number, rank: number, span: Span): boolean;
  /** Refuses a collective instruction inside an spmd region. */
  collective(inst: Inst, what: string): void;
  /** Static extents that must agree; dynamic ones are the caller's promise. */
  sameExtent(a: Dim, b: Dim, inst: Inst, what: string): void;
}
