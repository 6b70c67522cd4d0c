// What the v0.3 lexer (lexer.ts) and the v0.4 lexer (v04/lexer.ts) read alike: blanks and `;`
// comments, punctuation by longest match, words of letters, digits and '_', a shape glued to its
// element type, token positions and the stray-character diagnostic. Each version's file keeps the
// order of its rules and what only it reads (names, numbers, strings, flags).
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { Messages } from '../../diagnostics/messages.js';
import { type SourceFile, type Span, span } from '../../diagnostics/source.js';

/** The kinds every tinytc lexer makes; each version adds its own. */
export type CoreTokKind = 'word' | 'int' | 'punct' | 'eof';

export interface IrTok<K extends string> {
  readonly kind: K | CoreTokKind;
  readonly text: string;
  readonly span: Span;
}

/**
 * A word that is a shape glued to its element type (`f32x5x10`, `x64x`), for the element type
 * names given: tinytc's lexers split it into the type, `x` and the extents (`word`, `word`, `int`, …).
 */
export function gluedShapePattern(elementTypes: readonly string[], xRequired: boolean): RegExp {
  const types = [...elementTypes].sort((a, b) => b.length - a.length).join('|');
  return new RegExp(`^(${types})?((?:x\\d*)${xRequired ? '+' : '*'})$`);
}

const isBlank = (c: string) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || /\s/.test(c);
const WORD_CHAR = /[A-Za-z0-9_]/;

/** A cursor over one file's text that collects tokens. */
export class TokenScanner<K extends string> {
  readonly s: string;
  i = 0;
  private readonly out: IrTok<K>[] = [];

  constructor(
    readonly file: SourceFile,
    readonly diags: DiagnosticBag,
    /** Punctuation, longer spellings before their prefixes (`->` before `-`). */
    private readonly punct: readonly string[],
  ) {
    this.s = file.text;
  }

  push(kind: K | CoreTokKind, start: number, end: number, text = this.s.slice(start, end)): void {
    this.out.push({ kind, text, span: span(this.file, start, end) });
  }

  /** The token from the cursor to `end` (its text, or `text`); the cursor moves to `end`. */
  take(kind: K | CoreTokKind, end: number, text?: string): void {
    this.push(kind, this.i, end, text);
    this.i = end;
  }

  /** Skips blanks and `;` comments; false at the end of the text. */
  skipTrivia(): boolean {
    const s = this.s;
    for (;;) {
      if (this.i >= s.length) return false;
      const c = s[this.i];
      if (c === ';') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
      } else if (isBlank(c)) this.i++;
      else return true;
    }
  }

  /** Where a run of characters matching `re` that starts at `from` ends. */
  runEnd(from: number, re: RegExp = WORD_CHAR): number {
    let j = from;
    while (j < this.s.length && re.test(this.s[j])) j++;
    return j;
  }

  /**
   * The word from the cursor to `end`: one `word`, or where `glued` matches it (see
   * gluedShapePattern) and `split` agrees, its element type, each `x` and each extent as tokens of
   * their own. The cursor moves to `end`.
   */
  word(end: number, glued: RegExp, split: (m: RegExpExecArray) => boolean = (m) => !!m[2]): void {
    const m = glued.exec(this.s.slice(this.i, end));
    if (!m || !split(m)) {
      this.take('word', end);
      return;
    }
    let k = this.i;
    if (m[1]) {
      this.push('word', k, k + m[1].length);
      k += m[1].length;
    }
    for (const part of m[2].match(/x\d*/g)!) {
      this.push('word', k, k + 1);
      if (part.length > 1) this.push('int', k + 1, k + part.length);
      k += part.length;
    }
    this.i = end;
  }

  /** Punctuation at the cursor, or else a stray character reported and passed over. */
  punctOrStray(): void {
    const p = this.punct.find((x) => this.s.startsWith(x, this.i));
    if (p) {
      this.take('punct', this.i + p.length);
      return;
    }
    this.stray();
  }

  /** The character at the cursor, reported as stray and passed over. */
  stray(): void {
    this.diags.report(Messages.strayCharacter, span(this.file, this.i, this.i + 1), [this.s[this.i]]);
    this.i++;
  }

  /** The tokens, closed by `eof` at the end of the text. */
  finish(): IrTok<K>[] {
    this.out.push({ kind: 'eof', text: '', span: span(this.file, this.s.length) });
    return this.out;
  }
}
