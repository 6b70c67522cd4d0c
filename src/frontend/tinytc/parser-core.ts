// The machinery both tinytc parsers (parser.ts for v0.3, v04/parser.ts for v0.4) read with: the
// token cursor, expect/accept, error reporting and recovery at the next `func`, nested regions,
// comma lists, and the parts of a type where the two grammars agree (a typed span, a `( … )` type
// list, a `strided<…>` list, a group's `, offset: …`). What differs stays in each version's parser.
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import { type Span, joinSpans } from '../../diagnostics/source.js';
import type { Dim } from './ast.js';
import type { IrTok } from './token-core.js';

/** Unwinds to the next function after a reported syntax error. */
export class Bail extends Error {}

/** How deeply regions may nest before the input is refused (and the stack is safe). */
const MAX_DEPTH = 200;

export abstract class ParserCore<K extends string, Ty> {
  protected pos = 0;
  protected depth = 0;

  constructor(
    protected readonly toks: IrTok<K>[],
    protected readonly diags: DiagnosticBag,
  ) {}

  /** Whether tokens of this kind match `is`/`expect` by their text (keywords, punctuation, …). */
  protected abstract matchesText(kind: IrTok<K>['kind']): boolean;
  /** A token as a diagnostic quotes what was found. */
  protected abstract shown(t: IrTok<K>): string;
  /** A type of the version's grammar. */
  abstract type(): Ty;

  protected peek(k = 0): IrTok<K> {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)];
  }
  protected next(): IrTok<K> {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  protected is(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.text === text && this.matchesText(t.kind);
  }
  protected accept(text: string): IrTok<K> | undefined {
    return this.is(text) ? this.next() : undefined;
  }
  protected fail(msg: Message, at: IrTok<K> | Span, args: (string | number)[] = []): never {
    this.diags.report(msg, 'kind' in at ? at.span : at, args);
    throw new Bail();
  }
  /** `what` was expected where `t` stands: the end of the input, or another token. */
  protected found(t: IrTok<K>, what: string): never {
    if (t.kind === 'eof') this.fail(Messages.unexpectedEof, t, [what]);
    return this.fail(Messages.expectedButFound, t, [what, this.shown(t)]);
  }
  protected expect(text: string): IrTok<K> {
    return this.is(text) ? this.next() : this.found(this.peek(), `'${text}'`);
  }
  /** From `start` to the last token read. */
  protected spanFrom(start: IrTok<K> | Span): Span {
    return joinSpans('kind' in start ? start.span : start, this.toks[Math.max(0, this.pos - 1)].span);
  }

  /** A token's integer, refused where a double cannot hold it exactly. */
  protected safeInt(t: IrTok<K>): number {
    const v = Number(t.text);
    if (!Number.isSafeInteger(v)) this.fail(Messages.irNumberOutOfRange, t, [t.text]);
    return v;
  }

  /** Top-level items to the end; after a syntax error, reading goes on at the next `func`. */
  protected topLevel(item: () => void): void {
    while (this.peek().kind !== 'eof') {
      const start = this.pos;
      try {
        item();
      } catch (e) {
        if (!(e instanceof Bail)) throw e;
        this.depth = 0;
        if (this.pos === start) this.next();
        while (this.peek().kind !== 'eof' && !this.is('func')) this.next();
      }
    }
  }

  /** `{ item* }`, nested at most MAX_DEPTH deep; `item` reads one and adds what it makes to the body. */
  protected regionOf<I>(item: (body: I[]) => void): { body: I[]; span: Span } {
    const open = this.expect('{');
    if (++this.depth > MAX_DEPTH) this.fail(Messages.tooDeep, open, [MAX_DEPTH]);
    const body: I[] = [];
    while (!this.is('}')) {
      if (this.peek().kind === 'eof') this.fail(Messages.unmatchedBrace, open);
      item(body);
    }
    this.expect('}');
    this.depth--;
    return { body, span: this.spanFrom(open) };
  }

  /** One or more `one`, separated by commas; none where `close` follows at once. */
  protected list<X>(one: () => X, close?: string): X[] {
    const out: X[] = [];
    if (close !== undefined && this.is(close)) return out;
    do out.push(one());
    while (this.accept(','));
    return out;
  }

  /** A type and the span it was read from. */
  protected typed(): { type: Ty; span: Span } {
    const start = this.peek();
    const type = this.type();
    return { type, span: this.spanFrom(start) };
  }

  /** `( type, … )`. */
  protected typeList(): { type: Ty; span: Span }[] {
    this.expect('(');
    const out = this.list(() => this.typed(), ')');
    this.expect(')');
    return out;
  }

  /** `<stride, …>` after `strided` (token `s`), as many as the shape has extents. */
  protected strideList(s: IrTok<K>, extents: number, dim: () => Dim): Dim[] {
    this.expect('<');
    const list = this.list(dim, '>');
    this.expect('>');
    if (list.length !== extents)
      this.fail(Messages.irTypeSyntax, this.spanFrom(s), [
        `shape and stride list must have the same length (${extents} extents, ${list.length} strides)`,
      ]);
    return list;
  }

  /** A group type's `, offset: d` (0 where absent). */
  protected groupOffset(dim: () => Dim): Dim {
    if (!this.accept(',')) return 0;
    this.expect('offset');
    this.expect(':');
    return dim();
  }
}
