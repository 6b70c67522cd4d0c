import type { DiagnosticBag } from '../../../diagnostics/diagnostic.js';
import type { Span } from '../../../diagnostics/source.js';
import type { Inst04, Type04, ValueRef } from './ast.js';

/**
 * What the checks of one instruction family (`check-scalars.ts`, `check-blas.ts`) ask of the function's checker
 * (`check.ts`): its diagnostics and the shared operand rules. An interface, so those files need not import the
 * checker that calls them.
 */
export interface CheckContext04 {
  readonly diags: DiagnosticBag;
  /** The value's type; reports an undefined value, and a type other than `expected`. */
  use(v: ValueRef, expected: Type04 | null, what: string): Type04 | undefined;
  /** The annotated result type must be the type the instruction gives. */
  gives(inst: Inst04 & { type: { type: Type04; span: Span } | null }, given: Type04 | undefined): Type04;
}
