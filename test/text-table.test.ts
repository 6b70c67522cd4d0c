// TableRenderer renders many tables of one header, making a shared row's cells once and a run of shared
// rows once per set of column widths: its text must be exactly renderTable's for the same rows, whichever
// rows are shared, however the tables' widths differ, and when a shared row recurs in a later table; and
// renderTable's must be the table by its definition (cells padded to their column's longest, joined by two
// spaces, trailing whitespace trimmed), cells ending in spaces or other whitespace included.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { TableRenderer, renderTable } from '../src/emit/text-table.js';

const seed = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 1234;
const header = ['offset', 'size', 'name', 'type'];
interface Row {
  readonly cells: readonly string[];
  readonly shared: boolean;
}
// Cells of letters, spaces, tabs, a non-ASCII letter and a non-ASCII space (trimEnd removes both kinds of space).
const cellText = fc.oneof(
  fc.string({ maxLength: 9 }),
  fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\t', 'é', '\u00a0', '-'), maxLength: 6 }),
);

/** The table by its definition, as the renderer was first written. */
function definedTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

test('renderTable writes the table by its definition', () => {
  fc.assert(
    fc.property(fc.array(fc.array(cellText, { minLength: 4, maxLength: 4 }), { maxLength: 10 }), (rows) => {
      assert.equal(renderTable(header, rows), definedTable(header, rows));
    }),
    { seed, numRuns: 500 },
  );
  // Rows shorter than the header, and empty and whitespace-only last cells.
  const rows = [['1'], ['', '', 'x', ''], ['2', ' ', '', '  '], ['a\u00a0', 'b', 'c', 'd\t']];
  assert.equal(renderTable(header, rows), definedTable(header, rows));
});
const row = fc.record({ cells: fc.array(cellText, { minLength: 4, maxLength: 4 }), shared: fc.boolean() });

test('TableRenderer writes what renderTable writes, shared rows met again in later tables included', () => {
  fc.assert(
    fc.property(
      fc.array(row, { maxLength: 12 }),
      fc.array(fc.array(fc.nat(), { maxLength: 8 }), { minLength: 1, maxLength: 5 }),
      (pool: Row[], tables: number[][]) => {
        let made = 0;
        const renderer = new TableRenderer<Row>(
          header,
          (r) => {
            made++;
            return r.cells;
          },
          (r) => r.shared,
        );
        for (const picks of tables) {
          // Tables draw rows from one pool, so shared rows recur (as hidden slots do, kernel after kernel).
          const rows = pool.length ? picks.map((i) => pool[i % pool.length]) : [];
          assert.equal(
            renderer.render(rows),
            renderTable(
              header,
              rows.map((r) => r.cells),
            ),
          );
        }
        // A shared row's cells were made once, however many tables it is in.
        const used = new Set(tables.flatMap((picks) => (pool.length ? picks.map((i) => pool[i % pool.length]) : [])));
        const shared = [...used].filter((r) => r.shared).length;
        const unshared = tables
          .flatMap((picks) => (pool.length ? picks.map((i) => pool[i % pool.length]) : []))
          .filter((r) => !r.shared).length;
        assert.equal(made, shared + unshared);
      },
    ),
    { seed, numRuns: 300 },
  );
});
