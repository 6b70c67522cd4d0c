// Draws a Drawing as one SVG: lanes stacked top to bottom, each slot a focusable group that
// carries its plan data (data-* attributes) and its source argument (data-key).
import { type Tip, fieldsOf } from './fields.js';
import type { BindingsLane, Box, BytesLane, Drawing, Lane, ListLane } from './parts.js';
import { gaps, paddingOf } from './padding.js';
import { fit, svg } from './svg.js';

export const WIDTH = 424;
const PAD = 8;
const TITLE_H = 24;
const LEFT = 48; // row labels of byte grids
const PER_ROW = 16; // bytes per grid row
const CELL = (WIDTH - LEFT - PAD) / PER_ROW;
const ROW_H = 40;
const HEAD_H = 16;
const LIST_H = 30;
const BIND_W = 122;
const BIND_H = 46;
const GAP = 12;
const STRIP_H = 22; // a collapsed run of unused rows
const COLLAPSE_ROWS = 3; // runs at least this long collapse

let patternIds = 0;

function slotClass(b: Box): string {
  const colour = b.key === null ? 'neutral' : `k${b.key % 10}`;
  return `slot ${colour} mark-${b.mark}`;
}

function describe(b: Box, where: string): string {
  const mark = b.mark === 'arg' ? '' : ` (${b.mark})`;
  return `${b.name}${b.type ? `: ${b.type}` : ''}${mark}, ${where}${b.detail ? `. ${b.detail}` : ''}`;
}

/** The page's tooltip (web/src/tooltip.ts) reads it; a native <title> would show a second one. */
const tipAttr = (tip: Tip): string => JSON.stringify(tip);

/** A slot's tooltip: its type, where it lives, its size and alignment as the plan gives them. */
function slotTip(b: Box, rows: readonly (readonly [string, string])[]): Tip {
  const head = b.mark === 'arg' ? b.name : `${b.name} (${b.mark})`;
  const out: [string, string][] = [
    ['type', b.type || '—'],
    ...rows.map(([k, v]): [string, string] => [k, v]),
    ...(b.tipRows ?? []).map(([k, v]): [string, string] => [k, v]),
  ];
  out.push(['align', b.align === undefined ? 'not stated by this target' : String(b.align)]);
  if (b.layout?.kind === 'union') out.push(['union of', b.layout.fields.map((f) => f.name ?? '(unnamed)').join(', ')]);
  if (b.detail) out.push(['note', b.detail]);
  return { title: head, rows: out };
}

function slotGroup(b: Box, label: string, tip: Tip): SVGGElement {
  const data: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(b.data)) data[`data-${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`] = v;
  return svg('g', {
    class: slotClass(b),
    'data-key': b.key ?? undefined,
    'data-mark': b.mark,
    tabindex: -1,
    role: 'button',
    'aria-label': label,
    'data-tip': tipAttr(tip),
    ...data,
  });
}

const FIELD_FONT = 9.5;

/**
 * A struct's fields inside its box: a divider where each starts and its name along the bottom of its
 * bytes, each field a hover target of its own. Returns whether any was drawn (the slot's label then
 * takes the top line only).
 */
