/** A file of source text, with the location it was included from (if any). */
export class SourceFile {
  private lineStarts: number[] | undefined;

  constructor(
    readonly path: string,
    readonly text: string,
    readonly includedFrom?: Span,
  ) {}

  private starts(): number[] {
    if (!this.lineStarts) {
      const starts = [0];
      const t = this.text;
      for (let i = 0; i < t.length; i++) {
        const c = t.charCodeAt(i);
        if (c === 10) starts.push(i + 1);
        else if (c === 13) {
          if (t.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        }
      }
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }

  /** 1-based line and column (column counts UTF-16 code units, as editors do for ASCII source). */
  lineCol(offset: number): { line: number; col: number } {
    const starts = this.starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] + 1 };
  }

  /** `#line` directives: from the line after `afterLine`, lines count from `line` in `path`. */
  readonly lineMarkers: { afterLine: number; line: number; path: string }[] = [];

  /** The location a user sees: line and path as `#line` directives present them. */
  presumed(offset: number): { path: string; line: number; col: number } {
    const { line, col } = this.lineCol(offset);
    // Markers are recorded in source order: the last one before `line` applies (binary search, so
    // a file with many `#line` directives costs no more per lookup than one with few).
    const markers = this.lineMarkers;
    let lo = 0;
    let hi = markers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (markers[mid].afterLine < line) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return { path: this.path, line, col };
    const m = markers[lo - 1];
    return { path: m.path, line: m.line + (line - m.afterLine - 1), col };
  }

  lineCount(): number {
    return this.starts().length;
  }

  /** The text of a 1-based line, without its line terminator. */
  lineText(line: number): string {
    const starts = this.starts();
    const start = starts[line - 1] ?? this.text.length;
    let end = starts[line] ?? this.text.length;
    while (end > start && (this.text.charCodeAt(end - 1) === 10 || this.text.charCodeAt(end - 1) === 13)) end--;
    return this.text.slice(start, end);
  }
}

/** A half-open range [start, end) of a source file. */
export interface Span {
  readonly file: SourceFile;
  readonly start: number;
  readonly end: number;
  /**
   * Notes a diagnostic at this span adds before its own (clang's "expanded from macro" backtrace of
   * a token macros made); DiagnosticBag.report puts them in the diagnostic's related information.
   */
  readonly notes?: readonly { readonly message: string; readonly span?: Span }[];
}

export function span(file: SourceFile, start: number, end: number = start): Span {
  return { file, start, end };
}

/** The smallest span covering both (when they are in the same file; else the first). */
export function joinSpans(a: Span, b: Span): Span {
  if (a.file !== b.file) return a;
  return { file: a.file, start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}

export function describeLocation(s: Span): string {
  const { path, line, col } = s.file.presumed(s.start);
  return `${path}:${line}:${col}`;
}
