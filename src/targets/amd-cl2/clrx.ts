import { joinPieces } from '../../emit/pieces.js';
import type { AmdCl2Plan, AmdCl2Slot } from '../../abi/plan.js';
import type { StreamPlan } from '../../abi/stream-plan.js';

/** A CLRX string literal: quotes and backslashes escaped, nothing else from user text unquoted. */
function quoted(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => '\\' + c).replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}"`;
}

function argLine(a: AmdCl2Slot): string {
  const head = `.arg ${a.name}, ${quoted(a.typeName)}, ${a.argType}`;
  if (a.argType.endsWith('*')) {
    const parts = [head];
    if (a.structSize !== undefined) parts.push(String(a.structSize));
    parts.push(a.addressSpace ?? 'global');
    if (a.qualifiers?.length) parts.push(a.qualifiers.join(' '));
    return parts.join(', ');
  }
  if (a.argType === 'structure') return `${head}, ${a.structSize}`;
  if (a.role === 'image') return `${head}, ${a.access}, ${a.resourceId}`;
  if (a.argType === 'sampler') return `${head}, ${a.resourceId}`;
  return head;
}

/** The `.kernel`/`.config` blocks a CLRX assembler source needs: features, `.setupargs`, one `.arg` per argument. */
export function* emitClrxPieces(plan: StreamPlan<AmdCl2Plan>): Generator<string, void, undefined> {
  yield `# AMD Catalyst OpenCL 2.0 (CLRX), ${plan.bits}-bit, ${plan.driver} driver${
    plan.gfx9 ? ', ' + 'GFX9' : ''
  }\n${plan.bits === 64 ? '.64bit' : '.32bit'}\n`;
  // The `.use` lines are the same for every kernel: made once.
  const config = `    .config\n${plan.use.map((f) => `        .use${f}\n`).join('')}        .setupargs\n`;
  for (const k of plan.kernels) {
    let text = `.kernel ${k.name}\n${config}`;
    for (const a of k.args) if (a.param !== null) text += `        ${argLine(a)}\n`;
    yield text;
  }
}

export function emitClrx(plan: AmdCl2Plan): string {
  return joinPieces(emitClrxPieces(plan));
}
