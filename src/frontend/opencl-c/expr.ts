import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import type { DataLayout } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import { type QualType, type ScalarName, type VectorType, canonical, isUnsignedScalar } from '../../types/types.js';
import { typeToString } from '../../types/print.js';

/** Expressions the frontend needs to evaluate: constant expressions of declarations and initializers. */
export type Expr =
  | { k: 'int'; v: bigint; t: IntTypeName; span: Span }
  | { k: 'float'; v: number; t: 'half' | 'float' | 'double'; span: Span }
  | { k: 'string'; bytes: number[]; span: Span }
  | { k: 'ident'; name: string; span: Span }
  | { k: 'unary'; op: string; e: Expr; span: Span }
  | { k: 'binary'; op: string; l: Expr; r: Expr; span: Span }
  | { k: 'cond'; c: Expr; a: Expr; b: Expr; span: Span }
  | { k: 'cast'; type: QualType; e: Expr; span: Span }
  | { k: 'vector'; type: QualType; elems: Expr[]; span: Span }
  | { k: 'sizeof'; type: QualType; span: Span }
  | { k: 'alignof'; type: QualType; span: Span }
  | { k: 'other'; what: string; span: Span };

export type IntTypeName = 'int' | 'uint' | 'long' | 'ulong';

export type CValue =
  | { k: 'int'; v: bigint; t: IntTypeName }
  | { k: 'float'; v: number; t: 'half' | 'float' | 'double' }
  | { k: 'vector'; elems: CValue[]; type: VectorType }
  | { k: 'string'; bytes: number[] };

export interface EvalContext {
  readonly layout: DataLayout;
  readonly diags: DiagnosticBag;
  /** Enumeration constants in scope. */
  lookup(name: string): CValue | undefined;
}

class NotConstant extends Error {
  /** The diagnostic was given already where the problem was found. */
  constructor(
    message: string,
    readonly reported = false,
  ) {
    super(message);
  }
}

const INT_BITS: Record<IntTypeName, number> = { int: 32, uint: 32, long: 64, ulong: 64 };

function wrapInt(v: bigint, t: IntTypeName): bigint {
  const bits = INT_BITS[t];
  return t === 'uint' || t === 'ulong' ? BigInt.asUintN(bits, v) : BigInt.asIntN(bits, v);
}

/** The promoted integer type a scalar of this name has in arithmetic (C11 6.3.1.1). */
function promotedInt(name: ScalarName, layout: DataLayout): IntTypeName {
  switch (name) {
    case 'long':
      return 'long';
    case 'ulong':
      return 'ulong';
    case 'uint':
      return 'uint';
    case 'size_t':
    case 'uintptr_t':
      return layout.sizeT === 8 ? 'ulong' : 'uint';
    case 'ptrdiff_t':
    case 'intptr_t':
      return layout.sizeT === 8 ? 'long' : 'int';
    default:
      return 'int';
  }
}

// (Plain functions, not closures made per call: constant folding runs per initializer and array size.)
const isUnsignedInt = (t: IntTypeName) => t === 'uint' || t === 'ulong';

function commonInt(a: IntTypeName, b: IntTypeName): IntTypeName {
  const ra = INT_BITS[a];
  const rb = INT_BITS[b];
  if (ra === rb) return isUnsignedInt(a) || isUnsignedInt(b) ? (ra === 64 ? 'ulong' : 'uint') : a;
  return ra > rb ? a : b;
}

const FLOAT_RANK = { half: 1, float: 2, double: 3 } as const;

