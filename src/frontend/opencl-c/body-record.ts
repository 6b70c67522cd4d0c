import type { SourceFile, Span } from '../../diagnostics/source.js';
import { CALLS_WITH_ARGS, CallArgsReader } from './call-args.js';
import type { IdentTable } from './ident-table.js';
import { LocalDeclCollector } from './local-decls.js';
import { MAX_NESTING } from './parser-core.js';
import { K_IDENT, K_PUNCT, Token } from './token.js';
import { type BodyRecord, EMPTY_BODY } from './token-buffer.js';

export type { BodyRecord };

/**
 * Thrown when skipping function bodies at the character level meets something it does not
 * answer exactly (a lexer problem, an `#include` or extension pragma inside a body, a body left
 * open): the translation unit is then compiled again the token-by-token way.
 */
export class SkipAbort {}

/** The lexer's next token (false at the end); a lexer problem anywhere aborts skipping (SkipAbort). */
export function lexOrAbort(lx: { next(): boolean; readonly problems: readonly unknown[] }): boolean {
  const more = lx.next();
  if (lx.problems.length) throw new SkipAbort();
  return more;
}

/** Maps offsets in a text with line splices removed to the file's own. */
export interface TextOrigin {
  orig(c: number): number;
  origEnd(c: number): number;
}

/** The lists of a body that has none of a kind (frozen: shared by every such body). */
const NONE: readonly never[] = Object.freeze([]);

/**
 * Where the '}' of a body holding nothing but spaces, tabs and line ends is (`s[i]` the first character after its '{'),
 * or -1 for any other body: anything else (a comment, a directive, a token) is left to the character scan.
 */
export function emptyBodyEnd(s: string, i: number): number {
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 125) return i;
    if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return -1;
  }
  return -1;
}

/** The record of an empty body (the token buffer keeps no list entry for it, so it is defined there). */
export { EMPTY_BODY };

let bodyNumber = 0;

/**
 * Follows the tokens of one function body, as the preprocessor makes them, the way the parser's
 * `scanBody` walks them in the token buffer: brace level, member access (`.`, `->`), an identifier
 * followed by '(' as a call, and the arguments of the calls CALLS_WITH_ARGS names. Tokens come
 * either as numbers from the character scanner (source text) or as macro expansion output.
 */
export class BodyRecorder {
  level = 1;
  closed = false;
  private prevMember = false;
  /** The last token was an identifier (not a member): its id, and where it is. */
  private pendingId = -1;
  private pendingStart = 0;
  private pendingEnd = 0;
  private pendingSpan: Span | undefined;
  private readonly stampValue = ++bodyNumber;
  private readonly callStamp = -this.stampValue;
  private readonly names: string[] = [];
  private readonly candidates: { name: string; span: Span }[] = [];
  /** The arguments of the calls CALLS_WITH_ARGS names (one may be inside another's arguments); made at the first. */
  private callArgs: CallArgsReader | undefined;
  /** Open parentheses and brackets (the brace count is `level`), each bounded as clang bounds it: see `nest`. */
  private parens = 0;
  private brackets = 0;
  /** Kernel-scope `local` declarations, read as the parser's body scan reads them. */
  private readonly locals = new LocalDeclCollector();

  constructor(
    private readonly idents: IdentTable,
    /** The file the character scanner reads (a file included inside the body while it is read). */
    public file: SourceFile,
    /** Maps the scanner's clean text offsets to the file's. */
    public origin: TextOrigin,
  ) {}

  /**
   * Whether the next tokens must come with their exact spelling (call arguments or a `local`
   * declaration are being read). A field the recorder sets after each token, not a getter: the
   * character scanner reads it before every token of every body.
   */
  collecting = false;

  /** A token's object, placed where the parser's body scan places it (a macro's output at its expansion). */
  private tokenOf(kind: number, text: string, start: number, end: number, span: Span | undefined): Token {
    return span
      ? new Token(kind, text, span.file, span.start, span.end, false, false)
      : new Token(kind, text, this.file, this.origin.orig(start), this.origin.origEnd(end), false, false);
  }

