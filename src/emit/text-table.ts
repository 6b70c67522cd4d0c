// Aligned plain-text tables. A file of very many kernels renders one table per kernel (190,000 tables, 323 MB of
// text for amdhsa), so a line is built by appending its cells and cached padding to one string (no array of padded
// cells joined and trimmed per line), and the rows every kernel shares (hidden, setup and trailing slots) are
// rendered once per set of column widths as one block of lines; a table of rows kernels share (kernels of one
// shape), once.
import { repeatedSlots } from '../abi/kernel-shape-memo.js';

/** Renders rows as an aligned plain-text table (no trailing spaces). */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = widthsOf(header, rows);
  let text = headLines(header, widths);
  for (const r of rows) text += '\n' + line(r, widths);
  return text + '\n';
}

/**
 * Each column's width: its longest cell, header included (a loop, not Math.max(...rows): a kernel may have hundreds of
 * thousands of slots).
 */
function widthsOf(header: readonly string[], rows: readonly (readonly string[])[]): number[] {
  const widths = header.map((h) => h.length);
  for (const r of rows) widen(widths, r);
  return widths;
}

function widen(widths: number[], cells: readonly string[]): void {
  for (let i = 0; i < widths.length; i++) {
    const n = (cells[i] ?? '').length;
    if (n > widths[i]) widths[i] = n;
  }
}

/** The header line and the rule under it. */
function headLines(header: readonly string[], widths: readonly number[]): string {
  return `${line(header, widths)}\n${line(
    widths.map((w) => '-'.repeat(w)),
    widths,
  )}`;
}

/** Runs of spaces by length, made once: padding is most of a table's text. */
const spaceRuns: string[] = [];
function spaces(n: number): string {
  let s = spaceRuns[n];
  if (s === undefined) spaceRuns[n] = s = ' '.repeat(n);
  return s;
}

/**
 * One row: each cell but the last padded to its column's width, two spaces between columns, no trailing whitespace
 * (what `cells.map(padEnd).join('  ').trimEnd()` makes). Trailing empty cells add nothing; only a last non-empty
 * cell ending in whitespace (or a character `trimEnd` might count as such) takes the general spelling.
 */
function line(cells: readonly string[], widths: readonly number[]): string {
  let last = cells.length - 1;
  while (last >= 0 && !cells[last]) last--;
  if (last < 0) return '';
  const end = cells[last].charCodeAt(cells[last].length - 1);
  if (end <= 0x20 || end >= 0x7f) return spelledLine(cells, widths);
  let s = '';
  for (let i = 0; i < last; i++) {
    const c = cells[i];
    s += c;
    s += spaces(Math.max(0, widths[i] - c.length) + 2);
  }
  return s + cells[last];
}

/** The line by its definition: padded cells joined by two spaces, trailing whitespace trimmed. */
function spelledLine(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
    .join('  ')
    .trimEnd();
}

/** A run of consecutive shared rows as it last appeared, its cells, their widths, and its lines per set of widths. */
interface SharedRun<T> {
  readonly rows: readonly T[];
  readonly cells: readonly (readonly string[])[];
  readonly widths: readonly number[];
  readonly lines: Map<string, string>;
}

/**
 * `renderTable` for many tables of one header whose rows come from objects, some of them shared
 * between tables (the hidden, setup and trailing slots a target makes once per lowering and gives
 * every kernel): a shared object's cells are made once, and a run of consecutive shared rows is
 * rendered once per set of column widths, as one block of lines; the header and rule lines once per
 * set of widths too. The text is renderTable's. One renderer per rendering (its caches live as long
 * as it does).
 */
export class TableRenderer<T extends object> {
  private readonly sharedCells = new WeakMap<T, readonly string[]>();
  /** Runs of shared rows by their first row (a kernel's hidden slots are the same objects, kernel after kernel). */
  private readonly runs = new WeakMap<T, SharedRun<T>[]>();
  private readonly heads = new Map<string, string>();
  private readonly headerWidths: readonly number[];
  /** Whole tables of row lists that kernels share (kernels of one shape: `repeatedSlots`), by the list. */
  private readonly tables = new WeakMap<readonly T[], string>();

  constructor(
    private readonly header: readonly string[],
    private readonly cellsOf: (row: T) => readonly string[],
    private readonly isShared: (row: T) => boolean,
  ) {
    this.headerWidths = header.map((h) => h.length);
  }

  render(rows: readonly T[]): string {
    if (!repeatedSlots(rows)) return this.made(rows);
    let text = this.tables.get(rows);
    if (text === undefined) this.tables.set(rows, (text = this.made(rows)));
    return text;
  }

  private made(rows: readonly T[]): string {
    // Each row's cells (unshared) or the run of shared rows it begins, in order.
    const parts: (readonly string[] | SharedRun<T>)[] = [];
    const widths = this.headerWidths.slice();
    for (let i = 0; i < rows.length;) {
      if (!this.isShared(rows[i])) {
        const cells = this.cellsOf(rows[i++]);
        widen(widths, cells);
        parts.push(cells);
        continue;
      }
      let j = i + 1;
      while (j < rows.length && this.isShared(rows[j])) j++;
      const run = this.run(rows, i, j);
      for (let c = 0; c < widths.length; c++) if (run.widths[c] > widths[c]) widths[c] = run.widths[c];
      parts.push(run);
      i = j;
    }
    const key = widths.join(',');
    let text = this.heads.get(key);
    if (text === undefined) this.heads.set(key, (text = headLines(this.header, widths)));
    for (const p of parts) text += '\n' + ('rows' in p ? this.runLines(p, widths, key) : line(p, widths));
    return text + '\n';
  }

  /** The shared run rows[from..to), as met before (the same objects in the same order) or made now. */
  private run(rows: readonly T[], from: number, to: number): SharedRun<T> {
    let known = this.runs.get(rows[from]);
    if (known === undefined) this.runs.set(rows[from], (known = []));
    search: for (const r of known) {
      if (r.rows.length !== to - from) continue;
      for (let i = from + 1; i < to; i++) if (r.rows[i - from] !== rows[i]) continue search;
      return r;
    }
    const runRows = rows.slice(from, to);
    const cells = runRows.map((r) => this.sharedCellsOf(r));
    const run = {
      rows: runRows,
      cells,
      widths: widthsOf(
        this.headerWidths.map(() => ''),
        cells,
      ),
      lines: new Map(),
    };
    known.push(run);
    return run;
  }

  private sharedCellsOf(row: T): readonly string[] {
    let c = this.sharedCells.get(row);
    if (c === undefined) this.sharedCells.set(row, (c = this.cellsOf(row)));
    return c;
  }

  private runLines(run: SharedRun<T>, widths: readonly number[], key: string): string {
    let text = run.lines.get(key);
    if (text === undefined) run.lines.set(key, (text = run.cells.map((c) => line(c, widths)).join('\n')));
    return text;
  }
}

/** A table cell: absent values print as nothing. */
export const cell = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
