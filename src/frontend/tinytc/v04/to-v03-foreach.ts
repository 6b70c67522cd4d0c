// tinytc v0.4's plain `foreach` as the v0.3 tree's foreach: over one variable as it is, over several as one
// loop over their flattened range whose body first computes each variable (the first varies fastest, as tinytc's).
import type { Inst, Operand, Region, TypedSpan } from '../ast.js';
import type { Inst04, Name, Region04, ValueRef } from './ast.js';
import { foreachPrologue } from './to-v03-spmd.js';

/** What the rewrite offers this file: fresh v0.3 names, operands and types of v0.4 values, and regions. */
export interface ForeachContext {
  define(name: string): string;
  operand(v: ValueRef): Operand;
  typed(v: ValueRef): TypedSpan;
  region(
    r: Region04,
    vars: readonly Name[],
    prologue?: (renamed: readonly Name[]) => Inst[],
  ): { region: Region; vars: Name[] };
}

/** A foreach (over one variable, or several: foreachNd). */
export function foreach04(ctx: ForeachContext, inst: Extract<Inst04, { form: 'foreach' }>): Inst[] {
  if (inst.variables.length > 1) return foreachNd(ctx, inst);
  const from = ctx.operand(inst.from[0]);
  const to = ctx.operand(inst.to[0]);
  const { region, vars } = ctx.region(inst.body, inst.variables);
  return [
    {
      op: 'foreach',
      variable: vars[0],
      from,
      to,
      step: null,
      loopType: ctx.typed(inst.from[0]),
      body: region,
      results: [],
      span: inst.span,
    },
  ];
}

/**
 * A foreach over several variables, as one over their flattened range: `foreach (%i, %j) = (%a,
 * %b), (%c, %d)` is `foreach %k = 0, (%c - %a) * (%d - %b)` whose body starts with `%i = %a + %k
 * rem (%c - %a)` and `%j = %b + %k / (%c - %a)` (the first variable varies fastest, as tinytc's).
 */
function foreachNd(ctx: ForeachContext, inst: Extract<Inst04, { form: 'foreach' }>): Inst[] {
  const loopType = ctx.typed(inst.from[0]);
  const from = inst.from.map((v) => ctx.operand(v));
  const to = inst.to.map((v) => ctx.operand(v));
  const p = foreachPrologue(inst.span, loopType, from, to, (n) => ({ name: ctx.define(n), span: inst.span }));
  const { region, vars } = ctx.region(inst.body, [p.counter, ...inst.variables], (renamed) =>
    p.body(renamed[0], renamed.slice(1)),
  );
  return [
    ...p.before,
    {
      op: 'foreach',
      variable: vars[0],
      from: { kind: 'int', value: 0n, span: inst.span },
      to: p.count,
      step: null,
      loopType,
      body: region,
      results: [],
      span: inst.span,
    },
  ];
}
