import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type SourceFile, type Span, span } from '../../diagnostics/source.js';
import { SCALAR_TYPES } from './ast.js';

export type IrTokenKind = 'word' | 'local' | 'global' | 'int' | 'float' | 'punct' | 'eof';

export interface IrToken {
  readonly kind: IrTokenKind;
  readonly text: string;
  readonly span: Span;
}

const PUNCT = ['->', '(', ')', '{', '}', '[', ']', '<', '>', ',', ':', '=', '?'];
const SCALAR_PREFIX = new RegExp(`^(${[...SCALAR_TYPES].sort((a, b) => b.length - a.length).join('|')})?((?:x\\d*)*)$`);

/**
 * Tokens of tinytc v0.3 IR. A bare word such as `f32x5x` (a memref shape) is split into its
 * scalar type, `x` separators and extents, as tinytc's own lexer sees them.
 */
export function lexIr(file: SourceFile, diags: DiagnosticBag): IrToken[] {
  const s = file.text;
  const out: IrToken[] = [];
  let i = 0;
  const push = (kind: IrTokenKind, start: number, end: number, text = s.slice(start, end)) =>
    out.push({ kind, text, span: span(file, start, end) });
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
    const start = i;
    if (c === '%' || c === '@') {
      // A name as tinytc's lexer reads one: digits alone (`%0`, `@256`) or a letter and then
      // letters, digits and '_'. Where more name characters follow (`@256k`, `%_x`), tinytc stops
      // at the digits (or reads no name at all) and then fails to parse; here the whole run is one
      // refused token, so the diagnostic shows it and nothing cascades.
      let j = i + 1;
      const ok = /[0-9]/.test(s[j] ?? '') ? /[0-9]/ : /[A-Za-z]/.test(s[j] ?? '') ? /[A-Za-z0-9_]/ : null;
      if (ok) while (j < s.length && ok.test(s[j])) j++;
      let end = j;
      while (end < s.length && /[A-Za-z0-9_]/.test(s[end])) end++;
      if (end === i + 1) {
        diags.report(Messages.strayCharacter, span(file, i, i + 1), [c]);
        i++;
        continue;
      }
      if (end !== j) diags.report(Messages.irNameSpelling, span(file, i, end), [s.slice(i, end)]);
      push(c === '%' ? 'local' : 'global', start, end, s.slice(i + 1, end));
      i = end;
      continue;
    }
    if (s.startsWith('->', i)) {
      push('punct', i, i + 2);
      i += 2;
      continue;
    }
    if (/[0-9]/.test(c) || ((c === '-' || c === '+') && /[0-9.]/.test(s[i + 1] ?? ''))) {
      let j = i + 1;
      const hex = /^[-+]?0[xX]/.test(s.slice(i, i + 3));
      if (hex) j = i + (s[i] === '0' ? 2 : 3);
      while (
        j < s.length &&
        (hex
          ? /[0-9a-fA-F.pP]/.test(s[j]) || (/[+-]/.test(s[j]) && /[pP]/.test(s[j - 1]))
          : /[0-9.eE]/.test(s[j]) || (/[+-]/.test(s[j]) && /[eE]/.test(s[j - 1])))
      )
        j++;
      const text = s.slice(i, j);
      const isFloat = hex ? /[.pP]/.test(text) : /[.eE]/.test(text);
      push(isFloat ? 'float' : 'int', start, j);
      i = j;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < s.length && /[A-Za-z0-9_.]/.test(s[j])) j++;
      const word = s.slice(i, j);
      const m = SCALAR_PREFIX.exec(word);
      if (m && m[2]) {
        // Split `f32x5x10` into f32 x 5 x 10.
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
      } else push('word', start, j);
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