function drawFields(g: SVGGElement, b: Box, rowY: (r: number) => number, shown: (row: number) => boolean): boolean {
  const fields = b.layout ? fieldsOf(b.layout) : [];
  if (fields.length === 0) return false;
  for (const f of fields) {
    const from = b.offset + f.offset;
    const ps = pieces(from, from + f.size).filter((p) => shown(p.row));
    if (ps.length === 0) continue;
    const rows: [string, string][] = [
      ['type', f.type],
      ['offset', `${from} (${f.offset} in ${b.name})`],
      ['size', `${f.size} bytes`],
      ['align', String(f.align)],
    ];
    if (f.bits) rows.push(['bits', f.bits]);
    const fg = svg('g', {
      class: 'field',
      'data-field': f.name,
      'data-offset': from,
      'data-size': f.size,
      'data-align': f.align,
      'data-type': f.type,
      'data-tip': tipAttr({ title: `${b.name}.${f.name}`, rows }),
    });
    for (const [i, p] of ps.entries()) {
      const y = rowY(p.row);
      fg.append(svg('rect', { x: p.x + 1, y: y + 18, width: p.w - 2, height: ROW_H - 20, class: 'field-box' }));
      // The divider where the field starts (not at the box's own edge).
      if (i === 0 && from > b.offset && from % PER_ROW !== 0)
        fg.append(svg('line', { x1: p.x, y1: y + 18, x2: p.x, y2: y + ROW_H - 3, class: 'field-line' }));
    }
    const wide = ps.reduce((a, p) => (p.w > a.w ? p : a), ps[0]);
    const text = fit(f.name, wide.w - 6, FIELD_FONT);
    if (text) fg.append(svg('text', { x: wide.x + 3, y: rowY(wide.row) + ROW_H - 7, class: 'field-name' }, text));
    g.append(fg);
  }
  return true;
}

/** Name and type inside a rectangle, cut to fit; a mark badge for ABI-added slots. */
function labelIn(g: SVGGElement, b: Box, x: number, y: number, w: number, h: number, topOnly = false): void {
  const inner = w - 8;
  if (inner < 14) return;
  if (topOnly) {
    // Fields take the bottom line: name and type share the top one.
    g.append(
      svg(
        'text',
        { x: x + 4, y: y + 14, class: 'slot-name' },
        fit(`${b.short ?? b.name}${b.type ? `: ${b.type}` : ''}`, inner, 12),
      ),
    );
    return;
  }
  const twoLines = h >= 34;
  const nameY = twoLines ? y + h / 2 - 3 : y + h / 2 + 4;
  g.append(svg('text', { x: x + 4, y: nameY, class: 'slot-name' }, fit(b.short ?? b.name, inner, 12)));
  if (twoLines) {
    const type = fit([b.type, b.mark === 'arg' ? '' : b.mark].filter(Boolean).join(' '), inner, 10.5);
    if (type) g.append(svg('text', { x: x + 4, y: y + h / 2 + 12, class: 'slot-type' }, type));
  }
}

function hatchDefs(root: SVGSVGElement): string {
  const id = `hatch-${++patternIds}`;
  root.append(
    svg(
      'defs',
      {},
      svg(
        'pattern',
        { id, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        svg('rect', { width: 6, height: 6, class: 'hatch-bg' }),
        svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'hatch-line' }),
      ),
    ),
  );
  return `url(#${id})`;
}

/** Row pieces of a byte range in a 16-per-row grid. */
function pieces(from: number, to: number): { row: number; x: number; w: number }[] {
  const out = [];
  for (let row = Math.floor(from / PER_ROW); row * PER_ROW < to; row++) {
    const s = Math.max(from, row * PER_ROW);
    const e = Math.min(to, (row + 1) * PER_ROW);
    if (e > s) out.push({ row, x: LEFT + (s - row * PER_ROW) * CELL, w: (e - s) * CELL });
  }
  return out;
}

/** Rows of a byte grid: where each is drawn, or null inside a run of unused rows shown as one strip. */
function rowLayout(
  lane: BytesLane,
  rows: number,
  top: number,
): { y: (number | null)[]; strips: { from: number; to: number; y: number }[]; height: number } {
  const touched = new Array<boolean>(rows).fill(false);
  const spans: [number, number][] = lane.boxes.map((b) => [b.offset, b.offset + b.size]);
  if (lane.reserved) spans.push([0, lane.reserved.size]);
  for (const [s, e] of spans) for (let r = Math.floor(s / PER_ROW); r * PER_ROW < e && r < rows; r++) touched[r] = true;
  const y: (number | null)[] = [];
  const strips: { from: number; to: number; y: number }[] = [];
  let at = top;
  for (let r = 0; r < rows;) {
    let run = r;
    while (run < rows && !touched[run] && (run + 1) * PER_ROW <= lane.size) run++;
    if (run - r >= COLLAPSE_ROWS) {
      strips.push({ from: r * PER_ROW, to: run * PER_ROW, y: at });
      for (; r < run; r++) y.push(null);
      at += STRIP_H;
      continue;
    }
    y.push(at);
    at += ROW_H;
    r++;
  }
  return { y, strips, height: at - top };
}

