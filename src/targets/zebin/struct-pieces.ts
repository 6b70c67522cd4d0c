// How IGC passes a by-value struct or union: not as one block but as the scalar leaves of the LLVM
// type clang gives it (vectors and arrays element by element, clang's explicit padding arrays byte
// by byte), each in its own payload slot of at least 4 bytes; leaves that follow each other both
// in the struct and in the payload are then reported as one piece with one `source_offset`.
import { alignTo } from '../../layout/align.js';
import type { DataLayout } from '../../layout/data-layout.js';
import { irAlign } from '../../layout/ir-align.js';
import { layoutOf, recordLayout } from '../../layout/layout.js';
import { type QualType, type RecordDecl, type Type, canonical, scalar } from '../../types/types.js';
import type { ZePiece } from './plan.js';

/** One scalar of the LLVM type: its offset in the struct and its size (its alignment in the payload). */
interface Leaf {
  readonly offset: number;
  readonly size: number;
}

function bytes(out: Leaf[], from: number, to: number): void {
  for (let b = from; b < to; b++) out.push({ offset: b, size: 1 });
}

function leavesOf(t: QualType | Type, base: number, dl: DataLayout, out: Leaf[]): void {
  const c = canonical('kind' in t ? { type: t } : t).type;
  switch (c.kind) {
    case 'vector': {
      const e = layoutOf(scalar(c.element), dl).size;
      for (let i = 0; i < c.length; i++) out.push({ offset: base + i * e, size: e });
      return;
    }
    case 'array': {
      // IGC steps through an array of vectors by their elements alone: `ushort3 a[3]` is 9 shorts
      // 2 bytes apart, not three 8-byte vectors (seen in ocloc's source_offset values).
      const el = canonical(c.element).type;
      const e = el.kind === 'vector' ? layoutOf(scalar(el.element), dl).size * el.length : layoutOf(c.element, dl).size;
      for (let i = 0; i < (c.length ?? 0); i++) leavesOf(c.element, base + i * e, dl, out);
      return;
    }
    case 'record':
      recordLeaves(c.decl, base, dl, out);
      return;
    default:
      out.push({ offset: base, size: layoutOf(c, dl).size });
  }
}

/**
 * Whether clang spells a struct's tail padding (after its last member, at `at`) as an explicit byte
 * array: where the LLVM struct's alignment, counted at most 8 for the tail as spir64's data layout
 * leaves 128-bit and wider vectors, does not round the members up to the size. So
 * `{ <4 x float>, i8, [15 x i8] }` but `{ i32, i8 }` and `{ <3 x float>, …, [3 x i32] }` (4 tail bytes) without.
 */
function explicitTail(decl: RecordDecl, at: number, dl: DataLayout): boolean {
  const size = recordLayout(decl, dl).size;
  return at < size && alignTo(at, Math.min(irAlign({ kind: 'record', decl }, dl), 8)) !== size;
}

function recordLeaves(decl: RecordDecl, base: number, dl: DataLayout, out: Leaf[]): void {
  const rl = recordLayout(decl, dl);
  const named = rl.fields.filter((f) => f.bitWidth === undefined);
  if (decl.tagKind === 'union') {
    // clang's union type: the most aligned member (the larger on a tie), then bytes up to the size.
    const pick = named.reduce<(typeof named)[number] | undefined>((best, f) => {
      if (!best) return f;
      const a = irAlign(f.type, dl);
      const b = irAlign(best.type, dl);
      return a > b || (a === b && layoutOf(f.type, dl).size > layoutOf(best.type, dl).size) ? f : best;
    }, undefined);
    let at = 0;
    if (pick) {
      leavesOf(pick.type, base, dl, out);
      at = layoutOf(pick.type, dl).size;
    }
    bytes(out, base + at, base + rl.size);
    return;
  }
  let at = 0;
  for (let i = 0; i < rl.fields.length; i++) {
    const f = rl.fields[i];
    if (f.bitWidth !== undefined) {
      // A run of bit-fields: the bytes it covers.
      let endBit = f.bitOffset! + f.bitWidth;
      while (i + 1 < rl.fields.length && rl.fields[i + 1].bitWidth !== undefined)
        endBit = Math.max(endBit, rl.fields[++i].bitOffset! + rl.fields[i].bitWidth!);
      const first = Math.floor(f.bitOffset! / 8);
      const end = Math.max(first, Math.ceil(endBit / 8));
      bytes(out, base + Math.max(at, first), base + end);
      at = Math.max(at, end);
      continue;
    }
    // Padding clang spells only where the member's LLVM alignment does not bring it to its offset.
    if (alignTo(at, irAlign(f.type, dl)) !== f.offset) bytes(out, base + at, base + f.offset);
    leavesOf(f.type, base + f.offset, dl, out);
    at = f.offset + layoutOf(f.type, dl).size;
  }
  if (explicitTail(decl, at, dl)) bytes(out, base + at, base + rl.size);
}

/**
 * The pieces of a by-value record placed from payload offset `start`: each leaf at its own
 * alignment in a slot rounded up to 4 bytes, merged into the piece before it when both its struct
 * offset and its payload offset follow that piece's end. Returns the pieces and the payload end.
 */
export function structPieces(t: QualType, start: number, dl: DataLayout): { pieces: ZePiece[]; end: number } {
  const leaves: Leaf[] = [];
  leavesOf(t, 0, dl, leaves);
  const pieces: { sourceOffset: number; offset: number; size: number }[] = [];
  let at = start;
  for (const l of leaves) {
    const offset = alignTo(at, Math.min(l.size, 8));
    const size = alignTo(l.size, 4);
    const last = pieces[pieces.length - 1];
    if (last && last.sourceOffset + last.size === l.offset && last.offset + last.size === offset) last.size += size;
    else pieces.push({ sourceOffset: l.offset, offset, size });
    at = offset + size;
  }
  return { pieces, end: at };
}
