import { Messages } from '../../diagnostics/messages.js';
import type { SourceFile } from '../../diagnostics/source.js';
import { type BodyRecord, BodyRecorder, EMPTY_BODY, emptyBodyEnd, lexOrAbort, SkipAbort } from './body-record.js';
import { PlainExpander, type PlainExpansionHost } from './body-expand.js';
import { scanBodyText, type BodyHost } from './body-scan.js';
import { IdentTable } from './ident-table.js';
import { LazyLexer } from './lazy-lexer.js';
import { type TokenSink, TokenStream, type TokenSource } from './macro-expand.js';
import { type Conditional, Preprocessor } from './preprocessor.js';
import { BOL, K_IDENT, K_PUNCT, KIND_MASK, SPACE, Token } from './token.js';

/** One file being read: its lazy lexer and its open conditionals. */
interface FileWalk {
  readonly file: SourceFile;
  readonly lx: LazyLexer;
  readonly conds: Conditional[];
  readonly depth: number;
  /** What the body scanner asks of the preprocessor while it reads this file, made at its first body. */
  host?: BodyHost;
}

/**
 * The tokens after a macro name, lexed as expansion asks for them, up to the next directive line.
 * One per preprocessor, started again at each name (`start`): expansion from the file's text never
 * nests (what it expands goes to the output or the body's recorder, never back here).
 */
class LazyRun implements TokenSource {
  private readonly toks: Token[] = [];
  /** Clean end offset of each token. */
  readonly ends: number[] = [];
  private done = false;
  private walk!: FileWalk;

  /** Starts a run at macro name `first`, which `walk`'s lexer holds. */
  start(walk: FileWalk, first: Token): this {
    this.walk = walk;
    this.done = false;
    this.toks.length = 0;
    this.ends.length = 0;
    this.toks.push(first);
    this.ends.push(walk.lx.end);
    return this;
  }

  has(k: number): boolean {
    const { lx, file } = this.walk;
    while (k >= this.toks.length && !this.done) {
      if (!lexOrAbort(lx)) this.done = true;
      else {
        const text = lx.strings[lx.id];
        if ((lx.bits & BOL) !== 0 && (lx.bits & KIND_MASK) === K_PUNCT && text === '#') this.done = true;
        else {
          this.toks.push(new Token(lx.bits, text, file, lx.orig(lx.start), lx.origEnd(lx.end), false, false));
          this.ends.push(lx.end);
        }
      }
    }
    return k < this.toks.length;
  }

  get(k: number): Token {
    return this.toks[k];
  }
}

/**
 * The preprocessor, reading each file with a lazy lexer: inactive `#if` groups are passed over at
 * the character level, and so are function bodies — a '{' of the file at brace depth 0 right after
 * a ')' — which become one '{' token carrying the body's record (calls, call arguments, names; see
 * BodyRecorder) instead of their tokens. Directives inside bodies are obeyed and macros expanded
 * exactly as on the token path. What it cannot answer exactly throws SkipAbort; a body guess the
 * parser does not take as a function body is caught there (see compileOpenCL).
 */
export class SkippingPreprocessor extends Preprocessor implements TokenSink {
  /** Brace depth of the output, and whether its last token is a ')' a function body may follow (see track). */
  private depth = 0;
  private afterParen = false;
  /** At brace depth 0: parenthesis depth, whether the open group is an attribute's, whether the declaration named a record. */
  private parens = 0;
  private attributeGroup = false;
  private afterAttribute = false;
  private recordSeen = false;
  private body: BodyRecorder | undefined;
  /** The open body's '{' as the lexer read it (the token buffer takes it so, with no token object per body). */
  private openBits = 0;
  private openId = 0;
  private openStart = 0;
  private openEnd = 0;
  private openFile: SourceFile | undefined;
  private readonly idents = new IdentTable();
  /**
   * Bumped by every #define and #undef: a plain macro's check of its replacement list (PlainExpander) is kept per
   * version. The identifier table's macro answers are dropped per name instead (directiveLines): a global version
   * made every name be asked again after each of a header's hundreds of #defines (issue 30).
   */
  private macroVersion = 0;
  /** The tokens after the macro name expandHere expands, and the stream it expands them from (one of each, reused). */
  private readonly lazyRun = new LazyRun();
  private readonly runStream = new TokenStream(this.lazyRun);
  /** Plain macro invocations inside bodies, expanded straight into the recorder (see PlainExpander). */
  private readonly plain = new PlainExpander(this.plainHost());

