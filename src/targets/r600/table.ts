import type { R600Plan } from './lower.js';
import { renderTable, cell } from '../../emit/text-table.js';

/** The r600 plan for reading: one table per kernel. */
export function r600Table(plan: R600Plan): string {
  const out: string[] = [];
  for (const k of plan.kernels) {
    out.push(`kernel ${k.name} (r600, ${plan.mcpu})  input buffer: ${k.inputSize} bytes, explicit arguments from byte 36\n`);
    const rows = k.args.map((a) => [String(a.offset), String(a.size), a.name, a.role, a.typeName, cell(a.accessQual), cell(a.resourceId), cell(a.image)]);
    out.push(renderTable(['offset', 'size', 'name', 'role', 'type', 'access', 'resource', 'image'], rows));
  }
  return out.join('\n');
}