/** Converts a value to a scalar type, as an implicit conversion or a cast does. */
export function convertScalar(v: CValue, to: ScalarName, layout: DataLayout): CValue {
  if (v.k === 'vector' || v.k === 'string') throw new NotConstant('a vector or string where a scalar is needed');
  if (to === 'half' || to === 'float' || to === 'double') {
    const n = v.k === 'float' ? v.v : Number(v.v);
    return { k: 'float', v: to === 'float' ? Math.fround(n) : to === 'half' ? roundHalf(n) : n, t: to };
  }
  if (to === 'bool') {
    const nz = v.k === 'float' ? v.v !== 0 : v.v !== 0n;
    return { k: 'int', v: nz ? 1n : 0n, t: 'int' };
  }
  const size = to === 'void' ? 4 : layoutOf({ kind: 'scalar', name: to }, layout).size;
  const unsigned = isUnsignedScalar(to);
  // What C leaves undefined clang-16 folds, in initializers, array sizes and enumerators alike: a
  // float out of the integer's range saturates.
  if (v.k === 'float') return { k: 'int', v: saturated(v.v, size * 8, unsigned), t: promotedInt(to, layout) };
  const narrowed = unsigned ? BigInt.asUintN(size * 8, v.v) : BigInt.asIntN(size * 8, v.v);
  return { k: 'int', v: narrowed, t: promotedInt(to, layout) };
}

/**
 * A float converted to an integer of `bits` as clang-16 folds it in an initializer (LLVM's
 * APFloat::convertToInteger): toward zero, out-of-range values and infinities saturate, NaN is 0.
 */
function saturated(x: number, bits: number, unsigned: boolean): bigint {
  if (Number.isNaN(x)) return 0n;
  const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
  const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
  if (x === Infinity) return max;
  if (x === -Infinity) return min;
  const t = BigInt(Math.trunc(x));
  return t < min ? min : t > max ? max : t;
}

/**
 * A size or offset in bytes as a constant. A type past the size limits (already reported where it
 * was built) can have an inexact or infinite size as a double: it is no constant, never a BigInt of Infinity.
 */
export function exactBytes(n: number): bigint {
  if (!Number.isSafeInteger(n)) throw new NotConstant('the size of a type too large to be exact', true);
  return BigInt(n);
}

/** Rounds to the nearest IEEE half value (round-to-nearest-even), returned as a double. */
function roundHalf(n: number): number {
  if (!Number.isFinite(n) || n === 0) return n;
  const a = Math.abs(n);
  if (a >= 65520) return n > 0 ? Infinity : -Infinity;
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  const q = 2 ** (e - 10);
  let r = Math.round(a / q);
  if (Math.abs(a / q - Math.trunc(a / q) - 0.5) < 1e-12 && r % 2 === 1) r -= 1;
  return Math.sign(n) * r * q;
}

function describeValue(v: CValue): string {
  if (v.k === 'int') return v.v.toString();
  if (v.k === 'float') return String(v.v);
  if (v.k === 'string') return 'a string literal';
  return 'a vector';
}

/** Evaluates a constant expression; reports and returns undefined when it is not one. */
export function evaluate(e: Expr, ctx: EvalContext): CValue | undefined {
  try {
    return ev(e, ctx);
  } catch (err) {
    if (err instanceof NotConstant) {
      if (!err.reported) ctx.diags.report(Messages.initNotConstant, e.span, [err.message]);
      return undefined;
    }
    throw err;
  }
}

/** Evaluates an integer constant expression to a bigint. */
export function evaluateInt(e: Expr, ctx: EvalContext): bigint | undefined {
  const v = evaluate(e, ctx);
  if (v === undefined) return undefined;
  if (v.k !== 'int') {
    ctx.diags.report(Messages.constExprInvalid, e.span, [`it has ${v.k === 'float' ? 'floating' : v.k} type`]);
    return undefined;
  }
  return v.v;
}

