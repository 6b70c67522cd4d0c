import { INT_BITS, type Inst, type ScalarTypeName, isFloatType } from '../../frontend/tinytc/ast.js';
import { Op } from '../../emit/spirv/spec.js';
import type { BodyScope } from './body-scope.js';
import { fmod } from './fmod.js';
import { arithNumber, cmpNumber, isV04Number, isV04Unary, unaryNumber } from './numbers.js';

// The scalar instructions (arith, cmp, cast) as SPIR-V: each returns the id of its result.

const INT_ARITH: Record<string, number> = {
  add: Op.IAdd,
  sub: Op.ISub,
  mul: Op.IMul,
  div: Op.SDiv,
  and: Op.BitwiseAnd,
  or: Op.BitwiseOr,
  xor: Op.BitwiseXor,
};
const FLOAT_ARITH: Record<string, number> = { add: Op.FAdd, sub: Op.FSub, mul: Op.FMul, div: Op.FDiv };
const BOOL_ARITH: Record<string, number> = { and: Op.LogicalAnd, or: Op.LogicalOr, xor: Op.LogicalNotEqual };
const INT_CMP: Record<string, number> = {
  eq: Op.IEqual,
  ne: Op.INotEqual,
  gt: Op.SGreaterThan,
  ge: Op.SGreaterThanEqual,
  lt: Op.SLessThan,
  le: Op.SLessThanEqual,
};
// C's comparisons: ordered, except != which is true for NaN.
const FLOAT_CMP: Record<string, number> = {
  eq: Op.FOrdEqual,
  ne: Op.FUnordNotEqual,
  gt: Op.FOrdGreaterThan,
  ge: Op.FOrdGreaterThanEqual,
  lt: Op.FOrdLessThan,
  le: Op.FOrdLessThanEqual,
};

export function castS(s: BodyScope, inst: Extract<Inst, { op: 'cast' }>, result: string): void {
  const from = (inst.from.type as { name: ScalarTypeName }).name;
  const to = (inst.to.type as { name: ScalarTypeName }).name;
  s.define(result, s.g.convert(s.scalar(inst.operand, from), from, to), to);
}

/** Integers narrower than 32 bits compute in 32 (as C promotes them) where the width matters. */
export function arithS(s: BodyScope, inst: Extract<Inst, { op: 'arith' }>): number {
  const g = s.g;
  const t = (inst.type.type as { name: ScalarTypeName }).name;
  const ty = g.type(t);
  const [a, b] = inst.operands.map((o) => s.scalar(o, t));
  // tinytc v0.4's types and one-operand functions (numbers.ts).
  if (inst.operands.length === 1 && isV04Unary(inst.fn, t)) return unaryNumber(g, inst.fn, t, a);
  // Where OpFRem may be inexact (Vulkan), fmod in f32 (exact, and exact again in the narrower type).
  if ((t === 'f16' || t === 'bf16') && inst.fn === 'rem' && s.env.flavour.floatRemainder === 'exact-loop')
    return g.convert(fmod(g, 'f32', g.convert(a, t, 'f32'), g.convert(b, t, 'f32')), 'f32', t);
  if (isV04Number(t)) return arithNumber(g, inst.fn, t, a, b);
  if (t === 'i1') return inst.fn === 'not' ? g.f.op(Op.LogicalNot, ty, a) : g.f.op(BOOL_ARITH[inst.fn], ty, a, b);
  if (isFloatType(t)) {
    if (inst.fn === 'neg') return g.f.op(Op.FNegate, ty, a);
    if (inst.fn === 'rem')
      return s.env.flavour.floatRemainder === 'frem' ? g.f.op(Op.FRem, ty, a, b) : fmod(g, t, a, b);
    return g.f.op(FLOAT_ARITH[inst.fn], ty, a, b);
  }
  if (inst.fn === 'neg') return g.f.op(Op.SNegate, ty, a);
  if (inst.fn === 'not') return g.f.op(Op.Not, ty, a);
  const bits = INT_BITS[t]!;
  const widths = inst.fn === 'div' || inst.fn === 'rem' || inst.fn === 'shl' || inst.fn === 'shr';
  if (!widths) return g.f.op(INT_ARITH[inst.fn], ty, a, b);
  const w = bits < 32 ? 'i32' : t;
  const wt = g.type(w);
  const [pa, pb] = bits < 32 ? [g.f.op(Op.SConvert, wt, a), g.f.op(Op.SConvert, wt, b)] : [a, b];
  let r: number;
  if (inst.fn === 'div') r = g.f.op(Op.SDiv, wt, pa, pb);
  else if (inst.fn === 'rem') {
    // Vulkan leaves OpSRem undefined when an operand is negative (NVIDIA returns 0 for -7 rem 3);
    // C's remainder is a - (a / b) * b with the truncating division, which OpSDiv is. OpenCL defines OpSRem as C does.
    r =
      s.env.flavour.intRemainder === 'srem'
        ? g.f.op(Op.SRem, wt, pa, pb)
        : g.f.op(Op.ISub, wt, pa, g.f.op(Op.IMul, wt, g.f.op(Op.SDiv, wt, pa, pb), pb));
  } else {
    // Shift counts are taken modulo the width, as OpenCL C does.
    const count = g.f.op(Op.BitwiseAnd, wt, pb, g.constant(w, bits - 1));
    r = g.f.op(inst.fn === 'shl' ? Op.ShiftLeftLogical : Op.ShiftRightArithmetic, wt, pa, count);
  }
  return bits < 32 ? g.f.op(Op.SConvert, ty, r) : r;
}

export function cmpS(s: BodyScope, inst: Extract<Inst, { op: 'cmp' }>): number {
  const g = s.g;
  const t = (inst.type.type as { name: ScalarTypeName }).name;
  let [a, b] = inst.operands.map((o) => s.scalar(o, t));
  if (isV04Number(t)) return cmpNumber(g, FLOAT_CMP[inst.fn], inst.fn, t, a, b);
  if (isFloatType(t)) return g.f.op(FLOAT_CMP[inst.fn], g.boolt, a, b);
  if (t === 'i1') {
    if (inst.fn === 'eq') return g.f.op(Op.LogicalEqual, g.boolt, a, b);
    if (inst.fn === 'ne') return g.f.op(Op.LogicalNotEqual, g.boolt, a, b);
    [a, b] = [s.g.convert(a, 'i1', 'i32'), s.g.convert(b, 'i1', 'i32')];
  }
  return g.f.op(INT_CMP[inst.fn], g.boolt, a, b);
}
