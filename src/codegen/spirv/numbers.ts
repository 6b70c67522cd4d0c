// tinytc v0.4's number types in SPIR-V, as tinytc's converter (src/spv/converter_aux.cpp at v0.4.0)
// spells them: f16 is a 16-bit float computed as such; bf16 is a 16-bit integer holding the bits,
// widened to f32 for every operation and narrowed back (OpConvertBF16ToFINTEL / OpConvertFToBF16INTEL
// in an OpenCL module; shifts and rounding where no such extension exists, in a Vulkan one); a
// complex number is a 2-vector of its component type, real part first. Also the one-operand
// functions v0.4 added (abs, conj, im, re and the math-unary instructions) for every type.
import { Op } from '../../emit/spirv/spec.js';
import { BF16_CONVERSION_EXTENSION, NumberOp, type OpenclStdName } from '../../emit/spirv/number-ops.js';
import { INT_BITS, type ScalarTypeName, componentType, isComplexType, isIeeeFloat } from '../../frontend/tinytc/ast.js';
import type { NumberGen as Gen } from './number-gen.js';
import { mathInst } from './math.js';

type Complex = 'c32' | 'c64';

/** A bf16 (its bits, a 16-bit integer) as the f32 it encodes. */
export function bf16ToF32(g: Gen, a: number): number {
  const f32 = g.type('f32');
  if (g.flavour.name === 'opencl') {
    bf16Capability(g);
    return g.f.op(NumberOp.ConvertBF16ToFINTEL, f32, a);
  }
  // The bits are the upper half of the float's.
  const wide = g.f.op(Op.UConvert, g.i32t, a);
  return g.f.op(Op.Bitcast, f32, g.f.op(Op.ShiftLeftLogical, g.i32t, wide, g.u32(16)));
}

/** An f32 rounded to the nearest bf16 (ties to even; a NaN stays a quiet NaN), as its bits. */
export function f32ToBf16(g: Gen, a: number): number {
  const i16 = g.type('bf16');
  if (g.flavour.name === 'opencl') {
    bf16Capability(g);
    return g.f.op(NumberOp.ConvertFToBF16INTEL, i16, a);
  }
  const u = g.i32t;
  const x = g.f.op(Op.Bitcast, u, a);
  const upper = g.f.op(NumberOp.ShiftRightLogical, u, x, g.u32(16));
  const odd = g.f.op(Op.BitwiseAnd, u, upper, g.u32(1));
  const rounded = g.f.op(
    NumberOp.ShiftRightLogical,
    u,
    g.f.op(Op.IAdd, u, x, g.f.op(Op.IAdd, u, odd, g.u32(0x7fff))),
    g.u32(16),
  );
  const quiet = g.f.op(Op.BitwiseOr, u, upper, g.u32(0x40));
  const isNan = g.f.op(Op.FUnordNotEqual, g.boolt, a, a);
  return g.f.op(Op.UConvert, i16, g.f.op(Op.Select, u, isNan, quiet, rounded));
}

function bf16Capability(g: Gen): void {
  g.b.capability('BFloat16ConversionINTEL');
  g.b.extension(BF16_CONVERSION_EXTENSION);
}

/** Conversions that involve f16, bf16 or a complex type (tinytc's make_cast; the checker refuses complex to real). */
export function convertNumber(g: Gen, a: number, from: ScalarTypeName, to: ScalarTypeName): number {
  if (from === to) return a;
  if (from === 'bf16') return g.convert(bf16ToF32(g, a), 'f32', to);
  if (to === 'bf16') return f32ToBf16(g, g.convert(a, from, 'f32'));
  if (isComplexType(to)) {
    if (isComplexType(from)) return g.f.op(Op.FConvert, g.type(to), a);
    const re = g.convert(a, from, componentType(to));
    return g.f.op(NumberOp.CompositeInsert, g.type(to), re, g.b.constantNull(g.type(to)), 0);
  }
  if (isComplexType(from)) throw new RangeError(`tinytc: no conversion from ${from} to ${to}`);
  if (to === 'i1') return g.f.op(Op.FUnordNotEqual, g.boolt, a, g.constant(from, 0));
  if (from === 'i1') return g.f.op(Op.Select, g.type(to), a, g.constant(to, 1), g.constant(to, 0));
  const fromFloat = isIeeeFloat(from);
  const toFloat = isIeeeFloat(to);
  const op = fromFloat && toFloat ? Op.FConvert : fromFloat ? Op.ConvertFToS : toFloat ? Op.ConvertSToF : Op.SConvert;
  return g.f.op(op, g.type(to), a);
}

