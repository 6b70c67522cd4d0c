// How many OpenCL C parameters a tinytc function becomes under its calling convention, checked
// against clang's limit before the convention builds them: a memref of 100k dynamic modes is 200k
// parameters, which no compiler of the generated OpenCL C takes, and which made the input's time
// grow past the budget of one core-second per 100 KB of source (issue 32; scripts/input-size-budget.ts).
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { CLANG_MAX_PARAMETERS } from '../parameter-limits.js';
import type { IrType, Program } from './ast.js';
import type { Program04, Type04 } from './v04/ast.js';

type Dim = number | null;

const dynamic = (dims: readonly Dim[]): number => {
  let n = 0;
  for (const d of dims) if (d === null) n++;
  return n;
};

/**
 * v0.3 (calling-convention.ts): a scalar is one parameter; a memref or group its pointer, a `long`
 * per `?` of shape and stride, and a group's dynamic offset.
 */
export function openclParameterCount(t: IrType): number {
  if (t.kind === 'scalar') return 1;
  if (t.kind !== 'memref' && t.kind !== 'group') return 0;
  const m = t.kind === 'memref' ? t : t.memref;
  return 1 + dynamic(m.shape) + dynamic(m.stride) + (t.kind === 'group' && t.offset === null ? 1 : 0);
}

/** v0.4 (v04/calling-convention.ts): as v0.3, and a group's dynamic size is one more. */
export function openclParameterCount04(t: Type04): number {
  if (t.kind === 'number') return 1;
  if (t.kind !== 'memref' && t.kind !== 'group') return 0;
  const m = t.kind === 'memref' ? t : t.memref;
  const extra = t.kind === 'group' ? (t.size === null ? 1 : 0) + (t.offset === null ? 1 : 0) : 0;
  return 1 + dynamic(m.shape) + dynamic(m.stride) + extra;
}

/** Reports each function whose parameters pass clang's limit, at the parameter that passes it. */
function check<T>(
  funcs: readonly { name: string; params: readonly { span: Span; type: T }[] }[],
  count: (t: T) => number,
  diags: DiagnosticBag,
): void {
  for (const f of funcs) {
    let total = 0;
    let past: Span | undefined;
    for (const p of f.params) {
      total += count(p.type);
      if (total > CLANG_MAX_PARAMETERS) past ??= p.span;
    }
    if (past) diags.report(Messages.irTooManyParameters, past, [f.name, total, CLANG_MAX_PARAMETERS]);
  }
}

export function checkParameterBudget(program: Program, diags: DiagnosticBag): void {
  check(program.funcs, openclParameterCount, diags);
}

export function checkParameterBudget04(program: Program04, diags: DiagnosticBag): void {
  check(program.funcs, openclParameterCount04, diags);
}
