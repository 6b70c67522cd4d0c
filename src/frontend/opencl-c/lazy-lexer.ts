import { type Message, Messages } from '../../diagnostics/messages.js';
import { IdentTable } from './ident-table.js';
import { BOL, K_CHAR, K_IDENT, K_NUMBER, K_OTHER, K_PUNCT, K_STRING, SPACE } from './token.js';

/** Punctuators by first character, longest first (C11 6.4.6), digraphs mapped to their spelling. */
const PUNCT_BY_FIRST = new Map<string, string[]>();
for (const p of [
  '%:%:',
  '...',
  '<<=',
  '>>=',
  '->',
  '++',
  '--',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '*=',
  '/=',
  '%=',
  '+=',
  '-=',
  '&=',
  '^=',
  '|=',
  '##',
  '<:',
  ':>',
  '<%',
  '%>',
  '%:',
  '#',
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  '.',
  '&',
  '*',
  '+',
  '-',
  '~',
  '!',
  '/',
  '%',
  '<',
  '>',
  '^',
  '|',
  '?',
  ':',
  ';',
  '=',
  ',',
]) {
  const list = PUNCT_BY_FIRST.get(p[0]) ?? [];
  list.push(p);
  PUNCT_BY_FIRST.set(p[0], list);
}
const DIGRAPHS: Record<string, string> = { '<:': '[', ':>': ']', '<%': '{', '%>': '}', '%:': '#', '%:%:': '##' };
/** The same by first character code, each with its spelling's index in PUNCT_SPELLINGS (the ids a lexer caches). */
const PUNCT_SPELLINGS: string[] = [];
const PUNCT_AT: ({ readonly text: string; readonly spelling: number }[] | undefined)[] = [];
for (const [first, list] of PUNCT_BY_FIRST) {
  PUNCT_AT[first.charCodeAt(0)] = list.map((text) => {
    const spelled = DIGRAPHS[text] ?? text;
    let spelling = PUNCT_SPELLINGS.indexOf(spelled);
    if (spelling < 0) spelling = PUNCT_SPELLINGS.push(spelled) - 1;
    return { text, spelling };
  });
}

/** Character classes by code: 1 identifier start, 2 digit. */
export const CHAR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_' || ch === '$') CHAR_CLASS[c] = 1;
  else if (ch >= '0' && ch <= '9') CHAR_CLASS[c] = 2;
}
const isIdStartCode = (c: number) => c < 128 && CHAR_CLASS[c] === 1;
const isDigitCode = (c: number) => c >= 48 && c <= 57;
const isExponentCode = (c: number) => c === 101 || c === 69 || c === 112 || c === 80;
export const isIdCode = (c: number) => c < 128 && CHAR_CLASS[c] !== 0;

/**
 * Removes line splices (backslash-newline) and says where each character of the result was in
 * the original text, so tokens keep exact spans: `at[k]` is the first clean offset after the k-th
 * splice and `shift[k]` the characters removed up to there. Works splice by splice (indexOf and
 * slices), so a file with a few continuation lines costs what one without them does.
 */
function removeSplices(text: string): Spliced {
  if (text.indexOf('\\') < 0) return { clean: text, at: NO_SPLICES, shift: NO_SPLICES };
  const known = recentlySpliced.get(text);
  if (known) return known;
  const spliced = spliceOut(text);
  if (spliced.at.length > 0 && text.length >= SPLICE_MEMO_MIN_CHARS && text.length <= SPLICE_MEMO_CHARS) {
    for (const old of recentlySpliced.keys()) {
      if (recentlySpliced.size < SPLICE_MEMO_ENTRIES && memoChars + text.length <= SPLICE_MEMO_CHARS) break;
      recentlySpliced.delete(old);
      memoChars -= old.length;
    }
    recentlySpliced.set(text, spliced);
    memoChars += text.length;
  }
  return spliced;
}

interface Spliced {
  readonly clean: string;
  readonly at: readonly number[];
  readonly shift: readonly number[];
}

const NO_SPLICES: readonly number[] = Object.freeze([]);

