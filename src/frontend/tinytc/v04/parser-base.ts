// The token cursor of the v0.4 parser and what tinytc evaluates while it reads: `$` definitions,
// `!calc(...)`, attribute values and constants' literals (parser.ts reads types and instructions).
import type { DiagnosticBag } from '../../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../../diagnostics/messages.js';
import { type Span, joinSpans } from '../../../diagnostics/source.js';
import type { Attr, Literal, Type04 } from './ast.js';
import type { Tok04 } from './lexer.js';

/** Unwinds to the next function after a reported syntax error. */
export class Bail extends Error {}

/** What a `$name = …` definition holds. */
type Def =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'type'; type: Type04 }
  | { kind: 'attr'; attr: Attr };

export abstract class ParserBase04 {
  protected pos = 0;
  protected depth = 0;
  protected readonly defs = new Map<string, Def>();

  constructor(
    protected readonly toks: Tok04[],
    protected readonly diags: DiagnosticBag,
  ) {}

  protected peek(k = 0): Tok04 {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)];
  }
  protected next(): Tok04 {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  protected is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return (t.kind === 'punct' || t.kind === 'word' || t.kind === 'flag') && t.text === text;
  }
  protected accept(text: string): Tok04 | undefined {
    return this.is(text) ? this.next() : undefined;
  }
  protected fail(msg: Message, at: Tok04 | Span, args: (string | number)[] = []): never {
    this.diags.report(msg, 'kind' in at ? at.span : at, args);
    throw new Bail();
  }
  protected found(t: Tok04, what: string): never {
    if (t.kind === 'eof') this.fail(Messages.unexpectedEof, t, [what]);
    return this.fail(Messages.expectedButFound, t, [
      what,
      t.kind === 'local' ? `%${t.text}` : t.kind === 'def' ? `$${t.text}` : t.text,
    ]);
  }
  protected expect(text: string): Tok04 {
    return this.is(text) ? this.next() : this.found(this.peek(), `'${text}'`);
  }
  protected spanFrom(start: Tok04 | Span): Span {
    return joinSpans('kind' in start ? start.span : start, this.toks[Math.max(0, this.pos - 1)].span);
  }

  /** A type (parser.ts): definitions may hold one. */
  abstract type(): Type04;

  protected def(t: Tok04): Def {
    const d = this.defs.get(t.text);
    return d ?? this.fail(Messages.ir04UndefinedDef, t, [t.text]);
  }

  protected defAssign(): void {
    const name = this.next();
    this.expect('=');
    const t = this.peek();
    let d: Def;
    if (t.kind === 'int') d = { kind: 'int', value: this.intValue(this.next()) };
    else if (t.kind === 'float') d = { kind: 'float', value: this.floatValue(this.next()) };
    else if (t.kind === 'string') d = { kind: 'string', value: this.next().text };
    else if (this.is('true') || this.is('false')) d = { kind: 'bool', value: this.next().text === 'true' };
    else if (t.kind === 'def') d = this.def(this.next());
    else if (this.is('!calc')) {
      this.next();
      this.expect('(');
      d = { kind: 'int', value: this.calc() };
      this.expect(')');
    } else if (this.is('[') || this.is('{')) d = { kind: 'attr', attr: this.attribute() };
    else d = { kind: 'type', type: this.type() };
    this.defs.set(name.text, d);
  }

  /** `!calc(...)`: integers and operators in reverse Polish notation, as tinytc's grammar reads them. */
  protected calc(): number {
    const stack: number[] = [];
    while (!this.is(')')) {
      const t = this.next();
      if (t.kind === 'int' || t.kind === 'def') stack.push(t.kind === 'int' ? this.intValue(t) : this.intDef(t));
      else if (['^', '-', '+', '*', '/', '%', 'min', 'max'].includes(t.text) && stack.length >= 2) {
        const b = stack.pop()!;
        const a = stack.pop()!;
        if ((t.text === '/' || t.text === '%') && b === 0) this.fail(Messages.ir04CalcError, t, ['division by zero']);
        const r =
          t.text === '^'
            ? a ** b
            : t.text === '-'
              ? a - b
              : t.text === '+'
                ? a + b
                : t.text === '*'
                  ? a * b
                  : t.text === '/'
                    ? Math.trunc(a / b)
                    : t.text === '%'
                      ? a % b
                      : t.text === 'min'
                        ? Math.min(a, b)
                        : Math.max(a, b);
        stack.push(r);
      } else this.found(t, "an integer or an operator of '!calc'");
    }
    if (stack.length !== 1)
      this.fail(Messages.ir04CalcError, this.peek(), [`${stack.length} values left on the stack, not 1`]);
    return stack[0];
  }

  protected intValue(t: Tok04): number {
    const v = Number(t.text);
    if (!Number.isSafeInteger(v)) this.fail(Messages.irNumberOutOfRange, t, [t.text]);
    return v;
  }
  protected floatValue(t: Tok04): number {
    const x = t.text.replace(/^\+/, '');
    const neg = x.startsWith('-');
    const m = neg ? x.slice(1) : x;
    const v = m === 'inf' ? Infinity : m === 'nan' ? NaN : /^0x/i.test(m) ? hexFloat(m) : Number(m);
    return neg ? -v : v;
  }
  protected intDef(t: Tok04): number {
    const d = this.def(t);
    return d.kind === 'int' ? d.value : this.fail(Messages.ir04DefKind, t, [t.text, 'an integer']);
  }
  /** `integer_constant_or_def`. */
  protected int(what: string): { value: number; span: Span } {
    const t = this.next();
    if (t.kind === 'int') return { value: this.intValue(t), span: t.span };
    if (t.kind === 'def') return { value: this.intDef(t), span: t.span };
    return this.found(t, what);
  }

  protected attribute(): Attr {
    const t = this.peek();
    if (this.accept('[')) {
      const items: Attr[] = [];
      if (!this.is(']')) {
        do items.push(this.attribute());
        while (this.accept(','));
      }
      this.expect(']');
      return { kind: 'array', items, span: this.spanFrom(t) };
    }
    if (this.is('{')) return this.dict();
    this.next();
    if (t.kind === 'int') return { kind: 'int', value: this.intValue(t), span: t.span };
    if (t.kind === 'string') return { kind: 'string', value: t.text, span: t.span };
    if (t.text === 'true' || t.text === 'false') return { kind: 'bool', value: t.text === 'true', span: t.span };
    if (t.kind === 'def') {
      const d = this.def(t);
      if (d.kind === 'int') return { kind: 'int', value: d.value, span: t.span };
      if (d.kind === 'bool') return { kind: 'bool', value: d.value, span: t.span };
      if (d.kind === 'string') return { kind: 'string', value: d.value, span: t.span };
      if (d.kind === 'attr') return d.attr;
      return this.fail(Messages.ir04DefKind, t, [t.text, 'an attribute']);
    }
    return this.found(t, 'an attribute');
  }

  protected dict(): Attr {
    const t = this.peek();
    if (t.kind === 'def') {
      this.next();
      const d = this.def(t);
      return d.kind === 'attr' && d.attr.kind === 'dict'
        ? d.attr
        : this.fail(Messages.ir04DefKind, t, [t.text, 'a dictionary attribute']);
    }
    this.expect('{');
    const entries = new Map<string, Attr>();
    if (!this.is('}')) {
      do {
        const n = this.next();
        if (n.kind !== 'word' && n.kind !== 'string') this.found(n, 'an attribute name');
        this.expect('=');
        entries.set(n.text, this.attribute());
      } while (this.accept(','));
    }
    this.expect('}');
    return { kind: 'dict', entries, span: this.spanFrom(t) };
  }

  protected literal(): { literal: Literal; span: Span } {
    const t = this.next();
    if (t.kind === 'int') return { literal: { kind: 'int', value: BigInt(t.text) }, span: t.span };
    if (t.kind === 'float') return { literal: { kind: 'float', value: this.floatValue(t) }, span: t.span };
    if (t.text === 'true' || t.text === 'false')
      return { literal: { kind: 'bool', value: t.text === 'true' }, span: t.span };
    if (t.kind === 'def') {
      const d = this.def(t);
      if (d.kind === 'int') return { literal: { kind: 'int', value: BigInt(d.value) }, span: t.span };
      if (d.kind === 'float') return { literal: { kind: 'float', value: d.value }, span: t.span };
      if (d.kind === 'bool') return { literal: { kind: 'bool', value: d.value }, span: t.span };
      return this.fail(Messages.ir04DefKind, t, [t.text, 'a boolean, integer or floating constant']);
    }
    if (t.text === '[') {
      const re = this.next();
      this.expect(',');
      const im = this.next();
      this.expect(']');
      if (re.kind !== 'float' || im.kind !== 'float')
        this.fail(Messages.expectedButFound, re.kind !== 'float' ? re : im, [
          'a floating constant',
          re.kind !== 'float' ? re.text : im.text,
        ]);
      return { literal: { kind: 'complex', re: this.floatValue(re), im: this.floatValue(im) }, span: this.spanFrom(t) };
    }
    return this.found(t, 'a constant');
  }
}

function hexFloat(m: string): number {
  const [mant, exp] = m.slice(2).split(/[pP]/);
  const [ip, fp = ''] = mant.split('.');
  const v = parseInt(ip || '0', 16) + (fp ? parseInt(fp, 16) / 16 ** fp.length : 0);
  return v * 2 ** Number(exp ?? 0);
}
