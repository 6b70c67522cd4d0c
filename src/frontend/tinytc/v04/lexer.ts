import type { DiagnosticBag } from '../../../diagnostics/diagnostic.js';
import { Messages } from '../../../diagnostics/messages.js';
import { type SourceFile, type Span, span } from '../../../diagnostics/source.js';
import { NUMBER_TYPES } from './ast.js';

/** `flag`: a dot suffix (`.x`, `.atomic`); `def`: a `$name` definition; `string`: a quoted attribute name or value. */
export type Tok04Kind = 'word' | 'flag' | 'local' | 'global' | 'def' | 'int' | 'float' | 'string' | 'punct' | 'eof';

export interface Tok04 {
  readonly kind: Tok04Kind;
  readonly text: string;
  readonly span: Span;
}

const PUNCT = ['->', '<=', '(', ')', '{', '}', '[', ']', '<', '>', ',', ':', '=', '?', '^', '-', '+', '*', '/', '%'];
// A word that is a shape glued to its element type (`f32x5x10`, `x64x`): tinytc's lexer has no
// generic word rule, so its longest-match keywords split it into the type, `x` and the extents.
const GLUED_SHAPE = new RegExp(
  `^(${[...NUMBER_TYPES, 'bool'].sort((a, b) => b.length - a.length).join('|')})?((?:x\\d*)+)$`,
);

/** Tokens of tinytc v0.4 text, as its re2c lexer (src/parser/lexer.re) reads them. */
export function lexIr04(file: SourceFile, diags: DiagnosticBag): Tok04[] {
  const s = file.text;
  const out: Tok04[] = [];
  const push = (kind: Tok04Kind, start: number, end: number, text = s.slice(start, end)) =>
    out.push({ kind, text, span: span(file, start, end) });
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === ';') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if ((c === '%' || c === '@' || c === '$') && /[A-Za-z0-9_]/.test(s[i + 1] ?? '')) {
      if (s[i + 1] === '_') {
        let end = i + 1;
        while (end < s.length && /[A-Za-z0-9_]/.test(s[end])) end++;
        diags.report(Messages.irNameSpelling, span(file, i, end), [s.slice(i, end)]);
        i = end;
        continue;
      }
      // Digits alone, or a letter then letters, digits and '_'. A name of digits ends where the
      // digits do (`%1x5` is `%1`, `x`, `5` in an expand shape, as re2c reads it); a name that
      // starts with '_' is refused whole (as v0.3: ../lexer.ts).
      let j = i + 1;
      const digits = /[0-9]/.test(s[j]);
      const ok = digits ? /[0-9]/ : /[A-Za-z0-9_]/;
      while (j < s.length && ok.test(s[j])) j++;
      const end = j;
      push(c === '%' ? 'local' : c === '@' ? 'global' : 'def', i, end, s.slice(i + 1, end));
      i = end;
      continue;
    }
    if (c === '"') {
      const j = s.indexOf('"', i + 1);
      const nl = s.indexOf('\n', i + 1);
      if (j < 0 || (nl >= 0 && nl < j)) {
        diags.report(Messages.unterminatedString, span(file, i, i + 1));
        i = nl < 0 ? s.length : nl;
        continue;
      }
      push('string', i, j + 1, s.slice(i + 1, j));
      i = j + 1;
      continue;
    }
    if (c === '.' && /[A-Za-z_]/.test(s[i + 1] ?? '')) {
      let j = i + 1;
      while (j < s.length && /[A-Za-z0-9_]/.test(s[j])) j++;
      push('flag', i, j);
      i = j;
      continue;
    }
    if (s.startsWith('!calc', i)) {
      push('word', i, i + 5);
      i += 5;
      continue;
    }
    const num =
      /^[-+]?(?:0x(?:[0-9a-fA-F]*\.[0-9a-fA-F]+|[0-9a-fA-F]+\.?)[pP][-+]?\d+|0x[0-9a-fA-F]*\.[0-9a-fA-F]+|(?:\d*\.\d+|\d+\.)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|inf\b|nan\b|\d+)/.exec(
        s.slice(i, i + 400),
      );
    if (num && (/[0-9.]/.test(c) || /^[-+](?:[0-9.]|inf|nan)/.test(num[0]) || num[0] === 'inf' || num[0] === 'nan')) {
      const t = num[0];
      push(/^[-+]?\d+$/.test(t) ? 'int' : 'float', i, i + t.length);
      i += t.length;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < s.length && /[A-Za-z0-9_]/.test(s[j])) j++;
      const word = s.slice(i, j);
      const m = GLUED_SHAPE.exec(word);
      if (m && m[2] && word !== 'x') {
        let k = i;
        if (m[1]) {
          push('word', k, k + m[1].length);
          k += m[1].length;
        }
        for (const part of m[2].match(/x\d*/g)!) {
          push('word', k, k + 1);
          if (part.length > 1) push('int', k + 1, k + part.length);
          k += part.length;
        }
      } else push('word', i, j);
      i = j;
      continue;
    }
    const p = PUNCT.find((x) => s.startsWith(x, i));
    if (p) {
      push('punct', i, i + p.length);
      i += p.length;
      continue;
    }
    diags.report(Messages.strayCharacter, span(file, i, i + 1), [c]);
    i++;
  }
  out.push({ kind: 'eof', text: '', span: span(file, s.length) });
  return out;
}
