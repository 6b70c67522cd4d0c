/** Declarators: pointers, arrays, function suffixes, parameters and type names. */
import { Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { type QualType, q, scalar } from '../../types/types.js';
import { CLANG_MAX_PARAMETERS } from '../parameter-limits.js';
import { evaluateInt } from './expr.js';
import { K_IDENT, KIND_MASK, type Token, tokenSpan } from './token.js';
import {
  ADDRESS_SPACES,
  ACCESS,
  BASIC_KEYWORDS,
  QUALIFIERS,
  type Attribute,
  type ParamDecl,
  type Declarator,
  MAX_NESTING,
} from './parser-core.js';
import { stripQuals, substitute } from './parser-types.js';
import { SpecifierParser } from './parser-specifiers.js';

export abstract class DeclaratorParser extends SpecifierParser {
  // ---- Declarators -----------------------------------------------------------------------

  /**
   * Parses a (possibly abstract) declarator over `base`. Pointer levels wrap first,
   * then array/function suffixes (outermost last), then a parenthesised inner declarator.
   */
  protected declarator(base: QualType, abstract: boolean): Declarator {
    if (++this.depth > MAX_NESTING) this.fail(Messages.tooDeep, this.peek(), [MAX_NESTING]);
    let t = base;
    const attrs: Attribute[] = [];
    while (this.is('*')) {
      this.next();
      // Made only when the pointer has qualifiers (most have none).
      let quals: { -readonly [K in keyof QualType]?: QualType[K] } | undefined;
      for (;;) {
        const w = this.peek().text;
        if (this.peek().kind !== 'ident') break;
        if (QUALIFIERS.has(w)) {
          this.next();
          quals ??= {};
          if (w.includes('const')) quals.const = true;
          else if (w.includes('volatile')) quals.volatile = true;
          else quals.restrict = true;
        } else if (ADDRESS_SPACES.has(w)) {
          this.next();
          (quals ??= {}).space = ADDRESS_SPACES.get(w)!;
        } else if (w === '__attribute__') attrs.push(...this.attributes());
        else break;
      }
      t = quals ? { type: { kind: 'pointer', pointee: t }, ...quals } : { type: { kind: 'pointer', pointee: t } };
    }
    let name: string | null = null;
    // Where the name would be: made into a span only when no name is read.
    let nameSpan: Span | undefined;
    let inner: ((t: QualType) => QualType) | undefined;
    let innerDecl: Declarator | undefined;
    const tok = this.peek();
    if (tok.kind === 'ident' && tok.text !== '__attribute__') {
      this.next();
      name = tok.text;
      nameSpan = tokenSpan(tok);
    } else if (
      this.is('(') &&
      (this.is('*', 1) ||
        this.is('(', 1) ||
        this.is('[', 1) ||
        this.is('^', 1) ||
        (this.peek(1).kind === 'ident' && !this.startsType(this.peek(1))))
    ) {
      this.next();
      const placeholder: QualType = q(scalar('void'));
      innerDecl = this.declarator(placeholder, abstract);
      this.expect(')');
      name = innerDecl.name;
      nameSpan = innerDecl.nameSpan;
      const innerType = innerDecl.type;
      inner = (outer) => substitute(innerType, placeholder, outer);
    } else if (!abstract) {
      if (tok.kind === 'eof') this.fail(Messages.unexpectedEof, tok, ['a declarator']);
      this.fail(Messages.expectedButFound, tok, ['an identifier', tok.text]);
    }
    if (this.is('__attribute__')) attrs.push(...this.attributes());
    const suffixes: ((t: QualType) => QualType)[] = [];
    let suffixDepth = 0;
    let params: ParamDecl[] | null = null;
    let variadic = false;
    for (;;) {
      if (this.is('[')) {
        const open = this.next();
        // Each array suffix nests the element type one level (and is applied recursively below).
        if (++suffixDepth > MAX_NESTING) this.fail(Messages.tooDeep, open, [MAX_NESTING]);
        let length: number | null = null;
        if (!this.is(']')) {
          while (this.peek().kind === 'ident' && (QUALIFIERS.has(this.peek().text) || this.peek().text === 'static'))
            this.next();
          const e = this.assignmentExpr();
          const v = evaluateInt(e, this.evalCtx);
          // Zero is clang's zero-length array; the size in bytes is checked once the element is known.
          length = this.checker.arrayLength(v, e.span) ?? 1;
          const count = v ?? 1n;
          const at = e.span;
          suffixes.push((el) => {
            if (this.checker.arrayElement(el, tokenSpan(open))) this.checker.arrayBytes(el, count, at);
            return q({ kind: 'array', element: el, length });
          });
        } else
          suffixes.push((el) => {
            this.checker.arrayElement(el, tokenSpan(open));
            return q({ kind: 'array', element: el, length: null });
          });
        this.expect(']', "']'");
        continue;
      }
      if (this.is('(')) {
        this.next();
        const ps: ParamDecl[] = [];
        let va = false;
        let tooMany = false;
        if (this.is('void') && this.is(')', 1)) this.next();
        else if (!this.is(')')) {
          for (;;) {
            if (this.is('...')) {
              this.next();
              va = true;
              break;
            }
            // clang's limit, reported at the first parameter past it as clang-22 does; the rest are parsed and dropped.
            const first = this.peek();
            const p = this.parameter();
            if (ps.length < CLANG_MAX_PARAMETERS) ps.push(p);
            else if (ps.length === CLANG_MAX_PARAMETERS && !tooMany) {
              tooMany = true;
              this.diags.report(Messages.tooManyParameters, tokenSpan(first));
            }
            if (!this.accept(',')) break;
          }
        }
        this.expect(')', "')' after the parameters");
        this.checkParamNames(ps);
        if (params === null && suffixes.length === 0 && !innerDecl) {
          params = ps;
          variadic = va;
        }
        suffixes.push((result) => q({ kind: 'function', result, params: ps.map((p) => p.type), variadic: va }));
        if (this.is('__attribute__')) attrs.push(...this.attributes());
        continue;
      }
      break;
    }
    for (let k = suffixes.length - 1; k >= 0; k--) t = suffixes[k](t);
    if (inner) t = inner(t);
    if (innerDecl && innerDecl.params && params === null) {
      params = innerDecl.params;
      variadic = innerDecl.variadic;
    }
    this.depth--;
    return {
      name,
      nameSpan: nameSpan ?? tokenSpan(tok),
      type: t,
      params,
      variadic,
      attrs: innerDecl?.attrs.length ? [...attrs, ...innerDecl.attrs] : attrs,
    };
  }

  protected startsType(t: Token): boolean {
    return (t.bits & KIND_MASK) === K_IDENT && this.startsTypeWord(t.text);
  }

  /** startsType for an identifier spelled `w`. */
  protected startsTypeWord(w: string): boolean {
    return (
      BASIC_KEYWORDS.has(w) ||
      QUALIFIERS.has(w) ||
      ADDRESS_SPACES.has(w) ||
      ACCESS.has(w) ||
      w === 'struct' ||
      w === 'union' ||
      w === 'enum' ||
      (w === 'pipe' && this.options.clVersion >= 200) ||
      this.typedefs.has(w) ||
      this.isBuiltinTypeName(w)
    );
  }

  /** Two parameters of one list with one name: clang's error (the type is still built, so parsing goes on). */
  protected checkParamNames(ps: readonly ParamDecl[]): void {
    if (ps.length < 2) return;
    // A short list is compared pairwise: a Map per list was one of every kernel's allocations (issue 30).
    if (ps.length <= 16) {
      for (let k = 1; k < ps.length; k++) {
        const name = ps[k].name;
        if (name === null) continue;
        for (let j = 0; j < k; j++) {
          if (ps[j].name !== name) continue;
          this.reportParamRedefinition(ps[k], ps[j].span);
          break;
        }
      }
      return;
    }
    const seen = new Map<string, Span>();
    for (const p of ps) {
      if (p.name === null) continue;
      const prev = seen.get(p.name);
      if (prev) this.reportParamRedefinition(p, prev);
      else seen.set(p.name, p.span);
    }
  }

  private reportParamRedefinition(p: ParamDecl, prev: Span): void {
    this.diags.report(
      Messages.paramRedefinition,
      p.span,
      [p.name!],
      [{ message: 'previous declaration is here', span: prev }],
    );
  }

  protected parameter(): ParamDecl {
    const spec = this.declSpecifiers(true);
    const d = this.declarator(spec.base, true);
    let type = d.type;
    // Parameters of array type are pointers (C11 6.7.6.3p7).
    if (type.type.kind === 'array')
      type = { ...stripQuals(type), type: { kind: 'pointer', pointee: type.type.element } };
    return { name: d.name, type, span: d.name ? d.nameSpan : spec.span };
  }

  /** A type name, as in casts, sizeof and vec_type_hint. */
  protected typeName(): QualType {
    const spec = this.declSpecifiers(false);
    return this.declarator(spec.base, true).type;
  }
}
