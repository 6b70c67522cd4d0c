import type { DiagnosticBag } from '../../../diagnostics/diagnostic.js';
import { Messages } from '../../../diagnostics/messages.js';
import { type SourceFile, span } from '../../../diagnostics/source.js';
import { type IrTok, TokenScanner, gluedShapePattern } from '../token-core.js';
import { NUMBER_TYPES } from './ast.js';

/** `flag`: a dot suffix (`.x`, `.atomic`); `def`: a `$name` definition; `string`: a quoted attribute name or value. */
export type Tok04Kind = 'word' | 'flag' | 'local' | 'global' | 'def' | 'int' | 'float' | 'string' | 'punct' | 'eof';

export type Tok04 = IrTok<Tok04Kind>;

const PUNCT = ['->', '<=', '(', ')', '{', '}', '[', ']', '<', '>', ',', ':', '=', '?', '^', '-', '+', '*', '/', '%'];
// A word that is a shape glued to its element type (`f32x5x10`, `x64x`): tinytc's lexer has no
// generic word rule, so its longest-match keywords split it into the type, `x` and the extents.
const GLUED_SHAPE = gluedShapePattern([...NUMBER_TYPES, 'bool'], true);
const NUMBER =
  /^[-+]?(?:0x(?:[0-9a-fA-F]*\.[0-9a-fA-F]+|[0-9a-fA-F]+\.?)[pP][-+]?\d+|0x[0-9a-fA-F]*\.[0-9a-fA-F]+|(?:\d*\.\d+|\d+\.)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|inf\b|nan\b|\d+)/;

/** Tokens of tinytc v0.4 text, as its re2c lexer (src/parser/lexer.re) reads them. */
export function lexIr04(file: SourceFile, diags: DiagnosticBag): Tok04[] {
  const sc = new TokenScanner<Tok04Kind>(file, diags, PUNCT);
  const s = sc.s;
  while (sc.skipTrivia()) {
    const i = sc.i;
    const c = s[i];
    if ((c === '%' || c === '@' || c === '$') && /[A-Za-z0-9_]/.test(s[i + 1] ?? '')) {
      if (s[i + 1] === '_') {
        const end = sc.runEnd(i + 1);
        diags.report(Messages.irNameSpelling, span(file, i, end), [s.slice(i, end)]);
        sc.i = end;
        continue;
      }
      // Digits alone, or a letter then letters, digits and '_'. A name of digits ends where the
      // digits do (`%1x5` is `%1`, `x`, `5` in an expand shape, as re2c reads it); a name that
      // starts with '_' is refused whole (as v0.3: ../lexer.ts).
      const end = /[0-9]/.test(s[i + 1]) ? sc.runEnd(i + 1, /[0-9]/) : sc.runEnd(i + 1);
      sc.take(c === '%' ? 'local' : c === '@' ? 'global' : 'def', end, s.slice(i + 1, end));
      continue;
    }
    if (c === '"') {
      const j = s.indexOf('"', i + 1);
      const nl = s.indexOf('\n', i + 1);
      if (j < 0 || (nl >= 0 && nl < j)) {
        diags.report(Messages.unterminatedString, span(file, i, i + 1));
        sc.i = nl < 0 ? s.length : nl;
        continue;
      }
      sc.take('string', j + 1, s.slice(i + 1, j));
      continue;
    }
    if (c === '.' && /[A-Za-z_]/.test(s[i + 1] ?? '')) {
      const j = sc.runEnd(i + 1);
      sc.take('flag', j);
      continue;
    }
    if (s.startsWith('!calc', i)) {
      sc.take('word', i + 5);
      continue;
    }
    const num = NUMBER.exec(s.slice(i, i + 400));
    if (num && (/[0-9.]/.test(c) || /^[-+](?:[0-9.]|inf|nan)/.test(num[0]) || num[0] === 'inf' || num[0] === 'nan')) {
      const t = num[0];
      sc.take(/^[-+]?\d+$/.test(t) ? 'int' : 'float', i + t.length);
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const j = sc.runEnd(i + 1);
      sc.word(j, GLUED_SHAPE, (m) => m[0] !== 'x');
      continue;
    }
    sc.punctOrStray();
  }
  return sc.finish();
}
