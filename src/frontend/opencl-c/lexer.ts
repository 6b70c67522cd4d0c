import { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type SourceFile, span } from '../../diagnostics/source.js';
import type { Token } from './token.js';

const PUNCTUATORS = [
  '%:%:', '...', '<<=', '>>=',
  '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '*=', '/=', '%=', '+=', '-=', '&=', '^=', '|=', '##',
  '<:', ':>', '<%', '%>', '%:',
  '#', '[', ']', '(', ')', '{', '}', '.', '&', '*', '+', '-', '~', '!', '/', '%', '<', '>', '^', '|', '?', ':', ';', '=', ',',
];
const DIGRAPHS: Record<string, string> = { '<:': '[', ':>': ']', '<%': '{', '%>': '}', '%:': '#', '%:%:': '##' };

const isIdStart = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$';
const isDigit = (c: string) => c >= '0' && c <= '9';
const isIdChar = (c: string) => isIdStart(c) || isDigit(c);

/**
 * Removes line splices (backslash-newline) and records, for every character of the
 * result, its offset in the original text, so tokens keep exact spans.
 */
function removeSplices(text: string): { clean: string; map: Int32Array } {
  if (!text.includes('\\')) {
    const map = new Int32Array(text.length + 1);
    for (let i = 0; i <= text.length; i++) map[i] = i;
    return { clean: text, map };
  }
  const out: string[] = [];
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      let j = i + 1;
      while (text[j] === ' ' || text[j] === '\t') j++;
      if (text[j] === '\n' || text[j] === '\r') {
        if (text[j] === '\r' && text[j + 1] === '\n') j++;
        i = j;
        continue;
      }
    }
    out.push(c);
    map.push(i);
  }
  map.push(text.length);
  return { clean: out.join(''), map: Int32Array.from(map) };
}

/** Splits a source file into preprocessing tokens (C11 6.4), comments removed. */
export function lex(file: SourceFile, diags: DiagnosticBag): Token[] {
  const { clean: s, map } = removeSplices(file.text);
  const tokens: Token[] = [];
  let i = 0;
  let bol = true;
  let space = false;
  const n = s.length;
  const push = (kind: Token['kind'], start: number, end: number, text = s.slice(start, end)) => {
    tokens.push({ kind, text, span: span(file, map[start], map[end - 1] + 1), bol, space });
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
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdChar(s[j])) j++;
      push('ident', start, j);
      i = j;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(s[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n) {
        const d = s[j];
        if ((d === '+' || d === '-') && 'eEpP'.includes(s[j - 1])) j++;
        else if (isIdChar(d) || d === '.') j++;
        else break;
      }
      push('number', start, j);
      i = j;
      continue;
    }
    let matched = '';
    for (const pn of PUNCTUATORS) {
      if (s.startsWith(pn, i)) {
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
  tokens.push({ kind: 'eof', text: '', span: span(file, file.text.length), bol: true, space: false });
  return tokens;
}
