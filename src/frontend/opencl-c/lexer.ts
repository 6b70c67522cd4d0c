import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type SourceFile, span } from '../../diagnostics/source.js';
import { Token } from './token.js';

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
 * Removes line splices (backslash-newline) and records, for every character of the
 * result, its offset in the original text, so tokens keep exact spans. Works splice by
 * splice (indexOf and slices), so a file with a few continuation lines costs what one
 * without them does.
 */
function removeSplices(text: string): { clean: string; map: Int32Array } {
  const map = new Int32Array(text.length + 1);
  const parts: string[] = [];
  let out = 0;
  let from = 0;
  for (let b = text.indexOf('\\'); b >= 0; b = text.indexOf('\\', b + 1)) {
    let j = b + 1;
    while (text[j] === ' ' || text[j] === '\t') j++;
    if (text[j] !== '\n' && text[j] !== '\r') continue;
    if (text[j] === '\r' && text[j + 1] === '\n') j++;
    for (let k = from; k < b; k++) map[out++] = k;
    parts.push(text.slice(from, b));
    from = j + 1;
    b = j;
  }
  if (from === 0) {
    for (let i = 0; i <= text.length; i++) map[i] = i;
    return { clean: text, map };
  }
  for (let k = from; k < text.length; k++) map[out++] = k;
  map[out] = text.length;
  parts.push(text.slice(from));
  return { clean: parts.join(''), map: map.subarray(0, out + 1) };
}

/** Splits a source file into preprocessing tokens (C11 6.4), comments removed. */
export function lex(file: SourceFile, diags: DiagnosticBag): Token[] {
  const { clean: s, map } = removeSplices(file.text);
  const tokens: Token[] = [];
  // One string per distinct identifier keeps the token array's footprint small.
  const names = new Map<string, string>();
  // A UTF-8 byte-order mark opens the file, as clang allows.
  let i = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  let bol = true;
  let space = false;
  const n = s.length;
  const push = (kind: Token['kind'], start: number, end: number, text = s.slice(start, end)) => {
    tokens.push(new Token(kind, text, file, map[start], map[end - 1] + 1, bol, space));
    bol = false;
    space = false;
  };
  while (i < n) {
    const c = s[i];
    if (c === '\n' || c === '\r') {
      bol = true;
      space = false;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\f' || c === '\v') {
      space = true;
      i++;
      continue;
    }
    if (c === '/' && s[i + 1] === '/') {
      while (i < n && s[i] !== '\n' && s[i] !== '\r') i++;
      space = true;
      continue;
    }
    if (c === '/' && s[i + 1] === '*') {
      const close = s.indexOf('*/', i + 2);
      if (close < 0) {
        diags.report(Messages.unterminatedComment, span(file, map[i], map[i + 1] + 1));
        i = n;
      } else i = close + 2;
      space = true;
      continue;
    }
    const start = i;
    // Character and string literals, with their encoding prefixes.
    let p = i;
    if (s[p] === 'u' && s[p + 1] === '8') p += 2;
    else if (s[p] === 'L' || s[p] === 'u' || s[p] === 'U') p += 1;
    if (s[p] === '"' || s[p] === "'") {
      const q = s[p];
      let j = p + 1;
      while (j < n && s[j] !== q && s[j] !== '\n' && s[j] !== '\r') j += s[j] === '\\' && j + 1 < n && s[j + 1] !== '\n' ? 2 : 1;
      if (s[j] !== q) {
        diags.report(q === '"' ? Messages.unterminatedString : Messages.unterminatedChar, span(file, map[start], map[Math.max(start, j - 1)] + 1));
        push(q === '"' ? 'string' : 'char', start, j);
        i = j;
        continue;
      }
      push(q === '"' ? 'string' : 'char', start, j + 1);
      i = j + 1;
      continue;
    }
    const code = s.charCodeAt(i);
    if (isIdStartCode(code) && !((c === 'u' || c === 'U' || c === 'L') && (s[i + 1] === '"' || s[i + 1] === "'" || (s[i + 1] === '8' && (s[i + 2] === '"' || s[i + 2] === "'"))))) {
      let j = i + 1;
      while (j < n && isIdCode(s.charCodeAt(j))) j++;
      const text = s.slice(start, j);
      let interned = names.get(text);
      if (interned === undefined) names.set(text, (interned = text));
      push('ident', start, j, interned);
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
      const text = s.slice(start, j);
      let interned = names.get(text);
      if (interned === undefined) names.set(text, (interned = text));
      push('number', start, j, interned);
      i = j;
      continue;
    }
    let matched = '';
    for (const pn of PUNCT_BY_FIRST.get(c) ?? []) {
      if (pn.length === 1 || s.startsWith(pn, i)) {
        matched = pn;
        break;
      }
    }
    if (matched) {
      push('punct', start, i + matched.length, DIGRAPHS[matched] ?? matched);
      i += matched.length;
      continue;
    }
    // Anything else is a single "other" token; the parser complains if it reaches it.
    const cp = s.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    push('other', start, i + len);
    i += len;
  }
  tokens.push(new Token('eof', '', file, file.text.length, file.text.length, true, false));
  return tokens;
}
