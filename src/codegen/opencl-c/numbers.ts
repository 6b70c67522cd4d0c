// tinytc v0.4's number types in OpenCL C, computed as tinytc's SPIR-V computes them: `half` under
// cl_khr_fp16; bf16 kept as its 16 bits in a `ushort`, widened to float for every operation and
// rounded back to nearest even (OpenCL C has no bfloat16 type, and cl_intel_bfloat16_conversions is
// Intel's alone); a complex number a `float2`/`double2`, real part first, multiplied by fma as tinytc
// does. Also the one-operand functions v0.4 added (abs, conj, im, re, the math-unary instructions).
import {
  INT_BITS,
  type Operand,
  type ScalarTypeName,
  componentType,
  isComplexType,
  isIeeeFloat,
} from '../../frontend/tinytc/ast.js';
import { bf16Bits } from '../../layout/bfloat16.js';
import { C_TYPE, floatLiteral, intLiteral } from './c-scalars.js';

type Complex = 'c32' | 'c64';

/** Whether a value of the type is printed here (f16, bf16, complex). */
export const isV04Number = (t: ScalarTypeName): boolean => t === 'f16' || t === 'bf16' || isComplexType(t);

/** Whether a one-operand `arith` function is printed here (all but v0.3's neg and not of its own types). */
export const isV04Unary = (fn: string, t: ScalarTypeName): boolean => (fn !== 'neg' && fn !== 'not') || isV04Number(t);

const BF16_TO_FLOAT = 'kernarg_bf16_to_float';
const FLOAT_TO_BF16 = 'kernarg_float_to_bf16';
const helper = (name: string, t: Complex) => `kernarg_${name}_${t}`;

/** The helper functions a program's text calls, each defined once before the kernels (in dependency order). */
export function numberHelpers(text: string): string[] {
  const out: string[] = [];
  if (text.includes(`${BF16_TO_FLOAT}(`))
    out.push(`static inline float ${BF16_TO_FLOAT}(ushort b) { return as_float((uint)b << 16); }\n`);
  if (text.includes(`${FLOAT_TO_BF16}(`))
    out.push(
      `static inline ushort ${FLOAT_TO_BF16}(float f) {\n` +
        '  uint x = as_uint(f);\n' +
        '  if (isnan(f)) return (ushort)((x >> 16) | 0x40u);\n' +
        '  return (ushort)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);\n' +
        '}\n',
    );
  for (const t of ['c32', 'c64'] as const) {
    const v = C_TYPE[t];
    const s = C_TYPE[componentType(t)];
    const ln2 = floatLiteral(Math.LN2, componentType(t));
    const defs: Record<string, string> = {
      // fma(a, b.x, b.y·(i·a)), i·a = (−a.y, a.x); for a·conj(b), b.y·(a.y, −a.x) (tinytc's make_complex_mul).
      mul: `static inline ${v} ${helper('mul', t)}(${v} a, ${v} b) { return fma(a, (${v})(b.x), b.y * (${v})(-a.y, a.x)); }\n`,
      div:
        `static inline ${v} ${helper('div', t)}(${v} a, ${v} b) {\n` +
        `  ${v} n = fma(a, (${v})(b.x), b.y * (${v})(a.y, -a.x));\n` +
        `  ${v} b2 = b * b;\n` +
        `  return n / (${v})(b2.x + b2.y);\n` +
        '}\n',
      exp: `static inline ${v} ${helper('exp', t)}(${v} a) { ${s} e = exp(a.x); return (${v})(e * cos(a.y), e * sin(a.y)); }\n`,
      exp2:
        `static inline ${v} ${helper('exp2', t)}(${v} a) {\n` +
        `  ${s} e = exp2(a.x);\n` +
        `  ${s} y = a.y * ${ln2};\n` +
        `  return (${v})(e * cos(y), e * sin(y));\n` +
        '}\n',
    };
    for (const [name, def] of Object.entries(defs)) if (text.includes(`${helper(name, t)}(`)) out.push(def);
  }
  return out;
}

/** An immediate of f16, bf16 or a complex type as a C expression of that type. */
export function numberLiteral(o: Exclude<Operand, { kind: 'value' }>, t: ScalarTypeName): string {
  if (isComplexType(t)) {
    const c = componentType(t);
    const [re, im] = o.kind === 'complex' ? [o.re, o.im] : [Number(o.value), 0];
    return `((${C_TYPE[t]})(${floatLiteral(re, c)}, ${floatLiteral(im, c)}))`;
  }
  const v = o.kind === 'complex' ? o.re : Number(o.value);
  // tinytc rounds to float first, then to the narrower type.
  if (t === 'bf16') return `((ushort)0x${bf16Bits(v).toString(16)})`;
  if (t === 'f16') return `((half)${floatLiteral(v, 'f32')})`;
  if (o.kind === 'int') return intLiteral(o.value, t);
  return isIeeeFloat(t) ? floatLiteral(v, t) : String(v);
}

