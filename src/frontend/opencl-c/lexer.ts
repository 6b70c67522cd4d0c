import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type SourceFile, span } from '../../diagnostics/source.js';
import { type LexProblem, LazyLexer } from './lazy-lexer.js';
import { Token } from './token.js';

export type { LexProblem };

/**
 * A file's preprocessing tokens as parallel arrays (no object per token): packed kind/bol/space
 * bits, offsets in the original text, and the spelling (one shared string per distinct spelling).
 * Position-independent: the same lexing serves every inclusion of the file.
 */
export interface LexedTokens {
  /** Tokens, the end of file not counted. */
  readonly count: number;
  readonly bits: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Token k's spelling is `strings[ids[k]]`: numbers, not a pointer per token, for the garbage collector to trace. */
  readonly ids: Int32Array;
  readonly strings: readonly string[];
  readonly problems: readonly LexProblem[];
}

/** Splits a source text into preprocessing tokens (C11 6.4), comments removed. */
export function lexTokens(text: string): LexedTokens {
  const lx = new LazyLexer(text);
  let cap = 16 + ((lx.n / 3) | 0);
  let bits = new Uint8Array(cap);
  let starts = new Int32Array(cap);
  let ends = new Int32Array(cap);
  let ids = new Int32Array(cap);
  let count = 0;
  while (lx.next()) {
    if (count === cap) {
      cap *= 2;
      const b = new Uint8Array(cap);
      b.set(bits);
      bits = b;
      const st = new Int32Array(cap);
      st.set(starts);
      starts = st;
      const en = new Int32Array(cap);
      en.set(ends);
      ends = en;
      const id = new Int32Array(cap);
      id.set(ids);
      ids = id;
    }
    bits[count] = lx.bits;
    starts[count] = lx.orig(lx.start);
    ends[count] = lx.origEnd(lx.end);
    ids[count] = lx.id;
    count++;
  }
  // Exact sizes: the lexing of the main file lives as long as the preprocessor.
  return {
    count,
    bits: bits.slice(0, count),
    starts: starts.slice(0, count),
    ends: ends.slice(0, count),
    ids: ids.slice(0, count),
    strings: lx.strings,
    problems: lx.problems,
  };
}

/** Splits a source file into preprocessing tokens (C11 6.4), comments removed, as token objects. */
export function lex(file: SourceFile, diags: DiagnosticBag): Token[] {
  const lx = lexTokens(file.text);
  for (const p of lx.problems) diags.report(p.message, span(file, p.start, p.end));
  const tokens: Token[] = [];
  for (let k = 0; k < lx.count; k++)
    tokens.push(new Token(lx.bits[k], lx.strings[lx.ids[k]], file, lx.starts[k], lx.ends[k], false, false));
  tokens.push(new Token('eof', '', file, file.text.length, file.text.length, true, false));
  return tokens;
}
