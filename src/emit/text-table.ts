/** Renders rows as an aligned plain-text table (no trailing spaces). */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  // A loop, not Math.max(...rows): a kernel may have hundreds of thousands of slots.
  const widths = header.map((h) => h.length);
  for (const r of rows) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i], (r[i] ?? '').length);
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}
