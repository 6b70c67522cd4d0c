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
}

export const KINDS: readonly TokenKind[] = ['ident', 'number', 'char', 'string', 'punct', 'other', 'pragma', 'eof'];
export const KIND_INDEX = Object.fromEntries(KINDS.map((k, i) => [k, i])) as Record<TokenKind, number>;
/** A token's kind, bol and space packed in one small integer ("bits"), as token buffers store them. */
export const KIND_MASK = 15;
export const BOL = 16;
export const SPACE = 32;
/** On a '{' token: a function body the preprocessor read at the character level (its record is in the token buffer). */
export const BODY = 64;
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
  ) {
    this.bits = typeof kind === 'number' ? kind : KIND_INDEX[kind] | (bol ? BOL : 0) | (space ? SPACE : 0);
    if (hide) (this as { hide?: ReadonlySet<string> }).hide = hide;
    if (expansion) (this as { expansion?: Span }).expansion = expansion;
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
      p.kind ?? this.kind, p.text ?? this.text, this.file, this.start, this.end, p.bol ?? this.bol, p.space ?? this.space,
      'hide' in p ? p.hide : this.hide, 'expansion' in p ? p.expansion : this.expansion,
    );
  }
}

/** Where a diagnostic about this token points: the macro invocation when it came from one. */
export function tokenSpan(t: Token): Span {
  return t.expansion ?? t.span;
}
