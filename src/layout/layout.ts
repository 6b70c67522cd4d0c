import { alignTo } from './align.js';
import { type QualType, type RecordDecl, type ScalarName, type Type, canonical } from '../types/types.js';
import type { DataLayout } from './data-layout.js';
import { SCALAR_FACTS } from '../types/scalar-facts.js';

export interface TypeLayout {
  readonly size: number;
  readonly align: number;
}

export interface FieldLayout {
  readonly name: string | null;
  readonly type: QualType;
  /** Byte offset of the field (of its first byte, for a bit-field). */
  readonly offset: number;
  readonly size: number;
  readonly bitOffset?: number;
  readonly bitWidth?: number;
}

export interface RecordLayout extends TypeLayout {
  readonly fields: readonly FieldLayout[];
}

export function scalarSize(name: ScalarName, dl: DataLayout): number {
  const bytes = SCALAR_FACTS[name].bytes;
  return bytes === 'size_t' ? dl.sizeT : bytes;
}

const recordCache = new WeakMap<DataLayout, WeakMap<RecordDecl, RecordLayout>>();

/** sizeof and alignof of a type under a data layout, exactly as clang-16 lays it out. */
export function layoutOf(t: QualType | Type, dl: DataLayout): TypeLayout {
  const type = canonical('kind' in t ? { type: t } : t).type;
  switch (type.kind) {
    case 'scalar': {
      const s = scalarSize(type.name, dl);
      return { size: s, align: s };
    }
    case 'vector': {
      const s = scalarSize(type.element, dl) * (type.length === 3 ? 4 : type.length);
      return { size: s, align: s };
    }
    case 'pointer': {
      const s = dl.pointerSize(type.pointee.space ?? 'generic');
      return { size: s, align: s };
    }
    case 'array': {
      const e = layoutOf(type.element, dl);
      return { size: e.size * (type.length ?? 0), align: e.align };
    }
    case 'record':
      return recordLayout(type.decl, dl);
    case 'enum': {
      const s = scalarSize(type.decl.underlying, dl);
      return { size: s, align: s };
    }
    case 'image':
    case 'pipe':
    case 'opaque': {
      // Handles: images and pipes are global-memory objects, the rest private values.
      const space =
        type.kind === 'opaque' && type.name === 'sampler_t'
          ? 'constant'
          : type.kind === 'opaque'
            ? 'private'
            : 'global';
      const s = dl.pointerSize(space);
      return { size: s, align: s };
    }
    case 'function':
      return { size: 1, align: 1 };
    case 'typedef':
      throw new Error('unreachable: canonical type is never a typedef');
  }
}

/** Field offsets, size and alignment of a struct or union (the Itanium/SysV rules clang uses for SPIR and AMDGPU). */
export function recordLayout(decl: RecordDecl, dl: DataLayout): RecordLayout {
  let perLayout = recordCache.get(dl);
  if (!perLayout) recordCache.set(dl, (perLayout = new WeakMap()));
  const cached = perLayout.get(decl);
  if (cached) return cached;
  const fields: FieldLayout[] = [];
  let bits = 0;
  let maxBits = 0;
  let align = 1;
  const union = decl.tagKind === 'union';
  for (const f of decl.fields ?? []) {
    const fl = layoutOf(f.type, dl);
    const packed = decl.packed || f.packed === true;
    let fieldAlign = packed ? 1 : fl.align;
    if (f.aligned) fieldAlign = Math.max(fieldAlign, f.aligned);
    if (union) bits = 0;
    if (f.bitWidth !== undefined) {
      const w = f.bitWidth;
      if (w === 0) {
        bits = alignTo(bits, fl.align * 8);
        if (union) maxBits = Math.max(maxBits, 0);
        continue;
      }
      const unit = fl.size * 8;
      if (!packed && Math.floor(bits / unit) !== Math.floor((bits + w - 1) / unit)) bits = alignTo(bits, fl.align * 8);
      if (f.aligned) bits = alignTo(bits, f.aligned * 8);
      fields.push({
        name: f.name,
        type: f.type,
        offset: Math.floor(bits / 8),
        size: fl.size,
        bitOffset: bits,
        bitWidth: w,
      });
      bits += w;
      if (f.name !== null) align = Math.max(align, fieldAlign);
    } else {
      bits = alignTo(bits, fieldAlign * 8);
      fields.push({ name: f.name, type: f.type, offset: bits / 8, size: fl.size });
      bits += fl.size * 8;
      align = Math.max(align, fieldAlign);
    }
    maxBits = Math.max(maxBits, bits);
  }
  if (decl.aligned) align = Math.max(align, decl.aligned);
  const size = alignTo(Math.ceil((union ? maxBits : bits) / 8), align);
  const result: RecordLayout = { size, align, fields };
  perLayout.set(decl, result);
  return result;
}
