import type { AmdCl2Plan, AmdCl2Slot } from '../../abi/plan.js';

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
export function emitClrx(plan: AmdCl2Plan): string {
  const out: string[] = [`# AMD Catalyst OpenCL 2.0 (CLRX), ${plan.bits}-bit, ${plan.driver} driver${plan.gfx9 ? ', GFX9' : ''}`];
  out.push(plan.bits === 64 ? '.64bit' : '.32bit');
  for (const k of plan.kernels) {
    out.push(`.kernel ${k.name}`, '    .config');
    for (const f of plan.use) out.push(`        .use${f}`);
    out.push('        .setupargs');
    for (const a of k.args) if (a.param !== null) out.push(`        ${argLine(a)}`);
  }
  return out.join('\n') + '\n';
}
