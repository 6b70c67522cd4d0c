import type { SourceFile } from '../../diagnostics/source.js';
import { lexOrAbort, SkipAbort, type BodyRecorder } from './body-record.js';
import type { IdentTable } from './ident-table.js';
import { CHAR_CLASS, type LazyLexer, isIdCode, lineEnd, literalStop } from './lazy-lexer.js';
import { BOL, K_IDENT, K_PUNCT, KIND_MASK, SPACE } from './token.js';

/** What the body scanner asks of the preprocessor. */
export interface BodyHost {
  readonly idents: IdentTable;
  /** The file the lexer reads. */
  readonly file: SourceFile;
  /** Whether identifier `id` names a macro now (the answer kept in `idents.macroIs`: 0 there is "no", asked no more). */
  isMacro(id: number): boolean;
  /** The lexer holds a macro name: expands it into the recorder; leaves the lexer after what it read. */
  expand(): void;
  /** The lexer holds a '#' opening a line: obeys the directive (and passes over an inactive group it opens). */
  directive(): void;
  /** Preprocessing was stopped (a runaway expansion or include): the token path's output would end here. */
  stopped(): boolean;
}

// Single-character punctuators that start no longer one (the rest are read one character at a time,
// see below): 2 for those the recorder looks at, 3 for the brackets it counts, 1 for the others.
const SIMPLE = new Uint8Array(128);
for (const ch of ',?~') SIMPLE[ch.charCodeAt(0)] = 1;
SIMPLE[91] = SIMPLE[93] = 3;
// ';' ends a statement: the local-declaration reader (local-decls.ts) looks at it.
for (const ch of '{}();') SIMPLE[ch.charCodeAt(0)] = 2;
// Characters that may start a longer punctuator the body scan does not care to tell apart ('<:' etc. excepted).
const OTHER_PUNCT = new Uint8Array(128);
for (const ch of '+*/&|^!=>#') OTHER_PUNCT[ch.charCodeAt(0)] = 1;

/**
 * Reads a function body, just after its '{', at the character level: white space, comments and
 * literals are passed over, identifiers interned without a string per occurrence, and only what
 * the body's record depends on is told to the recorder — identifiers, braces, parentheses, `.`
 * and `->`, each other token as "something else". A punctuator such as `+=` may be told as two
 * tokens: the recorder treats every such token alike. Directive lines are obeyed and macro names
 * expanded through the host, as on the token path; while call arguments are being collected, and
 * for anything unusual (literal prefixes, digraphs, other characters), the exact lexer reads the
 * token. Returns with the lexer just after the body's '}' (or after the macro expansion that
 * closed it); with `toEnd` (a file included inside the body), at the end of the text.
 */
