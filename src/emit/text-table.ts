/** Renders rows as an aligned plain-text table (no trailing spaces). */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = widthsOf(header, rows);
  return [line(header, widths), line(rules(widths), widths), ...rows.map((r) => line(r, widths))].join('\n') + '\n';
}

/**
 * Each column's width: its longest cell, header included (a loop, not Math.max(...rows): a kernel may have hundreds of
 * thousands of slots).
 */
function widthsOf(header: readonly string[], rows: readonly (readonly string[])[]): number[] {
  const widths = header.map((h) => h.length);
  for (const r of rows) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i], (r[i] ?? '').length);
  return widths;
}

const rules = (widths: readonly number[]) => widths.map((w) => '-'.repeat(w));

function line(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
    .join('  ')
    .trimEnd();
}

/**
 * `renderTable` for many tables of one header whose rows come from objects, some of them shared
 * between tables (the hidden, setup and trailing slots a target makes once per lowering and gives
 * every kernel): a shared object's cells are made once, and its line once per set of column
 * widths; the header and rule lines once per set of widths too. The text is renderTable's. One
 * renderer per rendering (its caches live as long as it does).
 */
export class TableRenderer<T extends object> {
  private readonly sharedCells = new WeakMap<T, readonly string[]>();
  private readonly sharedLines = new WeakMap<T, Map<string, string>>();
  private readonly heads = new Map<string, string>();

  constructor(
    private readonly header: readonly string[],
    private readonly cellsOf: (row: T) => readonly string[],
    private readonly isShared: (row: T) => boolean,
  ) {}

  render(rows: readonly T[]): string {
    const cells = rows.map((r) => this.cells(r));
    const widths = widthsOf(this.header, cells);
    const key = widths.join(',');
    let head = this.heads.get(key);
    if (head === undefined)
      this.heads.set(key, (head = `${line(this.header, widths)}\n${line(rules(widths), widths)}`));
    const out: string[] = [head];
    for (let i = 0; i < rows.length; i++)
      out.push(this.isShared(rows[i]) ? this.sharedLine(rows[i], cells[i], widths, key) : line(cells[i], widths));
    return out.join('\n') + '\n';
  }

  private cells(row: T): readonly string[] {
    if (!this.isShared(row)) return this.cellsOf(row);
    let c = this.sharedCells.get(row);
    if (c === undefined) this.sharedCells.set(row, (c = this.cellsOf(row)));
    return c;
  }

  private sharedLine(row: T, cells: readonly string[], widths: readonly number[], key: string): string {
    let byWidths = this.sharedLines.get(row);
    if (byWidths === undefined) this.sharedLines.set(row, (byWidths = new Map()));
    let l = byWidths.get(key);
    if (l === undefined) byWidths.set(key, (l = line(cells, widths)));
    return l;
  }
}

/** A table cell: absent values print as nothing. */
export const cell = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
