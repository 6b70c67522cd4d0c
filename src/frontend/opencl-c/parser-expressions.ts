/** Initializers and constant expressions. */
import { Messages } from '../../diagnostics/messages.js';
import { type Span, joinSpans } from '../../diagnostics/source.js';
import { layoutOf, recordLayout } from '../../layout/layout.js';
import { typeToString } from '../../types/print.js';
import { type QualType, canonical, q, scalar } from '../../types/types.js';
import { type Expr, type IntTypeName, evaluateInt } from './expr.js';
import { type Init } from './initializer.js';
import {
  isFloatLiteralText,
  parseCharLiteral,
  parseFloatLiteral,
  parseIntLiteral,
  parseStringLiteral,
} from './literals.js';
import { type Token, tokenSpan } from './token.js';
import { ParseError, MAX_NESTING } from './parser-core.js';
import { findField } from './parser-types.js';
import { DeclaratorParser } from './parser-declarators.js';

export abstract class ExpressionParser extends DeclaratorParser {
  // ---- Initializers ----------------------------------------------------------------------

  protected initializer(): Init {
    const start = this.peek();
    if (!this.is('{')) return { k: 'expr', e: this.assignmentExpr(), span: tokenSpan(start) };
    const open = this.next();
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, open, [MAX_NESTING]);
    const items: { designators: ({ field: string; span: Span } | { index: Expr; span: Span })[]; init: Init }[] = [];
    while (!this.is('}')) {
      if (this.peek().kind === 'eof') this.fail(Messages.unmatchedBrace, open);
      const designators: ({ field: string; span: Span } | { index: Expr; span: Span })[] = [];
      for (;;) {
        if (this.is('.')) {
          this.next();
          const id = this.next();
          if (id.kind !== 'ident') this.fail(Messages.expectedButFound, id, ['a field name', id.text]);
          designators.push({ field: id.text, span: tokenSpan(id) });
        } else if (this.is('[')) {
          const b = this.next();
          const e = this.conditionalExpr();
          this.expect(']');
          designators.push({ index: e, span: this.span(b) });
        } else break;
      }
      if (designators.length) this.expect('=', "'=' after a designator");
      items.push({ designators, init: this.initializer() });
      if (!this.accept(',')) break;
    }
    this.expect('}');
    this.depth--;
    return { k: 'list', items, span: this.span(open) };
  }

  // ---- Expressions -----------------------------------------------------------------------

  protected expression(): Expr {
    let e = this.assignmentExpr();
    while (this.is(',')) {
      this.next();
      const r = this.assignmentExpr();
      e = { k: 'binary', op: ',', l: e, r, span: joinSpans(e.span, r.span) };
    }
    return e;
  }

  protected assignmentExpr(): Expr {
    const e = this.conditionalExpr();
    const t = this.peek();
    if (t.kind === 'punct' && ['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|='].includes(t.text)) {
      this.next();
      const r = this.assignmentExpr();
      return { k: 'other', what: 'an assignment', span: joinSpans(e.span, r.span) };
    }
    return e;
  }

  protected conditionalExpr(): Expr {
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, this.peek(), [MAX_NESTING]);
    const c = this.binaryExpr(1);
    let result = c;
    if (this.is('?')) {
      this.next();
      const a = this.expression();
      this.expect(':', "':' in a conditional expression");
      const b = this.conditionalExpr();
      result = { k: 'cond', c, a, b, span: joinSpans(c.span, b.span) };
    }
    this.depth--;
    return result;
  }

  protected static readonly PREC: Record<string, number> = {
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

  protected binaryExpr(min: number): Expr {
    let l = this.castExpr();
    for (;;) {
      const t = this.peek();
      const p = t.kind === 'punct' ? ExpressionParser.PREC[t.text] : undefined;
      if (p === undefined || p < min) return l;
      this.next();
      const r = this.binaryExpr(p + 1);
      l = { k: 'binary', op: t.text, l, r, span: joinSpans(l.span, r.span) };
    }
  }

  protected castExpr(): Expr {
    if (this.is('(') && this.startsType(this.peek(1))) {
      const open = this.next();
      const type = this.typeName();
      this.expect(')');
      if (this.is('{')) {
        this.initializer();
        return { k: 'other', what: 'a compound literal', span: this.span(open) };
      }
      const c = canonical(type).type;
      if (c.kind === 'vector' && this.is('(')) {
        // OpenCL vector literal: (float4)(a, b, ...)
        this.next();
        const elems: Expr[] = [this.assignmentExpr()];
        while (this.accept(',')) elems.push(this.assignmentExpr());
        this.expect(')');
        return { k: 'vector', type, elems, span: this.span(open) };
      }
      const e = this.nestedCastExpr(open);
      return { k: 'cast', type, e, span: joinSpans(tokenSpan(open), e.span) };
    }
    return this.unaryExpr();
  }

  /** The operand of a prefix operator or a cast: each one nests a level, so 100k unary minus signs are refused, not a stack overflow. */
  protected nestedCastExpr(op: Token): Expr {
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, op, [MAX_NESTING]);
    const e = this.castExpr();
    this.depth--;
    return e;
  }

  protected unaryExpr(): Expr {
    const t = this.peek();
    if (t.kind === 'punct' && ['+', '-', '~', '!'].includes(t.text)) {
      this.next();
      const e = this.nestedCastExpr(t);
      return { k: 'unary', op: t.text, e, span: joinSpans(tokenSpan(t), e.span) };
    }
    if (t.kind === 'punct' && ['&', '*', '++', '--'].includes(t.text)) {
      this.next();
      const e = this.nestedCastExpr(t);
      return {
        k: 'other',
        what: t.text === '&' ? 'an address' : `operator '${t.text}'`,
        span: joinSpans(tokenSpan(t), e.span),
      };
    }
    if (
      t.kind === 'ident' &&
      (t.text === 'sizeof' ||
        t.text === '_Alignof' ||
        t.text === '__alignof__' ||
        t.text === '__alignof' ||
        t.text === 'vec_step')
    ) {
      this.next();
      let type: QualType;
      if (this.is('(') && this.startsType(this.peek(1))) {
        this.next();
        type = this.typeName();
        this.expect(')');
      } else {
        const e = this.unaryExpr();
        type = this.typeOfExpr(e);
      }
      const span = this.span(t);
      // OpenCL C refuses sizeof(void) and _Alignof(void) (C's GNU extension makes them 1).
      if (t.text !== 'vec_step') {
        const c = canonical(type).type;
        if (c.kind === 'scalar' && c.name === 'void')
          this.diags.report(Messages.sizeofVoid, span, [
            t.text === 'sizeof' ? 'sizeof' : t.text === '_Alignof' ? 'alignof' : '__alignof',
          ]);
      }
      if (t.text === 'vec_step') {
        const c = canonical(type).type;
        return { k: 'int', v: BigInt(c.kind === 'vector' ? (c.length === 3 ? 4 : c.length) : 1), t: 'int', span };
      }
      return t.text === 'sizeof' ? { k: 'sizeof', type, span } : { k: 'alignof', type, span };
    }
    if (t.kind === 'ident' && t.text === '__builtin_offsetof') return this.offsetofExpr();
    return this.postfixExpr();
  }

  /** `__builtin_offsetof(type, member.designator[index])`, folded under the module's layout. */
  protected offsetofExpr(): Expr {
    const kw = this.next();
    this.expect('(');
    let type = this.typeName();
    this.expect(',');
    let offset = 0;
    for (let first = true; ; first = false) {
      if (!first && this.is('[')) {
        const open = this.next();
        const v = evaluateInt(this.expression(), this.evalCtx);
        this.expect(']');
        const c = canonical(type).type;
        if (c.kind !== 'array')
          this.fail(Messages.constExprInvalid, this.span(open), ['subscript of a non-array in offsetof']);
        if (v === undefined) throw new ParseError();
        type = c.element;
        offset += Number(v) * layoutOf(type, this.options.layout).size;
        continue;
      }
      if (!first && !this.accept('.')) break;
      const id = this.next();
      if (id.kind !== 'ident') this.fail(Messages.expectedButFound, id, ['a member name', id.text]);
      const c = canonical(type).type;
      if (c.kind !== 'record' || !c.decl.fields) this.fail(Messages.noMember, id, [id.text, typeToString(type)]);
      const f = findField(recordLayout(c.decl, this.options.layout).fields, id.text, this.options.layout);
      if (!f) this.fail(Messages.noMember, id, [id.text, typeToString(type)]);
      if (f.bitWidth !== undefined) this.fail(Messages.constExprInvalid, id, ['offsetof a bit-field']);
      offset += f.offset;
      type = f.type;
    }
    this.expect(')');
    if (!Number.isSafeInteger(offset))
      this.fail(Messages.constExprInvalid, this.span(kw), ['an offset too large to be exact']);
    return { k: 'int', v: BigInt(offset), t: this.options.layout.sizeT === 8 ? 'ulong' : 'uint', span: this.span(kw) };
  }

  /** The type of an expression operand of sizeof: literals and named variables. */
  protected typeOfExpr(e: Expr): QualType {
    switch (e.k) {
      case 'int':
        return q(scalar(e.t));
      case 'float':
        return q(scalar(e.t));
      case 'string':
        return q({ kind: 'array', element: q(scalar('char')), length: e.bytes.length + 1 });
      case 'cast':
      case 'vector':
        return e.type;
      case 'ident': {
        const o = this.ordinary.get(e.name);
        if (o?.kind === 'variable') return o.type;
        if (o?.kind === 'enum') return q(scalar('int'));
        break;
      }
    }
    this.fail(Messages.constExprInvalid, e.span, ['sizeof of this expression']);
  }

  protected postfixExpr(): Expr {
    let e = this.primaryExpr();
    for (;;) {
      if (this.is('[')) {
        this.next();
        this.expression();
        this.expect(']');
        e = { k: 'other', what: 'an array subscript', span: e.span };
      } else if (this.is('(')) {
        this.next();
        if (!this.is(')')) {
          this.assignmentExpr();
          while (this.accept(',')) this.assignmentExpr();
        }
        this.expect(')');
        e = { k: 'other', what: 'a function call', span: e.span };
      } else if (this.is('.') || this.is('->')) {
        this.next();
        this.next();
        e = { k: 'other', what: 'a member access', span: e.span };
      } else if (this.is('++') || this.is('--')) {
        this.next();
        e = { k: 'other', what: 'an increment', span: e.span };
      } else return e;
    }
  }

  protected primaryExpr(): Expr {
    const t = this.next();
    const span = tokenSpan(t);
    switch (t.kind) {
      case 'number': {
        if (isFloatLiteralText(t.text) || /^[0-9]+[fFhH]$/.test(t.text)) {
          const f = parseFloatLiteral(
            /^[0-9]+[fFhH]$/.test(t.text) ? t.text.slice(0, -1) + '.0' + t.text.slice(-1) : t.text,
          );
          if (typeof f === 'string') this.fail(Messages.constExprInvalid, t, [f]);
          if (f.type === 'half') this.checker.halfLiteral(span);
          return { k: 'float', v: f.type === 'float' ? Math.fround(f.value) : f.value, t: f.type, span };
        }
        const r = parseIntLiteral(t.text);
        if (typeof r === 'string') this.fail(Messages.constExprInvalid, t, [r]);
        const it: IntTypeName = r.size === 'long' ? (r.unsigned ? 'ulong' : 'long') : r.unsigned ? 'uint' : 'int';
        return { k: 'int', v: r.value, t: it, span };
      }
      case 'char': {
        const v = parseCharLiteral(t.text);
        if (typeof v === 'string') this.fail(Messages.constExprInvalid, t, [v]);
        return { k: 'int', v: BigInt(v), t: 'int', span };
      }
      case 'string': {
        const bytes: number[] = [];
        let cur = t;
        for (;;) {
          const b = parseStringLiteral(cur.text);
          if (typeof b === 'string') this.fail(Messages.constExprInvalid, cur, [b]);
          bytes.push(...b);
          if (this.peek().kind !== 'string') break;
          cur = this.next();
        }
        return { k: 'string', bytes, span: this.span(t) };
      }
      case 'ident': {
        if (t.text === 'true' || t.text === 'false')
          return { k: 'int', v: t.text === 'true' ? 1n : 0n, t: 'int', span };
        if (!this.ordinary.has(t.text)) {
          if (this.is('(')) return { k: 'other', what: `a call to '${t.text}'`, span };
          this.diags.report(Messages.undeclaredIdentifier, span, [t.text]);
          return { k: 'other', what: `'${t.text}'`, span };
        }
        return { k: 'ident', name: t.text, span };
      }
      case 'punct':
        if (t.text === '(') {
          const e = this.expression();
          this.expect(')');
          return e;
        }
        break;
      case 'eof':
        this.fail(Messages.unexpectedEof, t, ['an expression']);
    }
    this.pos--; // leave the offending token for error recovery
    if (t.kind === 'other') this.fail(Messages.strayCharacter, t, [t.text]);
    return this.fail(Messages.expectedButFound, t, ['an expression', t.text]);
  }
}
