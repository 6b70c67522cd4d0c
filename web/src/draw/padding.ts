// Bytes inside a by-value argument that no field covers (struct padding, the tail of a union).
import type { LayoutJson } from '../plan-json.js';

type Range = [number, number];

/** Elements of an array beyond this many are taken as covered (a long array is dense). */
const ARRAY_SCAN = 256;

function covered(l: LayoutJson, base: number, out: Range[]): void {
  switch (l.kind) {
    case 'scalar':
    case 'vector':
      out.push([base, base + l.size]);
      return;
    case 'array':
      if (l.length > ARRAY_SCAN) {
        out.push([base, base + l.size]);
        return;
      }
      for (let i = 0; i < l.length; i++) covered(l.element, base + i * l.stride, out);
      return;
    case 'struct':
    case 'union':
      for (const f of l.fields) {
        if (f.bitWidth !== undefined) {
          // A bit-field occupies the bytes its bits touch.
          const first = base + f.offset + Math.floor((f.bitOffset ?? 0) / 8);
          const last = base + f.offset + Math.ceil(((f.bitOffset ?? 0) + f.bitWidth) / 8);
          if (last > first) out.push([first, last]);
        } else covered(f.layout, base + f.offset, out);
      }
      return;
  }
}

/** Uncovered byte ranges of a layout within [0, size), relative to its start. */
export function paddingOf(layout: LayoutJson, size: number): Range[] {
  if (layout.kind !== 'struct' && layout.kind !== 'union' && layout.kind !== 'array') return [];
  const cov: Range[] = [];
  covered(layout, 0, cov);
  return gaps(cov, 0, size);
}

/** The parts of [from, to) that none of the ranges covers. */
export function gaps(ranges: readonly Range[], from: number, to: number): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  let at = from;
  for (const [s, e] of sorted) {
    if (s > at) out.push([at, Math.min(s, to)]);
    at = Math.max(at, e);
    if (at >= to) break;
  }
  if (at < to) out.push([at, to]);
  return out.filter(([s, e]) => e > s);
}