/** A real value as float, from any type but complex. */
function toFloat(a: string, from: ScalarTypeName): string {
  return from === 'bf16' ? `${BF16_TO_FLOAT}(${a})` : from === 'f32' ? a : `(float)${a}`;
}

/** A conversion involving f16, bf16 or a complex type (tinytc's make_cast; the checker refuses complex to real). */
export function castNumber(a: string, from: ScalarTypeName, to: ScalarTypeName): string {
  if (from === to) return a;
  if (from === 'bf16') return castNumber(toFloat(a, from), 'f32', to);
  if (to === 'bf16') return `${FLOAT_TO_BF16}(${toFloat(a, from)})`;
  if (isComplexType(to)) {
    const c = componentType(to);
    if (isComplexType(from)) return `convert_${C_TYPE[to]}(${a})`;
    const zero = floatLiteral(0, c);
    return `((${C_TYPE[to]})((${C_TYPE[c]})${a}, ${zero}))`;
  }
  if (to === 'i1') return `${a} != 0`;
  return `(${C_TYPE[to]})${a}`;
}

/** A binary `arith` (add, sub, mul, div, rem) on f16, bf16 or a complex type. */
export function arithNumber(fn: string, t: ScalarTypeName, a: string, b: string): string {
  if (t === 'bf16') return `${FLOAT_TO_BF16}(${realBinary(fn, toFloat(a, t), toFloat(b, t))})`;
  if (isComplexType(t)) {
    if (fn === 'add') return `${a} + ${b}`;
    if (fn === 'sub') return `${a} - ${b}`;
    if (fn === 'mul' || fn === 'div') return `${helper(fn, t)}(${a}, ${b})`;
    throw new RangeError(`tinytc: ${fn} of complex numbers`);
  }
  return realBinary(fn, a, b);
}

function realBinary(fn: string, a: string, b: string): string {
  const op = { add: '+', sub: '-', mul: '*', div: '/' }[fn];
  if (op) return `${a} ${op} ${b}`;
  if (fn === 'rem') return `fmod(${a}, ${b})`;
  if (fn === 'min' || fn === 'max') return `f${fn}(${a}, ${b})`;
  throw new RangeError(`tinytc: ${fn} of floating-point numbers`);
}

/** A comparison of f16, bf16 (as float) or complex numbers (equal and not_equal only). */
export function cmpNumber(op: string, t: ScalarTypeName, a: string, b: string): string {
  if (t === 'bf16') return `${toFloat(a, t)} ${op} ${toFloat(b, t)}`;
  if (!isComplexType(t)) return `${a} ${op} ${b}`;
  // Equal where both parts are, not equal where either differs (as in numbers.ts of the SPIR-V printer).
  return op === '==' ? `(${a}.x == ${b}.x && ${a}.y == ${b}.y)` : `(${a}.x != ${b}.x || ${a}.y != ${b}.y)`;
}

const MATH = new Set(['cos', 'sin', 'exp', 'exp2', 'log', 'log2']);

/**
 * A one-operand function. OpenCL C defines native_* for float only; for half and double the
 * accurate function stands in (native_* promise no accuracy, so that is one of their results).
 */
export function unaryNumber(fn: string, t: ScalarTypeName, a: string): string {
  if (t === 'bf16') return `${FLOAT_TO_BF16}(${unaryNumber(fn, 'f32', toFloat(a, t))})`;
  if (isComplexType(t)) return complexUnary(fn, t, a);
  if (isIeeeFloat(t)) {
    if (fn === 'neg') return `-${a}`;
    if (fn === 'abs') return `fabs(${a})`;
    const native = fn.startsWith('native_');
    const base = native ? fn.slice('native_'.length) : fn;
    if (MATH.has(base)) return `${native && t === 'f32' ? 'native_' : ''}${base}(${a})`;
  } else if (t !== 'i1' && INT_BITS[t] !== undefined && fn === 'abs') return `(${C_TYPE[t]})abs(${a})`;
  throw new RangeError(`tinytc: ${fn} of ${t}`);
}

function complexUnary(fn: string, t: Complex, a: string): string {
  switch (fn) {
    case 'neg':
      return `-${a}`;
    case 'abs':
      return `sqrt(${a}.x * ${a}.x + ${a}.y * ${a}.y)`;
    case 'conj':
      return `((${C_TYPE[t]})(${a}.x, -${a}.y))`;
    case 'im':
      return `${a}.y`;
    case 're':
      return `${a}.x`;
    case 'exp':
    case 'native_exp':
      return `${helper('exp', t)}(${a})`;
    case 'exp2':
    case 'native_exp2':
      return `${helper('exp2', t)}(${a})`;
  }
  throw new RangeError(`tinytc: ${fn} of complex numbers`);
}
