import { type MemrefType, instructions } from '../../frontend/tinytc/ast.js';
import { storedAsBits } from './gen.js';
import type { LoweredKernel } from '../lowered.js';
import { needsBits } from './atomics.js';

/**
 * The memrefs (parameters and allocas, by name) whose floats must be stored as integer bits:
 * those some atomic update reaches through a compare-and-swap loop, which SPIR-V only defines on
 * integers. A view shares its operand's root; group members are addressed, not declared, so they
 * need no root.
 */
export function bitsRoots(k: LoweredKernel, floatAtomicAdd: boolean, floatAtomicsViaBits = false): Set<string> {
  const f = k.func;
  const root = new Map<string, string>();
  for (const p of f.params) if (p.type.kind === 'memref') root.set(p.name, p.name);
  const out = new Set<string>();
  for (const inst of instructions(f.body)) {
    const r = inst.results[0]?.name;
    if (r && inst.op === 'alloca') root.set(r, r);
    if (r && (inst.op === 'subview' || inst.op === 'expand' || inst.op === 'fuse') && inst.operand.kind === 'value') {
      const m = root.get(inst.operand.name);
      if (m) root.set(r, m);
    }
    // tinytc v0.4's atomics on floats and complex numbers: a Vulkan module reaches them through their bits (spmd.ts).
    if ((inst.op === 'atomic_load' || inst.op === 'atomic_update') && floatAtomicsViaBits) {
      const m = inst.operand.kind === 'value' ? root.get(inst.operand.name) : undefined;
      if (m && storedAsBits((inst.type.type as MemrefType).element)) out.add(m);
      continue;
    }
    if (inst.op !== 'blas' || !inst.atomic) continue;
    const c = inst.operands[inst.operands.length - 1];
    const t = inst.types[inst.types.length - 1].type as MemrefType;
    const mode = k.atomicModes.get(inst)!;
    if (c.kind === 'value' && needsBits(t.element, mode, floatAtomicAdd)) {
      const m = root.get(c.name);
      if (m) out.add(m);
    }
  }
  return out;
}