function ev(e: Expr, ctx: EvalContext): CValue {
  switch (e.k) {
    case 'int':
      return { k: 'int', v: e.v, t: e.t };
    case 'float':
      return { k: 'float', v: e.v, t: e.t };
    case 'string':
      return { k: 'string', bytes: e.bytes };
    case 'ident': {
      const v = ctx.lookup(e.name);
      if (!v) throw new NotConstant(`'${e.name}' is not a constant`);
      return v;
    }
    case 'sizeof':
      return { k: 'int', v: exactBytes(layoutOf(e.type, ctx.layout).size), t: promotedInt('size_t', ctx.layout) };
    case 'alignof':
      return { k: 'int', v: exactBytes(layoutOf(e.type, ctx.layout).align), t: promotedInt('size_t', ctx.layout) };
    case 'cast':
      return castTo(ev(e.e, ctx), e.type, ctx);
    case 'vector':
      return vectorLiteral(e, ctx);
    case 'unary':
      return unary(e.op, ev(e.e, ctx), e.span, ctx);
    case 'binary':
      if (e.op === '&&' || e.op === '||') {
        const l = truthy(ev(e.l, ctx));
        if (e.op === '&&' ? !l : l) return { k: 'int', v: l ? 1n : 0n, t: 'int' };
        return { k: 'int', v: truthy(ev(e.r, ctx)) ? 1n : 0n, t: 'int' };
      }
      if (e.op === ',') {
        ev(e.l, ctx);
        return ev(e.r, ctx);
      }
      return binary(e.op, ev(e.l, ctx), ev(e.r, ctx), e.span, ctx);
    case 'cond': {
      const c = truthy(ev(e.c, ctx));
      const a = c ? ev(e.a, ctx) : undefined;
      const b = c ? undefined : ev(e.b, ctx);
      return (a ?? b)!;
    }
    case 'other':
      throw new NotConstant(e.what);
  }
}

function truthy(v: CValue): boolean {
  if (v.k === 'int') return v.v !== 0n;
  if (v.k === 'float') return v.v !== 0;
  throw new NotConstant('a vector or string used as a condition');
}

function castTo(v: CValue, type: QualType, ctx: EvalContext): CValue {
  const t = canonical(type).type;
  if (t.kind === 'scalar') return convertScalar(v, t.name, ctx.layout);
  if (t.kind === 'enum') return convertScalar(v, t.decl.underlying, ctx.layout);
  if (t.kind === 'vector') {
    if (v.k === 'vector') {
      if (v.type.length !== t.length)
        throw new NotConstant(`cannot convert a vector of ${v.type.length} to ${typeToString(type)}`);
      return { k: 'vector', type: t, elems: v.elems.map((x) => convertScalar(x, t.element, ctx.layout)) };
    }
    const s = convertScalar(v, t.element, ctx.layout);
    return { k: 'vector', type: t, elems: Array.from({ length: t.length }, () => s) };
  }
  if (t.kind === 'opaque' && t.name === 'sampler_t' && v.k === 'int') return v;
  throw new NotConstant(`a cast to '${typeToString(type)}'`);
}

function vectorLiteral(e: Extract<Expr, { k: 'vector' }>, ctx: EvalContext): CValue {
  const t = canonical(e.type).type as VectorType;
  const parts: CValue[] = [];
  for (const x of e.elems) {
    const v = ev(x, ctx);
    if (v.k === 'vector') parts.push(...v.elems);
    else parts.push(v);
  }
  if (parts.length === 1) return castTo(parts[0], e.type, ctx);
  if (parts.length !== t.length)
    throw new NotConstant(`a vector literal of ${parts.length} components for ${typeToString(e.type)}`);
  return { k: 'vector', type: t, elems: parts.map((p) => convertScalar(p, t.element, ctx.layout)) };
}

function unary(op: string, v: CValue, span: Span, ctx: EvalContext): CValue {
  if (v.k === 'vector' || v.k === 'string') {
    if (v.k === 'vector' && (op === '-' || op === '+' || op === '~'))
      return { ...v, elems: v.elems.map((x) => unary(op, x, span, ctx)) };
    throw new NotConstant(`operator '${op}' on ${describeValue(v)}`);
  }
  switch (op) {
    case '+':
      return v;
    case '-':
      return v.k === 'float' ? { ...v, v: -v.v } : { ...v, v: wrapInt(-v.v, v.t) };
    case '~':
      if (v.k !== 'int') throw new NotConstant("operator '~' on a floating value");
      return { ...v, v: wrapInt(~v.v, v.t) };
    case '!':
      return { k: 'int', v: truthy(v) ? 0n : 1n, t: 'int' };
    default:
      throw new NotConstant(`operator '${op}'`);
  }
}

/** Lane `i` of a vector operand; a scalar operand is its own every lane. */
const lane = (v: CValue, i: number): CValue => (v.k === 'vector' ? v.elems[i] : v);
/** `n` rounded to floating type `rt`. */
const roundTo = (rt: 'half' | 'float' | 'double', n: number) =>
  rt === 'float' ? Math.fround(n) : rt === 'half' ? roundHalf(n) : n;
