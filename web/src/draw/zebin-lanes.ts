// The zebin drawing: the cross-thread payload with IGC's .ze_info facts per entry, and the
// binding-table entries of stateful buffers.
import type { KernelJson, LayoutJson, SlotJson } from '../plan-json.js';
import { type Box, type Lane, type ListLane, box } from './parts.js';

/** What a zebin payload entry says in the tooltip: IGC's arg_type and addrmode as .ze_info spells them. */
function zeRows(s: SlotJson): [string, string][] {
  const rows: [string, string][] = [['arg_type', s.argType ?? '—']];
  if (s.addrmode) rows.push(['addrmode', s.addrmode]);
  if (s.addrspace) rows.push(['addrspace', `${s.addrspace}${s.accessType ? ` ${s.accessType}` : ''}`]);
  if (s.slmAlignment !== undefined) rows.push(['slm_alignment', String(s.slmAlignment)]);
  if (s.argIndex !== undefined) rows.push(['arg_index', String(s.argIndex)]);
  return rows;
}

/** The fields of a struct a piece of it carries (by their offsets in the struct). */
function piecesFields(layout: LayoutJson | undefined, from: number, size: number): string {
  if (!layout || layout.kind !== 'struct') return '';
  return layout.fields
    .filter((f) => f.offset >= from && f.offset < from + size)
    .map((f) => f.name ?? '(unnamed)')
    .join(', ');
}

export function zebinLanes(k: KernelJson): Lane[] {
  const size = k.payloadSize ?? 0;
  const boxes: Box[] = [];
  const table: ListLane['rows'][number][] = [];
  k.args.forEach((s, i) => {
    const stateful = s.addrmode === 'stateful';
    if (s.bindingTable || stateful) {
      // Short cells: the list's box column takes most of the width.
      const kind =
        s.role === 'image'
          ? (s.imageType ?? 'image')
          : s.role === 'sampler'
            ? `sampler${s.samplerIndex === undefined ? '' : ` ${s.samplerIndex}`}`
            : (s.addrspace ?? 'buffer');
      table.push({
        box: { ...box(k, i, 0, 0, { bti: 1 }), tipRows: zeRows(s) },
        cells: [kind, s.addrmode ?? '', s.accessType ?? ''],
      });
    }
    // Images and samplers live only in the binding table: no payload bytes.
    if (stateful || (s.size ?? 0) <= 0) return;
    if (s.pieces && s.pieces.length > 0) {
      // IGC passes a struct as pieces, each at its own payload offset: one box each, named by where
      // it comes from in the struct (its source_offset), not laid out as the struct is in memory.
      for (const p of s.pieces) {
        const held = piecesFields(s.layout, p.sourceOffset, p.size);
        const b = box(
          k,
          i,
          p.offset,
          p.size,
          { sourceOffset: p.sourceOffset, piece: 1 },
          held ? `holds ${held}` : undefined,
        );
        boxes.push({
          ...b,
          name: `${s.name}+${p.sourceOffset}`,
          layout: undefined,
          align: undefined,
          tipRows: [...zeRows(s), ['source_offset', String(p.sourceOffset)]],
        });
      }
      return;
    }
    boxes.push({
      ...box(k, i, s.offset ?? 0, s.size ?? 0, { argType: s.argType ?? '' }),
      short: s.name.replace(/^payload_header\./, ''),
      tipRows: zeRows(s),
    });
  });
  const lanes: Lane[] = [{ kind: 'bytes', title: `Cross-thread payload · ${size} bytes`, size, unit: 'byte', boxes }];
  if (table.length > 0)
    lanes.push({ kind: 'list', title: 'Binding-table entries', columns: ['kind', 'addrmode', 'access'], rows: table });
  return lanes;
}
