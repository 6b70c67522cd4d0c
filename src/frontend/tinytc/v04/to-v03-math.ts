import type { Span } from '../../../diagnostics/source.js';
import type { Inst, Operand, Region, TypedSpan } from '../ast.js';
import type { Inst04, ValueRef } from './ast.js';
import { MATH_UNARY } from './instructions.js';
import { NotLowered } from './to-v03-spmd.js';

/**
 * The rewrite of tinytc v0.4's arithmetic that v0.3 spells otherwise: unary arith and math instructions as
 * one-operand `arith`, and `abs`, `min` and `max`, which v0.3 lacks, as a comparison and an `if`.
 */

/** What these rewrites ask of the translator (`to-v03.ts`): operands, their v0.3 types, fresh v0.3 names. */
export interface MathRewriteContext {
  /** The operand's v0.3 type and span. */
  typed(v: ValueRef): TypedSpan;
  /** The operand in v0.3, a `constant` written in place as an immediate. */
  operand(v: ValueRef): Operand;
  /** Gives a v0.4 definition its v0.3 name, visible in the current region. */
  define(name: string): string;
}

/** tinytc v0.4's math-unary instructions that take complex numbers (its converter lowers no other: cos, sin, log, …). */
const COMPLEX_MATH = new Set(['exp', 'exp2', 'native_exp', 'native_exp2']);

/**
 * tinytc v0.4's arith-unary (`abs`, `conj`, `im`, `re`) and math-unary instructions as one-operand
 * `arith` functions. `abs` of an integer, f32 or f64 keeps its earlier rewrite (a comparison and an `if`);
 * a complex `abs`, `im` and `re` give the component type (the v0.3 checker infers it).
 */
export function unaryArith(tr: MathRewriteContext, inst: Extract<Inst04, { form: 'unary' }>, no: () => never): Inst[] {
  const ty = tr.typed(inst.a);
  if (ty.type.kind !== 'scalar') return no();
  const complex = ty.type.name === 'c32' || ty.type.name === 'c64';
  const half = ty.type.name === 'f16' || ty.type.name === 'bf16';
  if (inst.op === 'abs' && !complex && !half) return abs(tr, inst);
  // tinytc's converter lowers only these of a complex number; its checker lets the rest through to an internal error.
  if (complex && (MATH_UNARY as readonly string[]).includes(inst.op) && !COMPLEX_MATH.has(inst.op))
    throw new NotLowered(`${inst.op} of a complex number`, inst.span);
  const results = inst.results.map((r) => ({ name: tr.define(r.name), span: r.span }));
  return [{ op: 'arith', fn: inst.op, operands: [tr.operand(inst.a)], type: ty, results, span: inst.span }];
}

/** `abs`, which v0.3 lacks: `%r = abs %a` is `%r_1 = cmp.lt %a, 0`, then an `if` that yields `arith.neg %a` or `%a`. */
function abs(tr: MathRewriteContext, inst: Extract<Inst04, { form: 'unary' }>): Inst[] {
  const a = tr.operand(inst.a);
  const ty = tr.typed(inst.a);
  const r = inst.results[0];
  if (!r || inst.results.length !== 1 || ty.type.kind !== 'scalar' || ty.type.name === 'i1')
    throw new NotLowered(inst.op, inst.span);
  const zero: Operand =
    ty.type.name === 'f32' || ty.type.name === 'f64'
      ? { kind: 'float', value: 0, span: inst.span }
      : { kind: 'int', value: 0n, span: inst.span };
  const test = { name: tr.define(`${r.name}_abs`), span: r.span };
  const neg = { name: tr.define(`${r.name}_neg`), span: r.span };
  const negated: Region = {
    body: [
      { op: 'arith', fn: 'neg', operands: [a], type: ty, results: [neg], span: inst.span },
      {
        op: 'yield',
        operands: [{ kind: 'value', name: neg.name, span: r.span }],
        types: [ty],
        results: [],
        span: inst.span,
      },
    ],
    span: inst.span,
  };
  return [
    { op: 'cmp', fn: 'lt', operands: [a, zero], type: ty, results: [test], span: inst.span },
    {
      op: 'if',
      condition: { kind: 'value', name: test.name, span: r.span },
      resultTypes: [ty],
      then: negated,
      else: { body: [{ op: 'yield', operands: [a], types: [ty], results: [], span: inst.span }], span: inst.span },
      results: [{ name: tr.define(r.name), span: r.span }],
      span: inst.span,
    },
  ];
}

/**
 * `min`/`max`, which v0.3 lacks, as a comparison and an `if` that yields one operand: `%r = min
 * %a, %b` is `%r_1 = cmp.lt %a, %b` then `%r = if %r_1 -> (T) { yield %a } else { yield %b }`
 * (for floats: the second operand where either is NaN, as `a < b ? a : b`).
 */
export function minMax(tr: MathRewriteContext, inst: Extract<Inst04, { form: 'binary' }>, ty: TypedSpan): Inst[] {
  const a = tr.operand(inst.a);
  const b = tr.operand(inst.b);
  const r = inst.results[0];
  if (!r || inst.results.length !== 1) throw new NotLowered(inst.op, inst.span);
  const test = { name: tr.define(`${r.name}_${inst.op}`), span: r.span };
  const yieldOf = (o: Operand, span: Span): Region => ({
    body: [{ op: 'yield', operands: [o], types: [ty], results: [], span }],
    span,
  });
  return [
    { op: 'cmp', fn: inst.op === 'min' ? 'lt' : 'gt', operands: [a, b], type: ty, results: [test], span: inst.span },
    {
      op: 'if',
      condition: { kind: 'value', name: test.name, span: r.span },
      resultTypes: [ty],
      then: yieldOf(a, inst.span),
      else: yieldOf(b, inst.span),
      results: [{ name: tr.define(r.name), span: r.span }],
      span: inst.span,
    },
  ];
}
