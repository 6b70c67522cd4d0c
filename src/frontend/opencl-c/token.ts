import type { Span } from '../../diagnostics/source.js';

/** `pragma` tokens carry `#pragma OPENCL EXTENSION` state to the parser: text is `enable:<name>` or `disable:<name>`. */
export type TokenKind = 'ident' | 'number' | 'char' | 'string' | 'punct' | 'other' | 'pragma' | 'eof';

/** A preprocessing token. After preprocessing the same shape feeds the parser. */
export interface Token {
  readonly kind: TokenKind;
  /** The spelling, with line splices removed. */
  readonly text: string;
  /** Where the spelling is. */
  readonly span: Span;
  /** First token of a logical line. */
  readonly bol: boolean;
  /** Whitespace (or a comment) comes before it. */
  readonly space: boolean;
  /** Macros that may not expand this token again (the C standard's "hide set"). */
  readonly hide?: ReadonlySet<string>;
  /** The outermost macro invocation that produced this token. */
  readonly expansion?: Span;
}

/** Where a diagnostic about this token points: the macro invocation when it came from one. */
export function tokenSpan(t: Token): Span {
  return t.expansion ?? t.span;
}

export function withToken(t: Token, patch: Partial<Token>): Token {
  return { ...t, ...patch };
}
