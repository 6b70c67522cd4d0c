import { TableRenderer, cell } from '../../emit/text-table.js';
import { joinPieces, separated } from '../../emit/pieces.js';
import { DEVICE_FACTS } from './devices.js';
import type { ZebinPlan, ZebinSlot } from './plan.js';
import type { StreamPlan } from '../../abi/stream-plan.js';

/** Where a slot's bytes go, as the table shows it: payload bytes, or the binding table. */
function mode(a: ZebinSlot): string {
  const bti = a.bindingTable ? ' +bti' : '';
  if (a.argType === 'buffer_address') return `address${bti}`;
  if (a.addrmode) return `${a.addrmode}${bti}`;
  return '';
}

/** The parts the tables are joined from, a newline between each. */
function* zebinTableParts(plan: StreamPlan<ZebinPlan>): Generator<string, void, undefined> {
  const table = new TableRenderer<ZebinSlot>(
    ['offset', 'size', 'name', 'arg_type', 'mode', 'space/access', 'type'],
    (a) => [
      a.addrmode === 'stateful' || a.argType === 'none' ? '-' : String(a.offset),
      a.pieces && a.pieces.length > 1
        ? `${a.size} (${a.pieces.map((p) => `${p.sourceOffset}@${p.offset}`).join(' ')})`
        : String(a.size),
      a.name,
      a.argType,
      mode(a),
      [a.addrspace, a.accessType, a.slmAlignment !== undefined ? `align ${a.slmAlignment}` : undefined, a.imageType]
        .filter((x) => x !== undefined)
        .join(' '),
      cell(a.typeName),
    ],
    () => false,
  );
  for (const k of plan.kernels) {
    yield `kernel ${k.name} (zebin, ${plan.device}: ${DEVICE_FACTS[plan.device].family})  cross-thread payload: ${k.payloadSize} bytes\n`;
    yield table.render(k.args);
  }
}

/** The zebin plan for reading: one table per kernel. */
export function* zebinTablePieces(plan: StreamPlan<ZebinPlan>): Generator<string, void, undefined> {
  yield* separated(zebinTableParts(plan), '\n');
}

export function zebinTable(plan: ZebinPlan): string {
  return joinPieces(zebinTablePieces(plan));
}
