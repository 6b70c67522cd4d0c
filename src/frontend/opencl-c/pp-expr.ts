import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type Token, tokenSpan } from './token.js';
import { parseCharLiteral, parseIntLiteral } from './literals.js';

/** A value of a #if expression: intmax_t or uintmax_t (C11 6.10.1p4), both 64-bit. */
interface PPValue {
  v: bigint;
  u: boolean;
}

const MASK = (1n << 64n) - 1n;
const norm = (v: bigint, u: boolean): PPValue => ({ v: u ? v & MASK : BigInt.asIntN(64, v), u });

class Bail extends Error {}

/** What the evaluator has open while it reads left to right (an explicit stack: nesting depth costs no native stack). */
type Frame =
  | { readonly kind: 'unary'; readonly op: string; readonly ev: boolean }
  | { readonly kind: 'paren'; readonly ev: boolean }
  | {
      readonly kind: 'binary';
      readonly op: string;
      readonly prec: number;
      readonly lhs: PPValue;
      readonly t: Token;
      readonly ev: boolean;
    }
  | { kind: 'then' | 'else'; readonly cond: PPValue; then?: PPValue; readonly ev: boolean };

/**
 * Evaluates the (already macro-expanded, `defined`-resolved) tokens of a #if line.
 * Identifiers left over are 0. Returns undefined after reporting an error.
 * An operator-precedence machine with its own stack, so `#if` with thousands of nested
 * parentheses or unary operators is evaluated like any other (clang accepts them too).
 */
export function evaluatePPExpression(tokens: readonly Token[], at: Token, diags: DiagnosticBag): boolean | undefined {
  const fail = (msg: Parameters<DiagnosticBag['report']>[0], tok: Token | undefined, args: string[] = []): never => {
    diags.report(msg, tokenSpan(tok ?? tokens[tokens.length - 1] ?? at), args);
    throw new Bail();
  };
  const isOp = (t: Token | undefined, op: string) => t !== undefined && t.kind === 'punct' && t.text === op;
  const stack: Frame[] = [];
  // Whether the operand being read is evaluated (C11 6.10.1: no division-by-zero error in the
  // unevaluated operand of && || ?:).
  let ev = true;
  let i = 0;

  /** Applies the frames a finished operand closes: unary operators, and binary operators of at least `minPrec`. */
  const reduce = (v: PPValue, minPrec: number): PPValue => {
    for (;;) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'unary') {
        v = unary(top.op, v);
      } else if (top?.kind === 'binary' && top.prec >= minPrec) {
        v = apply(top.op, top.lhs, v, top.t, top.ev, fail);
      } else if (top?.kind === 'else' && minPrec <= 0) {
        const u = top.then!.u || v.u;
        v = top.cond.v !== 0n ? norm(top.then!.v, u) : norm(v.v, u);
      } else {
        return v;
      }
      ev = top.ev;
      stack.pop();
    }
  };

  try {
    if (tokens.length === 0) fail(Messages.ppExprExpected, at);
    for (;;) {
      // An operand: prefix operators and open parentheses, then a number, character or identifier.
      let v!: PPValue;
      for (;;) {
        const t = tokens[i];
        if (!t) fail(Messages.ppExprExpected, at);
        i++;
        if (isOp(t, '(')) {
          stack.push({ kind: 'paren', ev });
        } else if (t.kind === 'punct' && (t.text === '+' || t.text === '-' || t.text === '~' || t.text === '!')) {
          stack.push({ kind: 'unary', op: t.text, ev });
        } else {
          v = operand(t, fail);
          break;
        }
      }
      // Operators after it: close what they close, then open what they open.
      for (;;) {
        v = reduce(v, Infinity);
        const t = tokens[i];
        if (t && t.kind === 'punct' && t.text in PREC) {
          const prec = PREC[t.text];
          v = reduce(v, prec);
          i++;
          const rhsEv: boolean = t.text === '&&' ? ev && v.v !== 0n : t.text === '||' ? ev && v.v === 0n : ev;
          stack.push({ kind: 'binary', op: t.text, prec, lhs: v, t, ev });
          ev = rhsEv;
          break;
        }
        if (isOp(t, '?')) {
          v = reduce(v, 1);
          i++;
          stack.push({ kind: 'then', cond: v, ev });
          ev = ev && v.v !== 0n;
          break;
        }
        v = reduce(v, 0);
        const top = stack[stack.length - 1];
        if (isOp(t, ':') && top?.kind === 'then') {
          i++;
          top.kind = 'else';
          top.then = v;
          ev = top.ev && top.cond.v === 0n;
          break;
        }
        if (isOp(t, ')') && top?.kind === 'paren') {
          i++;
          stack.pop();
          ev = top.ev;
          continue;
        }
        if (top?.kind === 'then') fail(Messages.ppColonExpected, t);
        if (top?.kind === 'paren') fail(Messages.ppMissingParen, t);
        if (t) fail(Messages.ppExprInvalid, t, [`'${t.text}'`]);
        return v.v !== 0n;
      }
    }
  } catch (e) {
    if (e instanceof Bail) return undefined;
    throw e;
  }
}