  /**
   * The next token: kind, spelling (exact for identifiers, braces, parentheses, `.` and `->`, and
   * for every token while `collecting`), identifier id, and either clean offsets in the body's file
   * or the span the token buffer would give it (`span`: macro output).
   */
  push(kind: number, text: string, id: number, start: number, end: number, span: Span | undefined): void {
    const callArgs = this.callArgs;
    if (callArgs !== undefined && callArgs.active) callArgs.feed(kind, text);
    if (this.locals.see(kind, text, this.level, kind === K_IDENT && this.prevMember))
      this.locals.keep(this.tokenOf(kind, text, start, end, span));
    if (this.pendingId >= 0) {
      const pid = this.pendingId;
      this.pendingId = -1;
      if (kind === K_PUNCT && text === '(') this.call(pid);
    }
    // Nothing below adds or ends a collector or changes the local declaration being read.
    const open = this.callArgs !== undefined && this.callArgs.active;
    this.collecting = open || this.locals.active;
    if (kind === K_PUNCT) {
      if (text === '{') {
        if (++this.level > MAX_NESTING) throw new SkipAbort();
      } else if (text === '}' && --this.level === 0) {
        this.closed = true;
        if (open) throw new SkipAbort();
      } else this.nest(text);
      this.prevMember = text === '.' || text === '->';
      return;
    }
    const member = this.prevMember;
    this.prevMember = false;
    if (kind !== K_IDENT || member) return;
    const stamp = this.idents.stamp;
    if (stamp[id] !== this.stampValue && stamp[id] !== this.callStamp) {
      stamp[id] = this.stampValue;
      this.names.push(text);
    }
    this.pendingId = id;
    this.pendingStart = start;
    this.pendingEnd = end;
    this.pendingSpan = span;
  }

  /** `push` for an identifier of the body's file while no call arguments are collected (the character scanner's common case). */
  ident(id: number, start: number, end: number): void {
    this.pendingId = -1;
    const text = this.idents.names[id];
    if (this.locals.seeIdent(text, this.level, this.prevMember)) {
      this.locals.keep(this.tokenOf(K_IDENT, text, start, end, undefined));
      // `local` began a declaration (no collector is open here: see `collecting`).
      this.collecting = true;
    }
    if (this.prevMember) {
      this.prevMember = false;
      return;
    }
    const stamp = this.idents.stamp;
    if (stamp[id] !== this.stampValue && stamp[id] !== this.callStamp) {
      stamp[id] = this.stampValue;
      this.names.push(text);
    }
    this.pendingId = id;
    this.pendingStart = start;
    this.pendingEnd = end;
    this.pendingSpan = undefined;
  }

  /** `push` for a token that is no identifier, brace, parenthesis, '.' or '->', while no call arguments are collected. */
  other(): void {
    this.pendingId = -1;
    this.prevMember = false;
    this.locals.other();
  }

  /** `other` for '[' or ']' (their nesting is bounded). */
  bracket(text: '[' | ']'): void {
    this.other();
    this.nest(text);
  }

  /**
   * Counts a parenthesis or bracket. Past MAX_NESTING open ones of a kind clang stops ("bracket nesting level exceeded
   * maximum of 256", counted per kind); the token path reports it (scanBody), so reading here stops.
   */
  private nest(text: string): void {
    if (text === '(') {
      if (++this.parens > MAX_NESTING) throw new SkipAbort();
    } else if (text === ')') {
      if (this.parens > 0) this.parens--;
    } else if (text === '[') {
      if (++this.brackets > MAX_NESTING) throw new SkipAbort();
    } else if (text === ']' && this.brackets > 0) this.brackets--;
  }

  private call(id: number): void {
    const name = this.idents.names[id];
    const withArgs = CALLS_WITH_ARGS.has(name);
    const first = this.idents.stamp[id] !== this.callStamp;
    // A call met again in this body whose arguments nobody reads needs no span.
    if (!withArgs && !first) return;
    const span = this.pendingSpan ?? {
      file: this.file,
      start: this.origin.orig(this.pendingStart),
      end: this.origin.origEnd(this.pendingEnd),
    };
    if (withArgs) (this.callArgs ??= new CallArgsReader()).begin(name, span);
    if (first) {
      this.idents.stamp[id] = this.callStamp;
      this.candidates.push({ name, span });
    }
  }

  record(): BodyRecord {
    // Most bodies of a file of many small kernels call nothing: those share one empty list (issue 30).
    const localDecls = this.locals.result();
    return {
      candidates: this.candidates.length ? this.candidates : NONE,
      callArgs: this.callArgs ? this.callArgs.results() : NONE,
      names: this.names.length ? this.names : NONE,
      localDecls: localDecls.length ? localDecls : NONE,
    };
  }
}
