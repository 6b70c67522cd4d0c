import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import { type SourceFile, span } from '../../diagnostics/source.js';
import { BOL, K_CHAR, K_IDENT, K_NUMBER, K_OTHER, K_PUNCT, K_STRING, SPACE, Token } from './token.js';

/** Punctuators by first character, longest first (C11 6.4.6), digraphs mapped to their spelling. */
const PUNCT_BY_FIRST = new Map<string, string[]>();
for (const p of [
  '%:%:', '...', '<<=', '>>=', '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '*=', '/=', '%=', '+=', '-=', '&=',
  '^=', '|=', '##', '<:', ':>', '<%', '%>', '%:', '#', '[', ']', '(', ')', '{', '}', '.', '&', '*', '+', '-', '~', '!', '/', '%',
  '<', '>', '^', '|', '?', ':', ';', '=', ',',
]) {
  const list = PUNCT_BY_FIRST.get(p[0]) ?? [];
  list.push(p);
  PUNCT_BY_FIRST.set(p[0], list);
}
const DIGRAPHS: Record<string, string> = { '<:': '[', ':>': ']', '<%': '{', '%>': '}', '%:': '#', '%:%:': '##' };

// Character classes by code: 1 identifier start, 2 digit.
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_' || ch === '$') CLASS[c] = 1;
  else if (ch >= '0' && ch <= '9') CLASS[c] = 2;
}
const isIdStartCode = (c: number) => c < 128 && CLASS[c] === 1;
const isDigitCode = (c: number) => c >= 48 && c <= 57;
const isIdCode = (c: number) => c < 128 && CLASS[c] !== 0;

/**
 * Removes line splices (backslash-newline) and says where each character of the result was in
 * the original text, so tokens keep exact spans: `at[k]` is the first clean offset after the k-th
 * splice and `shift[k]` the characters removed up to there. Works splice by splice (indexOf and
 * slices), so a file with a few continuation lines costs what one without them does.
 */
function removeSplices(text: string): { clean: string; at: number[]; shift: number[] } {
  const parts: string[] = [];
  const at: number[] = [];
  const shift: number[] = [];
  let out = 0;
  let from = 0;
  for (let b = text.indexOf('\\'); b >= 0; b = text.indexOf('\\', b + 1)) {
    let j = b + 1;
    while (text[j] === ' ' || text[j] === '\t') j++;
    if (text[j] !== '\n' && text[j] !== '\r') continue;
    if (text[j] === '\r' && text[j + 1] === '\n') j++;
    out += b - from;
    parts.push(text.slice(from, b));
    from = j + 1;
    at.push(out);
    shift.push(from - out);
    b = j;
  }
  if (from === 0) return { clean: text, at, shift };
  parts.push(text.slice(from));
  return { clean: parts.join(''), at, shift };
}

/** The original offset of clean offset `c` (see removeSplices). */
function originalOffset(at: readonly number[], shift: readonly number[], c: number): number {
  let lo = 0;
  let hi = at.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at[mid] <= c) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? c : c + shift[lo - 1];
}