  protected override processFile(file: SourceFile, depth: number, emit: boolean): void {
    if (!emit) {
      super.processFile(file, depth, emit);
      return;
    }
    this.files.push(file);
    const walk: FileWalk = { file, lx: new LazyLexer(file.text, this.idents), conds: [], depth };
    const lx = walk.lx;
    // The main file's tokens, projected from how far it has been read (with a sixteenth to spare), size the output.
    const out = this.output;
    if (depth === 0 && out.growthHint === undefined) {
      out.growthHint = () => (lx.i > 0 ? Math.ceil(((out.length * lx.n) / lx.i) * 1.0625) : 0);
      // About a name per 48 characters and 6 characters a name (the file: one per 56, of 7), so a large file's
      // identifier table is made about once; a small file's stays at the table's small start.
      this.idents.reserve(Math.ceil(lx.n / 48), Math.ceil(lx.n / 6));
    }
    const body = this.body;
    if (body) {
      // Included inside a function body: the whole file belongs to the body.
      scanBodyText(lx, body, this.bodyHost(walk), true);
      if (body.closed) throw new SkipAbort();
    }
    while (!this.aborted && lexOrAbort(lx)) {
      const bits = lx.bits;
      const kind = bits & KIND_MASK;
      const text = lx.strings[lx.id];
      if ((bits & BOL) !== 0 && kind === K_PUNCT && text === '#') this.directiveLines(walk);
      else if (kind === K_IDENT && this.isMacroId(lx.id)) this.expandHere(walk);
      else if (kind === K_PUNCT && text === '{' && this.depth === 0 && this.afterParen) this.skipBody(walk);
      else {
        this.output.pushSpelled(bits, lx.strings, lx.id, lx.orig(lx.start), lx.origEnd(lx.end), file);
        this.track(kind, text);
      }
    }
    for (const c of walk.conds) this.diags.report(Messages.unterminatedConditional, c.span);
  }

  /**
   * Follows the output at brace depth 0 to tell a function body's '{' from others: after the ')'
   * closing a parenthesised group, unless that group is an attribute's in a declaration that
   * named struct, union or enum (`struct __attribute__((packed)) {`: a record's members).
   */
  private track(kind: number, text: string): void {
    if (kind === K_PUNCT) {
      if (text === '{') this.depth++;
      else if (text === '}') {
        if (--this.depth === 0) this.recordSeen = false;
      } else if (this.depth === 0) {
        if (text === '(') {
          if (this.parens++ === 0) this.attributeGroup = this.afterAttribute;
        } else if (text === ')') {
          if (this.parens > 0) this.parens--;
        } else if (text === ';') this.recordSeen = false;
      }
    } else if (kind === K_IDENT && this.depth === 0 && (text === 'struct' || text === 'union' || text === 'enum'))
      this.recordSeen = true;
    this.afterAttribute = kind === K_IDENT && (text === '__attribute__' || text === '__attribute');
    this.afterParen =
      kind === K_PUNCT &&
      text === ')' &&
      this.depth === 0 &&
      this.parens === 0 &&
      !(this.attributeGroup && this.recordSeen);
  }

  /** Where expanded tokens go: the open body's recorder, else the output. */
  push(t: Token): void {
    const body = this.body;
    if (!body) {
      this.output.push(t);
      this.track(t.bits & KIND_MASK, t.text);
      return;
    }
    const kind = t.bits & KIND_MASK;
    body.push(kind, t.text, kind === K_IDENT ? this.idents.internString(t.text) : -1, 0, 0, t.expansion ?? t.span);
    if (body.closed) this.closeBody();
  }

  private closeBody(record: BodyRecord = this.body!.record()): void {
    const { idents } = this;
    this.output.pushBodySpelled(
      this.openBits,
      idents.names,
      this.openId,
      this.openStart,
      this.openEnd,
      this.openFile!,
      record,
    );
    this.body = undefined;
    this.openFile = undefined;
    this.afterParen = false;
    this.recordSeen = false;
  }