function drawBytes(root: SVGSVGElement, lane: BytesLane, y0: number, hatch: string): number {
  const end = Math.max(lane.size, ...lane.boxes.map((b) => b.offset + b.size), lane.reserved?.size ?? 0);
  const rows = Math.max(1, Math.ceil(end / PER_ROW));
  const top = y0 + HEAD_H;
  const layout = rowLayout(lane, rows, top);
  const rowY = (r: number): number => layout.y[r] ?? 0;
  const shown = <T extends { row: number }>(ps: T[]): T[] => ps.filter((p) => layout.y[p.row] !== null);
  const grid = svg('g', { class: 'grid', 'aria-hidden': 'true' });
  // Column heads: byte numbers, or dword numbers for AMD's dword-addressed buffers.
  for (let c = 0; c < PER_ROW; c++) {
    const x = LEFT + c * CELL;
    if (lane.unit === 'byte') grid.append(svg('text', { x: x + CELL / 2, y: y0 + 11, class: 'col-head' }, String(c)));
    else if (c % 4 === 0) grid.append(svg('text', { x: x + 2 * CELL, y: y0 + 11, class: 'col-head' }, `+${c / 4} dw`));
  }
  const offsetLabel = (off: number) => (lane.unit === 'byte' ? String(off) : `dw ${off / 4}`);
  for (let r = 0; r < rows; r++) {
    const y = layout.y[r];
    if (y === null) continue;
    grid.append(svg('text', { x: LEFT - 6, y: y + ROW_H / 2 + 4, class: 'row-head' }, offsetLabel(r * PER_ROW)));
    for (let c = 0; c < PER_ROW; c++) {
      const inside = r * PER_ROW + c < lane.size;
      grid.append(
        svg('rect', { x: LEFT + c * CELL, y, width: CELL, height: ROW_H, class: inside ? 'cell' : 'cell outside' }),
      );
    }
    if (lane.unit === 'dword')
      for (let c = 4; c < PER_ROW; c += 4)
        grid.append(
          svg('line', { x1: LEFT + c * CELL, y1: y, x2: LEFT + c * CELL, y2: y + ROW_H, class: 'dword-line' }),
        );
  }
  // Long runs of unused rows: one short strip that says how many bytes it stands for.
  for (const st of layout.strips) {
    grid.append(svg('text', { x: LEFT - 6, y: st.y + STRIP_H / 2 + 4, class: 'row-head' }, offsetLabel(st.from)));
    grid.append(svg('rect', { x: LEFT, y: st.y, width: PER_ROW * CELL, height: STRIP_H, fill: hatch, class: 'strip' }));
    grid.append(
      svg(
        'text',
        { x: LEFT + (PER_ROW * CELL) / 2, y: st.y + STRIP_H / 2 + 4, class: 'strip-text' },
        `⋯ ${st.to - st.from} unused bytes, ${st.from}–${st.to - 1} ⋯`,
      ),
    );
  }
  root.append(grid);
  const used: [number, number][] = lane.boxes.map((b) => [b.offset, b.offset + b.size]);
  if (lane.reserved) {
    used.push([0, lane.reserved.size]);
    const g = svg(
      'g',
      { class: 'reserved', 'aria-label': lane.reserved.label, role: 'img' },
      svg('title', {}, lane.reserved.label),
    );
    const ps = pieces(0, lane.reserved.size);
    for (const p of ps)
      g.append(
        svg('rect', {
          x: p.x + 1,
          y: rowY(p.row) + 1,
          width: p.w - 2,
          height: ROW_H - 2,
          rx: 3,
          class: 'reserved-box',
        }),
      );
    const wide = ps.reduce((a, p) => (p.w > a.w ? p : a), ps[0]);
    g.append(
      svg(
        'text',
        { x: wide.x + 4, y: rowY(wide.row) + ROW_H / 2 + 4, class: 'slot-type' },
        fit(lane.reserved.label, wide.w - 8, 10.5),
      ),
    );
    root.append(g);
  }
  for (const [s, e] of gaps(used, 0, lane.size)) {
    const label = `unused (padding), bytes ${s}–${e - 1} (${e - s} byte${e - s === 1 ? '' : 's'})`;
    const g = svg('g', {
      class: 'padding',
      'data-offset': s,
      'data-size': e - s,
      'aria-label': label,
      'data-tip': tipAttr({
        title: 'unused (padding)',
        rows: [
          ['offset', String(s)],
          ['size', `${e - s} bytes`],
        ],
      }),
    });
    for (const p of shown(pieces(s, e)))
      g.append(svg('rect', { x: p.x, y: rowY(p.row), width: p.w, height: ROW_H, fill: hatch, class: 'pad' }));
    root.append(g);
  }
  for (const b of lane.boxes) {
    if (b.size <= 0) continue;
    const ps = pieces(b.offset, b.offset + b.size);
    const g = slotGroup(
      b,
      describe(b, `bytes ${b.offset}–${b.offset + b.size - 1} (${b.size} bytes)`),
      slotTip(b, [
        ['offset', String(b.offset)],
        ['size', `${b.size} bytes`],
        ['bytes', `${b.offset}–${b.offset + b.size - 1}`],
      ]),
    );
    for (const p of ps)
      g.append(
        svg('rect', { x: p.x + 1, y: rowY(p.row) + 1, width: p.w - 2, height: ROW_H - 2, rx: 3, class: 'slot-box' }),
      );
    // Bytes inside a struct that no field covers: hatched over the slot's colour.
    if (b.layout) {
      for (const [s, e] of paddingOf(b.layout, b.size)) {
        for (const p of pieces(b.offset + s, b.offset + e))
          g.append(
            svg('rect', {
              x: p.x + 1,
              y: rowY(p.row) + 3,
              width: p.w - 2,
              height: ROW_H - 6,
              fill: hatch,
              class: 'pad-inner',
            }),
          );
      }
    }
    const withFields = drawFields(g, b, rowY, (row) => layout.y[row] !== null);
    const wide = ps.reduce((a, p) => (p.w > a.w ? p : a), ps[0]);
    labelIn(g, b, wide.x, rowY(wide.row), wide.w, ROW_H, withFields);
    root.append(g);
  }
  return HEAD_H + layout.height;
}