/** A lexer problem, kept with its offsets so a cached lexing can be reported again for another inclusion. */
export interface LexProblem {
  readonly message: Message;
  readonly start: number;
  readonly end: number;
}

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
  const { clean: s, at, shift } = removeSplices(text);
  const spliced = at.length > 0;
  const orig = (c: number) => (spliced ? originalOffset(at, shift, c) : c);
  let cap = 16 + ((s.length / 3) | 0);
  let bits = new Uint8Array(cap);
  let starts = new Int32Array(cap);
  let ends = new Int32Array(cap);
  let ids = new Int32Array(cap);
  const strings: string[] = [];
  const problems: LexProblem[] = [];
  let count = 0;
  // One string per distinct spelling keeps the token table small.
  const names = new Map<string, number>();
  // A UTF-8 byte-order mark opens the file, as clang allows.
  let i = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  let flags = BOL;
  const n = s.length;
  const push = (kind: number, start: number, end: number, spelling: number) => {
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
    bits[count] = kind | flags;
    starts[count] = orig(start);
    ends[count] = orig(end - 1) + 1;
    ids[count] = spelling;
    count++;
    flags = 0;
  };
  const intern = (start: number, end: number): number => internText(s.slice(start, end));
  const internText = (t: string): number => {
    let id = names.get(t);
    if (id === undefined) {
      names.set(t, (id = strings.length));
      strings.push(t);
    }
    return id;
  };
  while (i < n) {
    const code = s.charCodeAt(i);
    if (code === 10 || code === 13) {
      flags = BOL;
      i++;
      continue;
    }
    if (code === 32 || code === 9 || code === 12 || code === 11) {
      flags |= SPACE;
      i++;
      continue;
    }
    if (code === 47 && s.charCodeAt(i + 1) === 47) {
      while (i < n && s.charCodeAt(i) !== 10 && s.charCodeAt(i) !== 13) i++;
      flags |= SPACE;
      continue;
    }
    if (code === 47 && s.charCodeAt(i + 1) === 42) {
      const close = s.indexOf('*/', i + 2);
      if (close < 0) {
        problems.push({ message: Messages.unterminatedComment, start: orig(i), end: orig(i + 1) + 1 });
        i = n;
      } else i = close + 2;
      flags |= SPACE;
      continue;
    }
    const start = i;
    // Character and string literals, with their encoding prefixes.
    let p = i;
    if (code === 117 && s.charCodeAt(p + 1) === 56) p += 2;
    else if (code === 76 || code === 117 || code === 85) p += 1;
    const qc = s.charCodeAt(p);
    if (qc === 34 || qc === 39) {
      let j = p + 1;
      for (;;) {
        if (j >= n) break;
        const d = s.charCodeAt(j);
        if (d === qc || d === 10 || d === 13) break;
        j += d === 92 && j + 1 < n && s.charCodeAt(j + 1) !== 10 ? 2 : 1;
      }
      const kind = qc === 34 ? K_STRING : K_CHAR;
      if (s.charCodeAt(j) !== qc) {
        problems.push({ message: qc === 34 ? Messages.unterminatedString : Messages.unterminatedChar, start: orig(start), end: orig(Math.max(start, j - 1)) + 1 });
        push(kind, start, j, intern(start, j));
        i = j;
        continue;
      }
      push(kind, start, j + 1, intern(start, j + 1));
      i = j + 1;
      continue;
    }
    // `U8"…"` and `L8"…"` are not literal prefixes; their `U`/`L` stays an 'other' token, as it always
    // has here (clang reads an identifier `U8`): kept so outputs do not change with this lexer.
    if (isIdStartCode(code) && !((code === 85 || code === 76) && s.charCodeAt(i + 1) === 56 && (s.charCodeAt(i + 2) === 34 || s.charCodeAt(i + 2) === 39))) {
      let j = i + 1;
      while (j < n && isIdCode(s.charCodeAt(j))) j++;
      push(K_IDENT, start, j, intern(start, j));
      i = j;
      continue;
    }
    if (isDigitCode(code) || (code === 46 && isDigitCode(s.charCodeAt(i + 1)))) {
      let j = i + 1;
      while (j < n) {
        const d = s.charCodeAt(j);
        if ((d === 43 || d === 45) && 'eEpP'.includes(s[j - 1])) j++;
        else if (isIdCode(d) || d === 46) j++;
        else break;
      }
      push(K_NUMBER, start, j, intern(start, j));
      i = j;
      continue;
    }
    const c = s[i];
    let matched = '';
    const candidates = PUNCT_BY_FIRST.get(c);
    if (candidates) {
      for (const pn of candidates) {
        if (pn.length === 1 || s.startsWith(pn, i)) {
          matched = pn;
          break;
        }
      }
    }
    if (matched) {
      push(K_PUNCT, start, i + matched.length, internText(DIGRAPHS[matched] ?? matched));
      i += matched.length;
      continue;
    }
    // Anything else is a single "other" token; the parser complains if it reaches it.
    const cp = s.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    push(K_OTHER, start, i + len, intern(start, i + len));
    i += len;
  }
  // Exact sizes: the lexing of the main file lives as long as the preprocessor.
  return { count, bits: bits.slice(0, count), starts: starts.slice(0, count), ends: ends.slice(0, count), ids: ids.slice(0, count), strings, problems };
}

/** Splits a source file into preprocessing tokens (C11 6.4), comments removed, as token objects. */
export function lex(file: SourceFile, diags: DiagnosticBag): Token[] {
  const lx = lexTokens(file.text);
  for (const p of lx.problems) diags.report(p.message, span(file, p.start, p.end));
  const tokens: Token[] = [];
  for (let k = 0; k < lx.count; k++) tokens.push(new Token(lx.bits[k], lx.strings[lx.ids[k]], file, lx.starts[k], lx.ends[k], false, false));
  tokens.push(new Token('eof', '', file, file.text.length, file.text.length, true, false));
  return tokens;
}