/** Runs an f32 operation on bf16 operands: each widened, the result narrowed (tinytc's bf16 arithmetic). */
function viaF32(g: Gen, args: readonly number[], f: (xs: number[]) => number): number {
  const xs = args.map((x) => bf16ToF32(g, x));
  return f32ToBf16(g, f(xs));
}

/** A float operation of a real float type (f16, f32, f64): add, sub, mul, div, rem, min, max. */
function floatBinary(g: Gen, fn: string, ty: number, a: number, b: number): number {
  switch (fn) {
    case 'add':
      return g.f.op(Op.FAdd, ty, a, b);
    case 'sub':
      return g.f.op(Op.FSub, ty, a, b);
    case 'mul':
      return g.f.op(Op.FMul, ty, a, b);
    case 'div':
      return g.f.op(Op.FDiv, ty, a, b);
    case 'rem':
      return g.f.op(Op.FRem, ty, a, b);
    case 'min':
      return mathInst(g, 'fmin', ty, a, b);
    case 'max':
      return mathInst(g, 'fmax', ty, a, b);
  }
  throw new RangeError(`tinytc: ${fn} of floating-point numbers`);
}

/** Whether a binary `arith` on this type is printed here (f16, bf16 and complex numbers). */
export const isV04Number = (t: ScalarTypeName): boolean => t === 'f16' || t === 'bf16' || isComplexType(t);

/** A binary `arith` (add, sub, mul, div, rem; the checker keeps bitwise ones off these types) on f16, bf16 or complex. */
export function arithNumber(g: Gen, fn: string, t: ScalarTypeName, a: number, b: number): number {
  if (t === 'bf16') return viaF32(g, [a, b], ([x, y]) => floatBinary(g, fn, g.type('f32'), x, y));
  if (isComplexType(t)) return complexBinary(g, fn, t, a, b);
  return floatBinary(g, fn, g.type(t), a, b);
}

function complexBinary(g: Gen, fn: string, t: Complex, a: number, b: number): number {
  const ty = g.type(t);
  switch (fn) {
    case 'add':
      return g.f.op(Op.FAdd, ty, a, b);
    case 'sub':
      return g.f.op(Op.FSub, ty, a, b);
    case 'mul':
      return complexMul(g, t, a, b, false);
    case 'div': {
      // a·conj(b) / |b|², tinytc's order of operations.
      const num = complexMul(g, t, a, b, true);
      const ft = g.type(componentType(t));
      const sq = g.f.op(Op.FMul, ty, b, b);
      const norm = g.f.op(Op.FAdd, ft, g.f.op(Op.CompositeExtract, ft, sq, 0), g.f.op(Op.CompositeExtract, ft, sq, 1));
      const dummy = g.f.op(NumberOp.Undef, ty);
      const one = g.f.op(NumberOp.CompositeInsert, ty, norm, dummy, 0);
      const both = g.f.op(NumberOp.VectorShuffle, ty, one, dummy, 0, 0);
      return g.f.op(Op.FDiv, ty, num, both);
    }
  }
  throw new RangeError(`tinytc: ${fn} of complex numbers`);
}

/**
 * a·b (a·conj(b) with `conj`) as tinytc's make_complex_mul spells it for operands it cannot see to
 * be real: fma(a, (b₀, b₀), b₁·(i·a)), i·a being (−a₁, a₀) (for conj(b), (a₁, −a₀)).
 */
function complexMul(g: Gen, t: Complex, a: number, b: number, conj: boolean): number {
  const ty = g.type(t);
  const negA = g.f.op(Op.FNegate, ty, a);
  const aTimesI = conj
    ? g.f.op(NumberOp.VectorShuffle, ty, a, negA, 1, 2)
    : g.f.op(NumberOp.VectorShuffle, ty, negA, a, 1, 2);
  const b1 = g.f.op(NumberOp.VectorShuffle, ty, b, b, 1, 1);
  const prod = g.f.op(Op.FMul, ty, b1, aTimesI);
  const b0 = g.f.op(NumberOp.VectorShuffle, ty, b, b, 0, 0);
  return mathInst(g, 'fma', ty, a, b0, prod);
}

/** A comparison of f16, bf16 (in f32) or complex numbers (equal and not_equal only). */
export function cmpNumber(g: Gen, op: number, fn: string, t: ScalarTypeName, a: number, b: number): number {
  if (t === 'bf16') return g.f.op(op, g.boolt, bf16ToF32(g, a), bf16ToF32(g, b));
  if (!isComplexType(t)) return g.f.op(op, g.boolt, a, b);
  const bool2 = g.b.typeVector(g.boolt, 2);
  const parts = g.f.op(op, bool2, a, b);
  // Equal where both parts are; not equal where either part differs (tinytc v0.4 prints OpAll for both,
  // which makes 1+2i ≠ 1+3i false: kernarg keeps the mathematical meaning, test/deliberate says so).
  return g.f.op(fn === 'ne' ? NumberOp.Any : NumberOp.All, g.boolt, parts);
}

