import { renderTable } from '../emit/text-table.js';
import type { DiffResult } from './compare.js';

/** What one side of a diff was: the file, the target, the options it was lowered with. */
export interface DiffSide {
  readonly file: string;
  readonly target: string;
  readonly options: readonly string[];
}

/** The JSON contract of `kernarg diff --format json` (version 1; see the README). */
export function diffToJson(old: DiffSide, neu: DiffSide, r: DiffResult): string {
  const side = (s: DiffSide) => ({ file: s.file, target: s.target, options: [...s.options] });
  return JSON.stringify({
    kernargDiff: 1,
    old: side(old),
    new: side(neu),
    summary: { breaking: r.breaking, compatible: r.compatible },
    changes: r.changes.map((c) => ({
      change: c.change, kernel: c.kernel, slot: c.slot, param: c.param, role: c.role, property: c.property,
      old: c.old, new: c.new, class: c.class, reason: c.reason,
    })),
  }, null, 2) + '\n';
}

const cell = (v: string | number | null) => (v === null ? '-' : String(v));

/** The table for people: what was compared, the counts, then one row per change. */
export function diffToTable(old: DiffSide, neu: DiffSide, r: DiffResult): string {
  const head = (label: string, s: DiffSide) => `${label} ${s.file} --target ${s.target}${s.options.length ? ' ' + s.options.join(' ') : ''}\n`;
  const out = [head('old:', old), head('new:', neu)];
  if (!r.changes.length) return out.join('') + 'no changes\n';
  out.push(`${r.breaking} breaking, ${r.compatible} compatible\n\n`);
  const rows = r.changes.map((c) => [
    c.class, c.kernel ?? '(module)', c.slot ?? '', c.change, c.property ?? '', cell(c.old), cell(c.new), c.reason,
  ]);
  out.push(renderTable(['class', 'kernel', 'slot', 'change', 'property', 'old', 'new', 'reason'], rows));
  return out.join('');
}