function operand(t: Token, fail: Fail): PPValue {
  if (t.kind === 'number') {
    const r = parseIntLiteral(t.text);
    if (typeof r === 'string') return fail(Messages.ppInvalidNumber, t, [t.text]);
    return norm(r.value, r.unsigned);
  }
  if (t.kind === 'char') {
    const r = parseCharLiteral(t.text);
    if (typeof r === 'string') return fail(Messages.ppExprInvalid, t, [r]);
    return norm(BigInt(r), false);
  }
  if (t.kind === 'ident') return { v: 0n, u: false };
  return fail(Messages.ppExprInvalid, t, [`'${t.text}'`]);
}

function unary(op: string, a: PPValue): PPValue {
  switch (op) {
    case '+':
      return a;
    case '-':
      return norm(-a.v, a.u);
    case '~':
      return norm(~a.v, a.u);
    default:
      return { v: a.v === 0n ? 1n : 0n, u: false };
  }
}

const PREC: Record<string, number> = {
  '*': 10,
  '/': 10,
  '%': 10,
  '+': 9,
  '-': 9,
  '<<': 8,
  '>>': 8,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  '==': 6,
  '!=': 6,
  '&': 5,
  '^': 4,
  '|': 3,
  '&&': 2,
  '||': 1,
};

type Fail = (msg: Parameters<DiagnosticBag['report']>[0], tok: Token | undefined, args?: string[]) => never;

function apply(op: string, a: PPValue, b: PPValue, t: Token, ev: boolean, fail: Fail): PPValue {
  if (op === '&&') return { v: a.v !== 0n && b.v !== 0n ? 1n : 0n, u: false };
  if (op === '||') return { v: a.v !== 0n || b.v !== 0n ? 1n : 0n, u: false };
  if (op === '<<' || op === '>>') {
    const n = Number(b.u ? b.v : BigInt.asIntN(64, b.v));
    if (n < 0 || n >= 64) return { v: 0n, u: a.u };
    return op === '<<' ? norm(a.v << BigInt(n), a.u) : norm(a.u ? (a.v & MASK) >> BigInt(n) : a.v >> BigInt(n), a.u);
  }
  const u = a.u || b.u;
  const x = u ? a.v & MASK : a.v;
  const y = u ? b.v & MASK : b.v;
  switch (op) {
    case '*':
      return norm(x * y, u);
    case '/':
    case '%':
      if (y === 0n) {
        if (ev) fail(Messages.ppDivByZero, t);
        return { v: 0n, u };
      }
      return norm(op === '/' ? x / y : x % y, u);
    case '+':
      return norm(x + y, u);
    case '-':
      return norm(x - y, u);
    case '<':
      return { v: x < y ? 1n : 0n, u: false };
    case '>':
      return { v: x > y ? 1n : 0n, u: false };
    case '<=':
      return { v: x <= y ? 1n : 0n, u: false };
    case '>=':
      return { v: x >= y ? 1n : 0n, u: false };
    case '==':
      return { v: x === y ? 1n : 0n, u: false };
    case '!=':
      return { v: x !== y ? 1n : 0n, u: false };
    case '&':
      return norm(x & y, u);
    case '^':
      return norm(x ^ y, u);
    default:
      return norm(x | y, u);
  }
}