export function scanBodyText(lx: LazyLexer, rec: BodyRecorder, host: BodyHost, toEnd: boolean): void {
  const s = lx.s;
  const n = lx.n;
  const noCR = lx.noCR;
  const idents = host.idents;
  const outer = rec.file;
  const outerOrigin = rec.origin;
  rec.file = host.file;
  rec.origin = lx;
  let i = lx.i;
  let bol = (lx.flags & BOL) !== 0;
  let space = (lx.flags & SPACE) !== 0;
  if (host.stopped()) throw new SkipAbort();
  while (!rec.closed) {
    if (i >= n) {
      if (toEnd) break;
      throw new SkipAbort();
    }
    const c = s.charCodeAt(i);
    if (c === 10 || c === 13) {
      bol = true;
      i++;
      // The next line's indentation, read here rather than one loop turn per character.
      if (i < n && s.charCodeAt(i) === 32) {
        space = true;
        i++;
        while (i < n && s.charCodeAt(i) === 32) i++;
      }
      continue;
    }
    if (c === 32 || c === 9 || c === 12 || c === 11) {
      space = true;
      i++;
      while (i < n && s.charCodeAt(i) === 32) i++;
      continue;
    }
    if (c === 47) {
      const d = s.charCodeAt(i + 1);
      if (d === 47) {
        i = lineEnd(s, i + 2, n, noCR);
        space = true;
        continue;
      }
      if (d === 42) {
        const close = s.indexOf('*/', i + 2);
        if (close < 0) throw new SkipAbort();
        i = close + 2;
        space = true;
        continue;
      }
    }
    const flags = (bol ? BOL : 0) | (space ? SPACE : 0);
    if (bol && (c === 35 || c === 37)) {
      if (c === 35) {
        lx.i = i;
        lx.flags = flags;
        lexOrAbort(lx);
        host.directive();
        if (host.stopped()) throw new SkipAbort();
        i = lx.i;
        bol = (lx.flags & BOL) !== 0;
        space = (lx.flags & SPACE) !== 0;
        continue;
      }
      // `%:` may open a directive: rare enough to leave to the token path.
      if (s.charCodeAt(i + 1) === 58) throw new SkipAbort();
    }
    bol = false;
    space = false;
    const cls = c < 128 ? CHAR_CLASS[c] : 0;
    // `L'…'`, `u8"…"` and the like (and `U8"`, `L8"`): the exact lexer reads them.
    const prefixed =
      (c === 76 || c === 117 || c === 85) &&
      isQuote(s.charCodeAt(i + 1) === 56 ? s.charCodeAt(i + 2) : s.charCodeAt(i + 1));
    const collecting = rec.collecting;
    if (cls === 1 && !prefixed && !collecting) {
      let h = c;
      let j = i + 1;
      while (j < n) {
        const d = s.charCodeAt(j);
        if (d >= 128 || CHAR_CLASS[d] === 0) break;
        h = (Math.imul(h, 31) + d) | 0;
        j++;
      }
      const id = idents.intern(s, i, j, h);
      // A name known to be no macro (the table's answer, kept until a directive names it) costs no call.
      if (idents.macroIs[id] !== 0 && host.isMacro(id)) {
        lx.i = i;
        lx.flags = flags;
        lexOrAbort(lx);
        host.expand();
        if (host.stopped()) throw new SkipAbort();
        i = lx.i;
        continue;
      }
      rec.ident(id, i, j);
      i = j;
      continue;
    }
    if (!collecting && !prefixed) {
      if (cls === 2 || (c === 46 && isDigit(s.charCodeAt(i + 1)))) {
        let j = i + 1;
        while (j < n) {
          const d = s.charCodeAt(j);
          if ((d === 43 || d === 45) && isExponent(s.charCodeAt(j - 1))) j++;
          else if (isIdCode(d) || d === 46) j++;
          else break;
        }
        rec.other();
        i = j;
        continue;
      }
      if (c === 34 || c === 39) {
        const j = literalStop(s, i + 1, c);
        if (s.charCodeAt(j) !== c) throw new SkipAbort();
        rec.other();
        i = j + 1;
        continue;
      }
      if (c < 128 && SIMPLE[c] !== 0) {
        if (SIMPLE[c] === 2) rec.push(K_PUNCT, s[i], -1, i, i + 1, undefined);
        else if (SIMPLE[c] === 3) rec.bracket(c === 91 ? '[' : ']');
        else rec.other();
        i++;
        continue;
      }
      if (c === 46) {
        const dots = s.charCodeAt(i + 1) === 46 && s.charCodeAt(i + 2) === 46;
        rec.push(K_PUNCT, dots ? '...' : '.', -1, i, i + (dots ? 3 : 1), undefined);
        i += dots ? 3 : 1;
        continue;
      }
      if (c === 45) {
        const d = s.charCodeAt(i + 1);
        const len = d === 62 || d === 45 || d === 61 ? 2 : 1;
        if (d === 62) rec.push(K_PUNCT, '->', -1, i, i + len, undefined);
        else rec.other();
        i += len;
        continue;
      }
      if (c < 128 && OTHER_PUNCT[c] === 1) {
        rec.other();
        i++;
        continue;
      }
    }
    // The exact lexer: call arguments being collected, literal prefixes, digraphs, anything else.
    lx.i = i;
    lx.flags = flags;
    lexOrAbort(lx);
    const kind = lx.bits & KIND_MASK;
    const text = lx.strings[lx.id];
    if (kind === K_IDENT) {
      // The lexer interns into the same table (see SkippingPreprocessor).
      const id = lx.id;
      if (host.isMacro(id)) {
        host.expand();
        if (host.stopped()) throw new SkipAbort();
        i = lx.i;
        continue;
      }
      rec.push(K_IDENT, text, id, lx.start, lx.end, undefined);
    } else rec.push(kind, text, -1, lx.start, lx.end, undefined);
    i = lx.i;
  }
  lx.i = i;
  lx.flags = 0;
  rec.file = outer;
  rec.origin = outerOrigin;
}

const isQuote = (c: number) => c === 34 || c === 39;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isExponent = (c: number) => c === 101 || c === 69 || c === 112 || c === 80;