function drawList(root: SVGSVGElement, lane: ListLane, y0: number): number {
  const boxW = 176;
  // Columns as wide as their longest text, shrunk together when they do not all fit.
  const chars = lane.columns.map((c, i) => Math.max(c.length, ...lane.rows.map((r) => (r.cells[i] ?? '').length)));
  const avail = WIDTH - PAD - boxW - 12;
  const want = chars.map((n) => n * 7 + 10);
  const scale = Math.min(1, avail / want.reduce((a, b) => a + b, 0));
  const colWs = want.map((w) => w * scale);
  const colX = (i: number) => PAD + boxW + 12 + colWs.slice(0, i).reduce((a, b) => a + b, 0);
  lane.columns.forEach((c, i) => root.append(svg('text', { x: colX(i), y: y0 + 11, class: 'col-head start' }, c)));
  lane.rows.forEach((row, r) => {
    const y = y0 + HEAD_H + r * LIST_H;
    const g = slotGroup(
      row.box,
      describe(row.box, lane.columns.map((c, i) => `${c} ${row.cells[i] || '—'}`).join(', ')),
      slotTip(
        row.box,
        lane.columns.map((c, i) => [c, row.cells[i] || '—'] as const),
      ),
    );
    g.append(svg('rect', { x: PAD, y: y + 2, width: WIDTH - 2 * PAD, height: LIST_H - 4, rx: 3, class: 'row-back' }));
    g.append(svg('rect', { x: PAD, y: y + 2, width: boxW, height: LIST_H - 4, rx: 3, class: 'slot-box' }));
    g.append(
      svg(
        'text',
        { x: PAD + 5, y: y + LIST_H / 2 + 4, class: 'slot-name' },
        fit(`${row.box.name}${row.box.type ? `: ${row.box.type}` : ''}`, boxW - 10, 12),
      ),
    );
    row.cells.forEach((c, i) =>
      g.append(svg('text', { x: colX(i), y: y + LIST_H / 2 + 4, class: 'cell-text' }, fit(c, colWs[i] - 4, 11.5))),
    );
    root.append(g);
  });
  return HEAD_H + lane.rows.length * LIST_H;
}