  /** The lexer holds a '#' at the start of a line: obeys that directive, then passes over any inactive group it opens. */
  private directiveLines(walk: FileWalk): void {
    const { lx, file, conds } = walk;
    for (;;) {
      const hash = new Token(lx.bits, '#', file, lx.orig(lx.start), lx.origEnd(lx.end), false, false);
      const line: Token[] = [];
      while (lexOrAbort(lx)) {
        if ((lx.bits & BOL) !== 0) {
          // The next line's first token: read again from its start.
          lx.i = lx.start;
          lx.flags = lx.bits & (BOL | SPACE);
          break;
        }
        line.push(new Token(lx.bits, lx.strings[lx.id], file, lx.orig(lx.start), lx.origEnd(lx.end), false, false));
      }
      const active = conds.length === 0 || conds[conds.length - 1].active;
      const word = line[0]?.text;
      this.directive(hash, line, conds, active, file, walk.depth, true);
      if (word === 'define' || word === 'undef') {
        this.macroVersion++;
        // The one name whose answer may have changed (a directive naming no identifier defines nothing).
        const named = line[1];
        if (named !== undefined && (named.bits & KIND_MASK) === K_IDENT) {
          // (Interned first: a new name may grow the table's arrays.)
          const id = this.idents.internString(named.text);
          this.idents.macroIs[id] = -1;
        }
      }
      if (conds.length === 0 || conds[conds.length - 1].active) return;
      // An inactive group: nothing in it matters until the next directive.
      const at = lx.skipToDirective();
      if (at < 0) throw new SkipAbort();
      if (!lexOrAbort(lx)) return;
    }
  }

  protected override emitPragma(t: Token): void {
    if (this.body) throw new SkipAbort();
    super.emitPragma(t);
  }

  /** The lexer holds a macro name: expands it (and what it calls) as the token path would. */
  private expandHere(walk: FileWalk): void {
    const { lx, file } = walk;
    if (this.body) {
      const m = this.macros.get(lx.strings[lx.id]);
      if (m && this.plain.expand(m, lx, file)) return;
    }
    const first = new Token(lx.bits, lx.strings[lx.id], file, lx.orig(lx.start), lx.origEnd(lx.end), false, false);
    const run = this.lazyRun.start(walk, first);
    const stream = this.runStream.restart();
    this.expandStream(stream, this, true);
    // Nothing read when preprocessing was stopped: the name is passed over all the same.
    lx.i = run.ends[Math.max(1, stream.position) - 1];
    lx.flags = 0;
  }

  /** The lexer holds a '{' that opens a function body: reads the body at the character level. */
  private skipBody(walk: FileWalk): void {
    const { lx, file } = walk;
    this.openBits = lx.bits;
    this.openId = lx.id;
    this.openStart = lx.orig(lx.start);
    this.openEnd = lx.origEnd(lx.end);
    this.openFile = file;
    // `{ }` (most bodies of a file of many small kernels: issue 30) needs no recorder: its record is the empty one.
    const close = emptyBodyEnd(lx.s, lx.i);
    if (close >= 0) {
      lx.i = close + 1;
      lx.flags = 0;
      this.closeBody(EMPTY_BODY);
      return;
    }
    const body = (this.body = new BodyRecorder(this.idents, file, lx));
    scanBodyText(lx, body, this.bodyHost(walk), false);
    if (this.body === body) this.closeBody();
  }

  private plainHost(): PlainExpansionHost {
    return {
      idents: this.idents,
      isMacro: (id) => this.isMacroId(id),
      macroVersion: () => this.macroVersion,
      budget: () => this.expansionBudget,
      spend: (count) => {
        this.expansionBudget -= count;
      },
      push: (kind, text, id, span) => this.body!.push(kind, text, id, 0, 0, span),
    };
  }

  private bodyHost(walk: FileWalk): BodyHost {
    return (walk.host ??= {
      idents: this.idents,
      file: walk.file,
      isMacro: (id) => this.isMacroId(id),
      expand: () => this.expandHere(walk),
      directive: () => this.directiveLines(walk),
      stopped: () => this.aborted,
    });
  }

  private isMacroId(id: number): boolean {
    const t = this.idents;
    let is = t.macroIs[id];
    if (is < 0) is = t.macroIs[id] = this.isMacroName(t.names[id]) ? 1 : 0;
    return is === 1;
  }
}
