import type { SourceFile, Span } from '../../diagnostics/source.js';

/** `pragma` tokens carry `#pragma OPENCL EXTENSION` state to the parser: text is `enable:<name>` or `disable:<name>`. */
export type TokenKind = 'ident' | 'number' | 'char' | 'string' | 'punct' | 'other' | 'pragma' | 'eof';

export interface TokenPatch {
  kind?: TokenKind;
  text?: string;
  bol?: boolean;
  space?: boolean;
  hide?: ReadonlySet<string>;
  expansion?: Span;
  macroLoc?: MacroLoc;
}

/** One macro invocation: the macro's name, and where its name token was (its spelling, and how that token came to be). */
export interface Invocation {
  readonly name: string;
  readonly call: Span;
  readonly callLoc?: MacroLoc;
}

/**
 * How a token came out of macro expansion, level by level (clang's macro source locations):
 * `body`: spelled in the replacement list of `inv`'s macro (the token's own span is that spelling);
 * `arg`: an argument substituted for the parameter spelled at `param` in `inv`'s replacement list,
 * `inner` saying how the argument's token came to be (absent: spelled in the file itself).
 */
export type MacroLoc =
  | { readonly kind: 'body'; readonly inv: Invocation }
  | { readonly kind: 'arg'; readonly inv: Invocation; readonly param: Span; readonly inner?: MacroLoc };

export const KINDS: readonly TokenKind[] = ['ident', 'number', 'char', 'string', 'punct', 'other', 'pragma', 'eof'];
export const KIND_INDEX = Object.fromEntries(KINDS.map((k, i) => [k, i])) as Record<TokenKind, number>;
/** A token's kind, bol and space packed in one small integer ("bits"), as token buffers store them. */
export const KIND_MASK = 15;
export const BOL = 16;
export const SPACE = 32;
/** On a '{' token: a function body the preprocessor read at the character level (its record is in the token buffer). */
export const BODY = 64;
/** With BODY: the body holds nothing, and its record (the shared empty one) is not kept in a list (see TokenBuffer). */
export const EMPTY_BODY_BIT = 128;
export const K_IDENT = 0;
export const K_NUMBER = 1;
export const K_CHAR = 2;
export const K_STRING = 3;
export const K_PUNCT = 4;
export const K_OTHER = 5;
export const K_PRAGMA = 6;
export const K_EOF = 7;

/**
 * A preprocessing token. After preprocessing the same shape feeds the parser. Most tokens come
 * straight from the lexer with no hide set and no expansion: those two fields are only stored on
 * the tokens that have them, so the millions of plain tokens of a large file stay small.
 */
export class Token {
  /** Macros that may not expand this token again (the C standard's "hide set"). */
  declare readonly hide?: ReadonlySet<string>;
  /** The outermost macro invocation that produced this token. */
  declare readonly expansion?: Span;
  /** How macro expansion made it, for clang's "expanded from macro" notes (absent on tokens of the file). */
  declare readonly macroLoc?: MacroLoc;
  /** kind, bol and space in one small integer (KIND_MASK, BOL, SPACE). */
  readonly bits: number;

  /** `kind` may be given as packed bits (then `bol` and `space` are ignored): token buffers do. */
  constructor(
    kind: TokenKind | number,
    /** The spelling, with line splices removed. */
    readonly text: string,
    readonly file: SourceFile,
    readonly start: number,
    readonly end: number,
    bol: boolean,
    space: boolean,
    hide?: ReadonlySet<string>,
    expansion?: Span,
    macroLoc?: MacroLoc,
  ) {
    this.bits = typeof kind === 'number' ? kind : KIND_INDEX[kind] | (bol ? BOL : 0) | (space ? SPACE : 0);
    if (hide) (this as { hide?: ReadonlySet<string> }).hide = hide;
    if (expansion) (this as { expansion?: Span }).expansion = expansion;
    if (macroLoc) (this as { macroLoc?: MacroLoc }).macroLoc = macroLoc;
  }

  get kind(): TokenKind {
    return KINDS[this.bits & KIND_MASK];
  }

  /** First token of a logical line. */
  get bol(): boolean {
    return (this.bits & BOL) !== 0;
  }

  /** Whitespace (or a comment) comes before it. */
  get space(): boolean {
    return (this.bits & SPACE) !== 0;
  }

  /** Where the spelling is. */
  get span(): Span {
    return { file: this.file, start: this.start, end: this.end };
  }

  with(p: TokenPatch): Token {
    return new Token(
      p.kind ?? this.kind,
      p.text ?? this.text,
      this.file,
      this.start,
      this.end,
      p.bol ?? this.bol,
      p.space ?? this.space,
      'hide' in p ? p.hide : this.hide,
      'expansion' in p ? p.expansion : this.expansion,
      'macroLoc' in p ? p.macroLoc : this.macroLoc,
    );
  }
}

/**
 * Where a diagnostic about this token points, as clang points it: a token of the file at itself; a
 * token a macro's replacement list made at the invocation (outermost first); a macro argument's
 * token at its spelling in the argument. The span carries clang's "expanded from macro" notes.
 */
export function tokenSpan(t: Token): Span {
  let loc = t.macroLoc;
  if (!loc) return t.expansion ?? t.span;
  let at: Span = t.span;
  while (loc) {
    if (loc.kind === 'arg') loc = loc.inner;
    else {
      at = loc.inv.call;
      loc = loc.inv.callLoc;
    }
  }
  const notes = expansionNotes(t);
  return notes.length
    ? { file: at.file, start: at.start, end: at.end, notes }
    : { file: at.file, start: at.start, end: at.end };
}

/** clang's default -fmacro-backtrace-limit: past it, the first and last half are shown. */
const MACRO_BACKTRACE_LIMIT = 6;

/**
 * clang's macro backtrace for a diagnostic on this one token (DiagnosticRenderer::emitMacroExpansions):
 * a note per level, outermost first, at the level's spelling; the levels up to the last macro
 * argument the token came through are left out (the caret already points into that argument).
 */
function expansionNotes(t: Token): { message: string; span?: Span }[] {
  const stack: { message: string; span?: Span }[] = [];
  let ignored = 0;
  let at: Span = t.span;
  for (let loc = t.macroLoc; loc;) {
    if (loc.kind === 'arg') {
      stack.push({ message: `expanded from macro '${loc.inv.name}'`, span: loc.param });
      ignored = stack.length;
      loc = loc.inner;
    } else {
      stack.push({ message: `expanded from macro '${loc.inv.name}'`, span: at });
      at = loc.inv.call;
      loc = loc.inv.callLoc;
    }
  }
  // Printed outermost first, as clang prints them.
  const shown = stack.slice(ignored).reverse();
  if (shown.length <= MACRO_BACKTRACE_LIMIT) return shown;
  const head = MACRO_BACKTRACE_LIMIT >> 1;
  const tail = MACRO_BACKTRACE_LIMIT - head;
  const skipped = shown.length - head - tail;
  // clang prints this one with no location.
  const note = { message: `(skipping ${skipped} expansions in backtrace; use -fmacro-backtrace-limit=0 to see all)` };
  return [...shown.slice(0, head), note, ...shown.slice(shown.length - tail)];
}
