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

/**
 * Evaluates the (already macro-expanded, `defined`-resolved) tokens of a #if line.
 * Identifiers left over are 0. Returns undefined after reporting an error.
 */
export function evaluatePPExpression(tokens: readonly Token[], at: Token, diags: DiagnosticBag): boolean | undefined {
  let i = 0;
  const peek = () => tokens[i];
  const fail = (msg: Parameters<DiagnosticBag['report']>[0], tok: Token | undefined, args: string[] = []): never => {
    diags.report(msg, tokenSpan(tok ?? tokens[tokens.length - 1] ?? at), args);
    throw new Bail();
  };
  const isOp = (t: Token | undefined, op: string) => t !== undefined && t.kind === 'punct' && t.text === op;

  // evaluate=false parses the unevaluated operand of && || ?: (C11 6.10.1: no division-by-zero error there).
  const primary = (ev: boolean): PPValue => {
    const t = tokens[i];
    if (!t) return fail(Messages.ppExprExpected, at);
    i++;
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
    if (isOp(t, '(')) {
      const v = conditional(ev);
      if (!isOp(peek(), ')')) fail(Messages.ppMissingParen, peek());
      i++;
      return v;
    }
    if (t.kind === 'punct' && ['+', '-', '~', '!'].includes(t.text)) {
      const a = primary(ev);
      switch (t.text) {
        case '+': return a;
        case '-': return norm(-a.v, a.u);
        case '~': return norm(~a.v, a.u);
        default: return { v: a.v === 0n ? 1n : 0n, u: false };
      }
    }
    return fail(Messages.ppExprInvalid, t, [`'${t.text}'`]);
  };

  const PREC: Record<string, number> = {
    '*': 10, '/': 10, '%': 10, '+': 9, '-': 9, '<<': 8, '>>': 8, '<': 7, '>': 7, '<=': 7, '>=': 7,
    '==': 6, '!=': 6, '&': 5, '^': 4, '|': 3, '&&': 2, '||': 1,
  };

  const binary = (minPrec: number, ev: boolean): PPValue => {
    let lhs = primary(ev);
    for (;;) {
      const t = peek();
      if (!t || t.kind !== 'punct' || !(t.text in PREC) || PREC[t.text] < minPrec) return lhs;
      const op = t.text;
      i++;
      const rhsEv = op === '&&' ? ev && lhs.v !== 0n : op === '||' ? ev && lhs.v === 0n : ev;
      const rhs = binary(PREC[op] + 1, rhsEv);
      lhs = apply(op, lhs, rhs, t, ev);
    }
  };

  const apply = (op: string, a: PPValue, b: PPValue, t: Token, ev: boolean): PPValue => {
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
      case '*': return norm(x * y, u);
      case '/':
      case '%':
        if (y === 0n) {
          if (ev) fail(Messages.ppDivByZero, t);
          return { v: 0n, u };
        }
        return norm(op === '/' ? x / y : x % y, u);
      case '+': return norm(x + y, u);
      case '-': return norm(x - y, u);
      case '<': return { v: x < y ? 1n : 0n, u: false };
      case '>': return { v: x > y ? 1n : 0n, u: false };
      case '<=': return { v: x <= y ? 1n : 0n, u: false };
      case '>=': return { v: x >= y ? 1n : 0n, u: false };
      case '==': return { v: x === y ? 1n : 0n, u: false };
      case '!=': return { v: x !== y ? 1n : 0n, u: false };
      case '&': return norm(x & y, u);
      case '^': return norm(x ^ y, u);
      default: return norm(x | y, u);
    }
  };

  const conditional = (ev: boolean): PPValue => {
    const c = binary(1, ev);
    if (!isOp(peek(), '?')) return c;
    i++;
    const a = conditional(ev && c.v !== 0n);
    if (!isOp(peek(), ':')) fail(Messages.ppColonExpected, peek());
    i++;
    const b = conditional(ev && c.v === 0n);
    const u = a.u || b.u;
    return c.v !== 0n ? norm(a.v, u) : norm(b.v, u);
  };

  try {
    if (tokens.length === 0) fail(Messages.ppExprExpected, at);
    const v = conditional(true);
    if (i < tokens.length) fail(Messages.ppExprInvalid, tokens[i], [`'${tokens[i].text}'`]);
    return v.v !== 0n;
  } catch (e) {
    if (e instanceof Bail) return undefined;
    throw e;
  }
}
