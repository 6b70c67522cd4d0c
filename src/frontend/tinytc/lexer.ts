import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type SourceFile, span } from '../../diagnostics/source.js';
import { SCALAR_TYPES } from './ast.js';
import { type IrTok, TokenScanner, gluedShapePattern } from './token-core.js';

export type IrTokenKind = 'word' | 'local' | 'global' | 'int' | 'float' | 'punct' | 'eof';

export type IrToken = IrTok<IrTokenKind>;

const PUNCT = ['->', '(', ')', '{', '}', '[', ']', '<', '>', ',', ':', '=', '?'];
const SCALAR_PREFIX = gluedShapePattern(SCALAR_TYPES, false);
/** A v0.3 word: instruction names carry their dotted flags (`gemm.n.t`). */
const WORD_CHAR = /[A-Za-z0-9_.]/;

/**
 * Tokens of tinytc v0.3 IR. A bare word such as `f32x5x` (a memref shape) is split into its
 * scalar type, `x` separators and extents, as tinytc's own lexer sees them.
 */
export function lexIr(file: SourceFile, diags: DiagnosticBag): IrToken[] {
  const sc = new TokenScanner<IrTokenKind>(file, diags, PUNCT);
  const s = sc.s;
  while (sc.skipTrivia()) {
    const i = sc.i;
    const c = s[i];
    if (c === '%' || c === '@') {
      // A name as tinytc's lexer reads one: digits alone (`%0`, `@256`) or a letter and then
      // letters, digits and '_'. Where more name characters follow (`@256k`, `%_x`), tinytc stops
      // at the digits (or reads no name at all) and then fails to parse; here the whole run is one
      // refused token, so the diagnostic shows it and nothing cascades.
      const ok = /[0-9]/.test(s[i + 1] ?? '') ? /[0-9]/ : /[A-Za-z]/.test(s[i + 1] ?? '') ? /[A-Za-z0-9_]/ : null;
      const j = ok ? sc.runEnd(i + 1, ok) : i + 1;
      const end = sc.runEnd(j);
      if (end === i + 1) {
        sc.stray();
        continue;
      }
      if (end !== j) diags.report(Messages.irNameSpelling, span(file, i, end), [s.slice(i, end)]);
      sc.take(c === '%' ? 'local' : 'global', end, s.slice(i + 1, end));
      continue;
    }
    if (s.startsWith('->', i)) {
      sc.take('punct', i + 2);
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
      sc.take(isFloat ? 'float' : 'int', j);
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const j = sc.runEnd(i + 1, WORD_CHAR);
      sc.word(j, SCALAR_PREFIX);
      continue;
    }
    sc.punctOrStray();
  }
  return sc.finish();
}