/** A comparison's result: int 1 or 0. */
const cmp = (c: boolean): CValue => ({ k: 'int', v: c ? 1n : 0n, t: 'int' });

function binary(op: string, a: CValue, b: CValue, span: Span, ctx: EvalContext): CValue {
  if (a.k === 'vector' || b.k === 'vector') {
    const n = a.k === 'vector' ? a.elems.length : (b as Extract<CValue, { k: 'vector' }>).elems.length;
    const type = a.k === 'vector' ? a.type : (b as Extract<CValue, { k: 'vector' }>).type;
    return {
      k: 'vector',
      type,
      elems: Array.from({ length: n }, (_, i) =>
        convertScalar(binary(op, lane(a, i), lane(b, i), span, ctx), type.element, ctx.layout),
      ),
    };
  }
  if (a.k === 'string' || b.k === 'string') throw new NotConstant(`operator '${op}' on a string literal`);
  if (a.k === 'float' || b.k === 'float') {
    const t = (a.k === 'float' ? a.t : 'half') as 'half' | 'float' | 'double';
    const u = (b.k === 'float' ? b.t : 'half') as 'half' | 'float' | 'double';
    const rt = FLOAT_RANK[t] >= FLOAT_RANK[u] ? t : u;
    const x = a.k === 'float' ? a.v : Number(a.v);
    const y = b.k === 'float' ? b.v : Number(b.v);
    switch (op) {
      case '+':
        return { k: 'float', v: roundTo(rt, x + y), t: rt };
      case '-':
        return { k: 'float', v: roundTo(rt, x - y), t: rt };
      case '*':
        return { k: 'float', v: roundTo(rt, x * y), t: rt };
      case '/':
        return { k: 'float', v: roundTo(rt, x / y), t: rt };
      case '<':
        return cmp(x < y);
      case '>':
        return cmp(x > y);
      case '<=':
        return cmp(x <= y);
      case '>=':
        return cmp(x >= y);
      case '==':
        return cmp(x === y);
      case '!=':
        return cmp(x !== y);
      default:
        throw new NotConstant(`operator '${op}' on floating values`);
    }
  }
  if (op === '<<' || op === '>>') {
    let n = b.v;
    const bits = BigInt(INT_BITS[a.t]);
    if (n < 0n || n >= bits) {
      // clang-16 folds a wide shift with the count modulo the width (1 << 40 is 256 in an int), with a warning.
      ctx.diags.report(n < 0n ? Messages.shiftCountNegative : Messages.shiftCountTooLarge, span);
      n &= bits - 1n;
    }
    return { ...a, v: wrapInt(op === '<<' ? a.v << n : a.v >> n, a.t) };
  }
  const t = commonInt(a.t, b.t);
  const x = wrapInt(a.v, t);
  const y = wrapInt(b.v, t);
  switch (op) {
    case '+':
      return { k: 'int', v: wrapInt(x + y, t), t };
    case '-':
      return { k: 'int', v: wrapInt(x - y, t), t };
    case '*':
      return { k: 'int', v: wrapInt(x * y, t), t };
    case '/':
    case '%':
      if (y === 0n) {
        ctx.diags.report(Messages.divisionByZero, span);
        throw new NotConstant('division by zero', true);
      }
      return { k: 'int', v: wrapInt(op === '/' ? x / y : x % y, t), t };
    case '&':
      return { k: 'int', v: wrapInt(x & y, t), t };
    case '|':
      return { k: 'int', v: wrapInt(x | y, t), t };
    case '^':
      return { k: 'int', v: wrapInt(x ^ y, t), t };
    case '<':
      return cmp(x < y);
    case '>':
      return cmp(x > y);
    case '<=':
      return cmp(x <= y);
    case '>=':
      return cmp(x >= y);
    case '==':
      return cmp(x === y);
    case '!=':
      return cmp(x !== y);
    default:
      throw new NotConstant(`operator '${op}'`);
  }
}

export { NotConstant };
