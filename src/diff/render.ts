import { renderTable } from '../emit/text-table.js';
import type { Change, DiffResult } from './compare.js';

/** What one side of a diff was: the file, the target, the options it was lowered with. */
export interface DiffSide {
  readonly file: string;
  readonly target: string;
  readonly options: readonly string[];
}

/** The JSON contract of `kernarg diff --format json` (version 1; see the README). */
export function diffToJson(old: DiffSide, neu: DiffSide, r: DiffResult): string {
  const side = (s: DiffSide) => ({ file: s.file, target: s.target, options: [...s.options] });
  return (
    JSON.stringify(
      {
        kernargDiff: 1,
        old: side(old),
        new: side(neu),
        summary: { breaking: r.breaking, compatible: r.compatible, consequences: r.consequences },
        changes: r.changes.map((c) => ({
          change: c.change,
          kernel: c.kernel,
          slot: c.slot,
          param: c.param,
          role: c.role,
          property: c.property,
          old: c.old,
          new: c.new,
          class: c.class,
          reason: c.reason,
          cause: c.cause,
          ...(c.slots
            ? { slots: c.slots.map((m) => ({ slot: m.slot, property: m.property, old: m.old, new: m.new })) }
            : {}),
        })),
      },
      null,
      2,
    ) + '\n'
  );
}

const cell = (v: string | number | null) => (v === null ? '-' : String(v));

/** A moved block's slot cell: its first and last slot and how many. */
function slotCell(c: Change): string {
  if (!c.slots) return c.slot ?? '';
  const names = [...new Set(c.slots.map((m) => m.slot))];
  return names.length === 1 ? names[0] : `${names[0]} .. ${names[names.length - 1]} (${names.length})`;
}

/**
 * The table for people: what was compared, the counts, then one row per change; a consequence's
 * class in parentheses. `labels` name the two sides (`kernarg check`: the source and the binary).
 */
export function diffToTable(
  old: DiffSide,
  neu: DiffSide,
  r: DiffResult,
  labels: readonly [string, string] = ['old', 'new'],
  none = 'no changes',
): string {
  const width = Math.max(labels[0].length, labels[1].length) + 1;
  const head = (label: string, s: DiffSide) =>
    `${`${label}:`.padEnd(width)} ${s.file} --target ${s.target}${s.options.length ? ' ' + s.options.join(' ') : ''}\n`;
  const out = [head(labels[0], old), head(labels[1], neu)];
  if (!r.changes.length) return out.join('') + `${none}\n`;
  const following = r.consequences
    ? `; ${r.consequences} ${r.consequences === 1 ? 'consequence' : 'consequences'} of them, class in parentheses`
    : '';
  out.push(`${r.breaking} breaking, ${r.compatible} compatible${following}\n\n`);
  const rows = r.changes.map((c) => [
    c.cause === null ? c.class : `(${c.class})`,
    c.kernel ?? '(module)',
    slotCell(c),
    c.change,
    c.property ?? '',
    cell(c.old),
    cell(c.new),
    c.reason,
  ]);
  out.push(renderTable(['class', 'kernel', 'slot', 'change', 'property', 'old', 'new', 'reason'], rows));
  return out.join('');
}
