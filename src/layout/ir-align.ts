import { type QualType, type Type, canonical } from '../types/types.js';
import type { DataLayout } from './data-layout.js';
import { layoutOf, recordLayout } from './layout.js';

/**
 * The ABI alignment of the LLVM IR type clang-16 lowers a C type to. It differs from the
 * C alignment for records: `aligned` attributes become explicit padding, not alignment, and
 * a record whose fields or size natural alignment cannot hold becomes a packed LLVM struct
 * (alignment 1). AMDGPU kernel arguments are aligned this way.
 */
export function irAlign(t: QualType | Type, dl: DataLayout): number {
  const c = canonical('kind' in t ? { type: t } : t).type;
  if (c.kind === 'array') return irAlign(c.element, dl);
  if (c.kind !== 'record') return layoutOf(c, dl).align;
  const rl = recordLayout(c.decl, dl);
  let natural = 1;
  let packed = false;
  for (const f of rl.fields) {
    // Bit-field runs are stored as integers or byte arrays; count them as bytes.
    const a = f.bitWidth !== undefined ? 1 : irAlign(f.type, dl);
    natural = Math.max(natural, a);
    if (f.bitWidth === undefined && f.offset % a !== 0) packed = true;
  }
  if (rl.size % natural !== 0) packed = true;
  return packed ? 1 : natural;
}