function drawBindings(root: SVGSVGElement, lane: BindingsLane, y0: number): number {
  let y = y0;
  const perRow = Math.floor((WIDTH - 2 * PAD + 6) / (BIND_W + 6));
  for (const set of lane.sets) {
    root.append(
      svg('text', { x: PAD, y: y + 13, class: 'set-head' }, `set ${set.set}${set.use ? ` · ${set.use}` : ''}`),
    );
    y += 20;
    set.boxes.forEach((b, i) => {
      const x = PAD + (i % perRow) * (BIND_W + 6);
      const by = y + Math.floor(i / perRow) * (BIND_H + 6);
      const g = slotGroup(
        b,
        describe(b, `set ${set.set}, binding ${String(b.data.binding)}`),
        slotTip(b, [
          ['set', String(set.set)],
          ['binding', String(b.data.binding)],
        ]),
      );
      g.append(svg('rect', { x, y: by, width: BIND_W, height: BIND_H, rx: 4, class: 'slot-box' }));
      g.append(
        svg(
          'text',
          { x: x + 5, y: by + 17, class: 'slot-name' },
          fit(`b${String(b.data.binding)} ${b.name}`, BIND_W - 10, 12),
        ),
      );
      g.append(svg('text', { x: x + 5, y: by + 34, class: 'slot-type' }, fit(b.type, BIND_W - 10, 10.5)));
      root.append(g);
    });
    y += Math.ceil(set.boxes.length / perRow) * (BIND_H + 6) + 4;
  }
  return y - y0;
}

function drawLane(root: SVGSVGElement, lane: Lane, y: number, hatch: string): number {
  root.append(svg('text', { x: PAD, y: y + 16, class: 'lane-title' }, lane.title));
  y += TITLE_H;
  switch (lane.kind) {
    case 'bytes':
      return TITLE_H + drawBytes(root, lane, y, hatch);
    case 'list':
      return TITLE_H + drawList(root, lane, y);
    case 'bindings':
      return TITLE_H + drawBindings(root, lane, y);
  }
}

/** The SVG of a drawing; its slots are reachable one after another with the arrow keys. */
export function renderDrawing(d: Drawing): SVGSVGElement {
  const root = svg('svg', {
    class: 'drawing',
    role: 'group',
    'aria-label': `${d.target} layout of kernel ${d.kernel}: ${d.summary}`,
    'data-target': d.target,
    'data-kernel': d.kernel,
  });
  const hatch = hatchDefs(root);
  let y = 4;
  for (const lane of d.lanes) y += drawLane(root, lane, y, hatch) + GAP;
  root.setAttribute('width', String(WIDTH));
  root.setAttribute('height', String(y));
  root.setAttribute('viewBox', `0 0 ${WIDTH} ${y}`);
  const first = root.querySelector('.slot');
  first?.setAttribute('tabindex', '0');
  return root;
}