const MATH: Readonly<Record<string, OpenclStdName>> = {
  cos: 'cos',
  sin: 'sin',
  exp: 'exp',
  exp2: 'exp2',
  log: 'log',
  log2: 'log2',
  native_cos: 'native_cos',
  native_sin: 'native_sin',
  native_exp: 'native_exp',
  native_exp2: 'native_exp2',
  native_log: 'native_log',
  native_log2: 'native_log2',
};

/** Whether a one-operand `arith` function is printed here (all but v0.3's neg and not of its own types). */
export const isV04Unary = (fn: string, t: ScalarTypeName): boolean => (fn !== 'neg' && fn !== 'not') || isV04Number(t);

/**
 * A one-operand `arith` function: tinytc v0.4's abs, conj, im, re and math-unary instructions, and
 * neg/not of its new types. The result has the operand's type, except abs, im and re of a complex
 * number (its component type).
 */
export function unaryNumber(g: Gen, fn: string, t: ScalarTypeName, a: number): number {
  // GLSL.std.450 has no 64-bit exp, log, sin or cos; kernarg has no exact replacement for them yet.
  if (g.flavour.name === 'vulkan' && (t === 'f64' || t === 'c64') && MATH[fn])
    throw new RangeError(`Vulkan SPIR-V: ${fn} of ${t} (GLSL.std.450 takes 16- and 32-bit floats only)`);
  const ty = g.type(t);
  if (t === 'bf16') return viaF32(g, [a], ([x]) => unaryNumber(g, fn, 'f32', x));
  if (isComplexType(t)) return complexUnary(g, fn, t, a);
  if (isIeeeFloat(t)) {
    if (fn === 'neg') return g.f.op(Op.FNegate, ty, a);
    if (fn === 'abs') return mathInst(g, 'fabs', ty, a);
    const m = MATH[fn];
    if (m) return mathInst(g, m, ty, a);
  } else if (t !== 'i1' && INT_BITS[t] !== undefined && fn === 'abs') return mathInst(g, 's_abs', ty, a);
  throw new RangeError(`tinytc: ${fn} of ${t}`);
}

function complexUnary(g: Gen, fn: string, t: Complex, a: number): number {
  const ty = g.type(t);
  const c = componentType(t);
  const ft = g.type(c);
  const part = (x: number, k: number) => g.f.op(Op.CompositeExtract, ft, x, k);
  switch (fn) {
    case 'neg':
      return g.f.op(Op.FNegate, ty, a);
    case 'abs': {
      // sqrt(re² + im²), as tinytc computes it (no scaling against overflow).
      const sq = g.f.op(Op.FMul, ty, a, a);
      return mathInst(g, 'sqrt', ft, g.f.op(Op.FAdd, ft, part(sq, 0), part(sq, 1)));
    }
    case 'conj':
      return g.f.op(NumberOp.CompositeInsert, ty, g.f.op(Op.FNegate, ft, part(a, 1)), a, 1);
    case 'im':
      return part(a, 1);
    case 're':
      return part(a, 0);
    case 'exp':
    case 'exp2':
    case 'native_exp':
    case 'native_exp2': {
      // e^(x+iy) = e^x (cos y + i sin y); 2^(x+iy) = 2^x (cos(y ln 2) + i sin(y ln 2)).
      const native = fn.startsWith('native_');
      const two = fn.endsWith('2');
      const re = part(a, 0);
      let im = part(a, 1);
      if (two) im = g.f.op(Op.FMul, ft, im, g.constant(c, c === 'f32' ? Math.fround(Math.LN2) : Math.LN2));
      const e = mathInst(g, `${native ? 'native_' : ''}${two ? 'exp2' : 'exp'}`, ft, re);
      const cos = mathInst(g, native ? 'native_cos' : 'cos', ft, im);
      const sin = mathInst(g, native ? 'native_sin' : 'sin', ft, im);
      const r = g.f.op(Op.FMul, ft, e, cos);
      const i = g.f.op(Op.FMul, ft, e, sin);
      const dummy = g.f.op(NumberOp.Undef, ty);
      return g.f.op(NumberOp.CompositeInsert, ty, i, g.f.op(NumberOp.CompositeInsert, ty, r, dummy, 0), 1);
    }
  }
  throw new RangeError(`tinytc: ${fn} of complex numbers`);
}
