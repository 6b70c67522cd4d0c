// Whether a by-value record read from a binary holds the same bytes as the source's: SPIR-V keeps
// a struct as LLVM lowered it — its fields in order with clang's explicit padding arrays among
// them, a union as its widest-aligned member and padding — so the two layouts are compared leaf
// by leaf (each scalar at its byte offset), not as trees.
import type { ValueLayout } from '../layout/value-layout.js';
import { signless } from './stated-facts.js';

interface Leaf {
  readonly offset: number;
  readonly scalar: string;
  /**
   * Inside a union or a bit-field: a binary need not show it (LLVM keeps one member of a union, and bit-fields as
   * storage units).
   */
  readonly optional: boolean;
}

/** More leaves than this and the layouts are compared as they are (a huge array is no padding question). */
const MAX_LEAVES = 4096;

function leavesOf(l: ValueLayout, base: number, optional: boolean, out: Leaf[]): void {
  if (out.length > MAX_LEAVES) return;
  switch (l.kind) {
    case 'scalar':
      out.push({ offset: base, scalar: String(signless(l.scalar)), optional });
      return;
    case 'vector':
      for (let i = 0; i < l.length; i++)
        out.push({ offset: base + i * l.elementSize, scalar: String(signless(l.element)), optional });
      return;
    case 'array':
      for (let i = 0; i < l.length && out.length <= MAX_LEAVES; i++)
        leavesOf(l.element, base + i * l.stride, optional, out);
      return;
    case 'record':
      for (const f of l.fields) {
        if (f.bitWidth !== undefined) out.push({ offset: base + f.offset, scalar: 'bit-field', optional: true });
        else leavesOf(f.layout, base + f.offset, optional || l.tagKind === 'union', out);
      }
      return;
  }
}

const key = (l: Leaf) => `${l.offset}:${l.scalar}`;

/**
 * True when `binary` is `source` as LLVM lowers it: the same size; every leaf of the binary's that
 * is not a padding byte (`uchar`) is one of the source's; every leaf of the source's outside unions
 * and bit-fields is in the binary. Integers compare without their sign (SPIR-V has none).
 */
export function leavesAgree(source: ValueLayout, binary: ValueLayout): boolean {
  if (source.size !== binary.size || source.kind !== 'record') return false;
  const src: Leaf[] = [];
  const bin: Leaf[] = [];
  leavesOf(source, 0, false, src);
  leavesOf(binary, 0, false, bin);
  if (src.length > MAX_LEAVES || bin.length > MAX_LEAVES) return false;
  const srcKeys = new Set(src.map(key));
  const binKeys = new Set(bin.map(key));
  return (
    bin.every((l) => l.scalar === 'uchar' || srcKeys.has(key(l))) && src.every((l) => l.optional || binKeys.has(key(l)))
  );
}
