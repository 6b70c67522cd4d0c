// The token cursor of the v0.4 parser and what tinytc evaluates while it reads: `$` definitions,
// `!calc(...)`, attribute values and constants' literals (parser.ts reads types and instructions).
import { Messages } from '../../../diagnostics/messages.js';
import type { Span } from '../../../diagnostics/source.js';
import { ParserCore } from '../parser-core.js';
import type { Attr, Literal, Type04 } from './ast.js';
import type { Tok04, Tok04Kind } from './lexer.js';

/** What a `$name = …` definition holds. */
type Def =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'string'; value: string }
  | { kind: 'type'; type: Type04 }
  | { kind: 'attr'; attr: Attr };

export abstract class ParserBase04 extends ParserCore<Tok04Kind, Type04> {
  protected readonly defs = new Map<string, Def>();

  protected matchesText(kind: Tok04Kind): boolean {
    return kind === 'punct' || kind === 'word' || kind === 'flag';
  }
  /** Names with their sigil (`%a`, `$n`): the token's text is the name alone. */
  protected shown(t: Tok04): string {
    return t.kind === 'local' ? `%${t.text}` : t.kind === 'def' ? `$${t.text}` : t.text;
  }

  protected def(t: Tok04): Def {
    const d = this.defs.get(t.text);
    return d ?? this.fail(Messages.ir04UndefinedDef, t, [t.text]);
  }

  protected defAssign(): void {
    const name = this.next();
    this.expect('=');
    const t = this.peek();
    let d: Def;
    if (t.kind === 'int') d = { kind: 'int', value: this.safeInt(this.next()) };
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
      if (t.kind === 'int' || t.kind === 'def') stack.push(t.kind === 'int' ? this.safeInt(t) : this.intDef(t));
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
    if (t.kind === 'int') return { value: this.safeInt(t), span: t.span };
    if (t.kind === 'def') return { value: this.intDef(t), span: t.span };
    return this.found(t, what);
  }

  protected attribute(): Attr {
    const t = this.peek();
    if (this.accept('[')) {
      const items = this.list(() => this.attribute(), ']');
      this.expect(']');
      return { kind: 'array', items, span: this.spanFrom(t) };
    }
    if (this.is('{')) return this.dict();
    this.next();
    if (t.kind === 'int') return { kind: 'int', value: this.safeInt(t), span: t.span };
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
      this.list(() => {
        const n = this.next();
        if (n.kind !== 'word' && n.kind !== 'string') this.found(n, 'an attribute name');
        this.expect('=');
        entries.set(n.text, this.attribute());
      });
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