/**
 * The clean texts of the last few long files that had splices, by their text. The clean text is a
 * new string as long as the file, and a string past V8's regular object size is a fresh mapping of
 * its own: on the shared 2-core machine making one of 2.4 MB (hashcat's `inc_common.cl`, included
 * by every hashcat kernel) took 9 ms, most of it page faults, where lexing the file takes about as
 * long. A library header included by every file of a build, or a file lowered again in the same
 * process, is cleaned once. The key is the text itself (a Map compares long strings by content),
 * so a changed file is cleaned afresh.
 */
const recentlySpliced = new Map<string, Spliced>();
const SPLICE_MEMO_ENTRIES = 16;
const SPLICE_MEMO_MIN_CHARS = 1 << 16;
/** At most this many characters of file text kept (and about as many of clean text). */
const SPLICE_MEMO_CHARS = 1 << 25;
let memoChars = 0;

function spliceOut(text: string): Spliced {
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

/**
 * Where a character or string literal whose body starts at `j` stops: at its closing quote `qc`
 * when it has one, else at the end of its line (or text).
 */
export function literalStop(s: string, j: number, qc: number): number {
  const n = s.length;
  for (;;) {
    if (j >= n) return j;
    const d = s.charCodeAt(j);
    if (d === qc || d === 10 || d === 13) return j;
    j += d === 92 && j + 1 < n && s.charCodeAt(j + 1) !== 10 ? 2 : 1;
  }
}

/** A lexer problem, kept with its offsets so a cached lexing can be reported again for another inclusion. */
export interface LexProblem {
  readonly message: Message;
  readonly start: number;
  readonly end: number;
}

/**
 * A lexer that makes one preprocessing token (C11 6.4) at a time, on demand, over a file's text
 * with its line splices removed: `next()` lexes the token at `i` into the fields `bits`, `start`,
 * `end` (offsets in the clean text; `orig` maps them back) and `id` (the spelling is
 * `strings[id]`, one string per distinct spelling). Whoever drives it may move `i` and `flags`
 * to a token boundary it found itself (the preprocessor skips function bodies and inactive
 * groups at the character level and lexes only what it must).
 */
export class LazyLexer {
  /** The text, line splices removed. */
  readonly s: string;
  readonly n: number;
  private readonly at: readonly number[];
  private readonly shift: readonly number[];
  readonly spliced: boolean;
  /** The text has no carriage return: a line ends only at '\n', so a line comment's end is an `indexOf` away. */
  readonly noCR: boolean;
  /** Where the next token is looked for, and the BOL/SPACE flags it will get. */
  i: number;
  flags = BOL;
  bits = 0;
  start = 0;
  end = 0;
  id = 0;
  /** Spellings by id: the table's names (shared by every lexer of one preprocessing run that is given the table). */
  readonly strings: readonly string[];
  readonly problems: LexProblem[] = [];
  /**
   * Where `skipToDirective` last found the next '#', '"', "'", '/' and '%:' (the text's length
   * when none): still right for any later start at or before them, so each inactive group does
   * not search again past its end.
   */
  private readonly nextAt = new Int32Array(5).fill(-1);
  /** The table's id of each punctuator spelling (PUNCT_SPELLINGS), -1 until first met. */
  private readonly punctIds = new Int32Array(PUNCT_SPELLINGS.length).fill(-1);

  constructor(
    text: string,
    /** Where spellings are interned: ids are the table's. */
    readonly table: IdentTable = new IdentTable(),
  ) {
    this.strings = table.names;
    const { clean, at, shift } = removeSplices(text);
    this.s = clean;
    this.n = clean.length;
    this.at = at;
    this.shift = shift;
    this.spliced = at.length > 0;
    this.noCR = clean.indexOf('\r') < 0;
    // A UTF-8 byte-order mark opens the file, as clang allows.
    this.i = clean.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  /** The original offset of clean offset `c`. */
  orig(c: number): number {
    if (!this.spliced) return c;
    const at = this.at;
    let lo = 0;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at[mid] <= c) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? c : c + this.shift[lo - 1];
  }

  /** The original end offset of a token ending at clean offset `end`. */
  origEnd(end: number): number {
    return this.spliced ? this.orig(end - 1) + 1 : end;
  }

  /** The id of the spelling `s[start..end)`, found without making a string once it is known. */
  private intern(start: number, end: number): number {
    return this.table.intern(this.s, start, end, IdentTable.hash(this.s, start, end));
  }

  private token(kind: number, start: number, end: number, id: number): true {
    this.bits = kind | this.flags;
    this.flags = 0;
    this.start = start;
    this.end = end;
    this.id = id;
    this.i = end;
    return true;
  }

  private problem(message: Message, start: number, end: number): void {
    this.problems.push({ message, start: this.orig(start), end: this.orig(end) + 1 });
  }

  /** Lexes the next token (comments and white space passed over); false at the end of the text. */
  next(): boolean {
    const s = this.s;
    const n = this.n;
    let i = this.i;
    while (i < n) {
      const code = s.charCodeAt(i);
      if (code === 10 || code === 13) {
        this.flags = BOL;
        i++;
        continue;
      }
      if (code === 32 || code === 9 || code === 12 || code === 11) {
        this.flags |= SPACE;
        i++;
        continue;
      }
      if (code === 47 && s.charCodeAt(i + 1) === 47) {
        i = lineEnd(s, i + 2, n, this.noCR);
        this.flags |= SPACE;
        continue;
      }
      if (code === 47 && s.charCodeAt(i + 1) === 42) {
        const close = s.indexOf('*/', i + 2);
        if (close < 0) {
          this.problem(Messages.unterminatedComment, i, i + 1);
          i = n;
        } else i = close + 2;
        this.flags |= SPACE;
        continue;
      }
      const start = i;
      // Character and string literals, with their encoding prefixes.
      let p = i;
      if (code === 117 && s.charCodeAt(p + 1) === 56) p += 2;
      else if (code === 76 || code === 117 || code === 85) p += 1;
      const qc = s.charCodeAt(p);
      if (qc === 34 || qc === 39) {
        const j = literalStop(s, p + 1, qc);
        const kind = qc === 34 ? K_STRING : K_CHAR;
        if (s.charCodeAt(j) !== qc) {
          this.problem(
            qc === 34 ? Messages.unterminatedString : Messages.unterminatedChar,
            start,
            Math.max(start, j - 1),
          );
          return this.token(kind, start, j, this.intern(start, j));
        }
        return this.token(kind, start, j + 1, this.intern(start, j + 1));
      }
      // `U8"…"` and `L8"…"` are not literal prefixes; their `U`/`L` stays an 'other' token, as it always
      // has here (clang reads an identifier `U8`): kept so outputs do not change with this lexer.
      if (
        isIdStartCode(code) &&
        !(
          (code === 85 || code === 76) &&
          s.charCodeAt(i + 1) === 56 &&
          (s.charCodeAt(i + 2) === 34 || s.charCodeAt(i + 2) === 39)
        )
      ) {
        // Hashed while read (as IdentTable.hash would), so interning does not read it again.
        let h = code;
        let j = i + 1;
        while (j < n) {
          const d = s.charCodeAt(j);
          if (d >= 128 || CHAR_CLASS[d] === 0) break;
          h = (Math.imul(h, 31) + d) | 0;
          j++;
        }
        return this.token(K_IDENT, start, j, this.table.intern(s, start, j, h));
      }
      if (isDigitCode(code) || (code === 46 && isDigitCode(s.charCodeAt(i + 1)))) {
        let j = i + 1;
        while (j < n) {
          const d = s.charCodeAt(j);
          if ((d === 43 || d === 45) && isExponentCode(s.charCodeAt(j - 1))) j++;
          else if (isIdCode(d) || d === 46) j++;
          else break;
        }
        return this.token(K_NUMBER, start, j, this.intern(start, j));
      }
      const candidates = code < 128 ? PUNCT_AT[code] : undefined;
      if (candidates) {
        for (const pn of candidates) {
          const len = pn.text.length;
          if (len === 1 || s.startsWith(pn.text, i)) {
            let id = this.punctIds[pn.spelling];
            if (id < 0) id = this.punctIds[pn.spelling] = this.table.internString(PUNCT_SPELLINGS[pn.spelling]);
            return this.token(K_PUNCT, start, i + len, id);
          }
        }
      }
      // Anything else is a single "other" token; the parser complains if it reaches it.
      const cp = s.codePointAt(i)!;
      const len = cp > 0xffff ? 2 : 1;
      return this.token(K_OTHER, start, i + len, this.intern(start, i + len));
    }
    this.i = i;
    return false;
  }

  /**
   * Passes over the text of an inactive group, to the next line whose first token is '#'
   * (comments and literals honoured, so a '#' inside one is not taken): leaves `i` there (or at
   * the end) and returns it; -1 when a literal or comment there is unterminated (a lexer problem
   * the caller must report the token-by-token way). Jumps from one character that matters ('#',
   * '%:', quotes, '/') to the next with `indexOf`, so plain text costs what a memory scan does.
   */
  skipToDirective(): number {
    const s = this.s;
    const n = this.n;
    let i = this.i;
    // Whether a token may still open a line at `i`: nothing but white space and comments since the last line break.
    let bolAtI = (this.flags & BOL) !== 0;
    // (Helpers at module level, not closures: this runs once per inactive group.)
    const next = this.nextAt;
    let hash = next[0];
    let quote = next[1];
    let apos = next[2];
    let slash = next[3];
    let digraph = next[4];
    for (;;) {
      if (hash < i) hash = find(s, '#', i, n);
      if (quote < i) quote = find(s, '"', i, n);
      if (apos < i) apos = find(s, "'", i, n);
      if (slash < i) slash = find(s, '/', i, n);
      if (digraph < i) digraph = find(s, '%:', i, n);
      const k = Math.min(hash, quote, apos, slash, digraph);
      if (k >= n) break;
      const c = s.charCodeAt(k);
      if (c === 35 || c === 37) {
        const pasting = c === 37 && s.startsWith('%:%:', k);
        if (!pasting && bolAt(s, k, i, bolAtI)) {
          next[0] = hash;
          next[1] = quote;
          next[2] = apos;
          next[3] = slash;
          next[4] = digraph;
          this.i = k;
          this.flags = BOL;
          return k;
        }
        i = k + (pasting ? 4 : c === 37 ? 2 : 1);
        bolAtI = false;
        continue;
      }
      if (c === 34 || c === 39) {
        const j = literalStop(s, k + 1, c);
        if (s.charCodeAt(j) !== c) return -1;
        i = j + 1;
        bolAtI = false;
        continue;
      }
      const d = s.charCodeAt(k + 1);
      if (d === 47) {
        const bol = bolAt(s, k, i, bolAtI);
        i = lineEnd(s, k + 2, n, this.noCR);
        bolAtI = bol;
      } else if (d === 42) {
        const close = s.indexOf('*/', k + 2);
        if (close < 0) return -1;
        // A comment leaves the line's start as it was, line breaks inside it included.
        const bol = bolAt(s, k, i, bolAtI);
        i = close + 2;
        bolAtI = bol;
      } else {
        i = k + 1;
        bolAtI = false;
      }
    }
    this.i = n;
    return n;
  }
}

/**
 * Where the line holding offset `i` ends (its '\n' or '\r', or `n`): with `noCR` (no '\r' in the text) found by `indexOf`,
 * so a line comment costs a memory scan rather than a loop turn per character.
 */
export function lineEnd(s: string, i: number, n: number, noCR: boolean): number {
  if (noCR) {
    const k = s.indexOf('\n', i);
    return k < 0 ? n : k;
  }
  while (i < n && s.charCodeAt(i) !== 10 && s.charCodeAt(i) !== 13) i++;
  return i;
}

/** Where `what` next occurs in `s` from `from`, or `n` (the end) when it does not. */
function find(s: string, what: string, from: number, n: number): number {
  const k = s.indexOf(what, from);
  return k < 0 ? n : k;
}

/**
 * Whether offset `k` is first on its line, when nothing between `i` and `k` matters but white space and
 * line breaks; `bolAtI`: whether a token may still open a line at `i`.
 */
function bolAt(s: string, k: number, i: number, bolAtI: boolean): boolean {
  for (let b = k - 1; b >= i; b--) {
    const d = s.charCodeAt(b);
    if (d === 10 || d === 13) return true;
    if (d !== 32 && d !== 9 && d !== 12 && d !== 11) return false;
  }
  return bolAtI;
}
