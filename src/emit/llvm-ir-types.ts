// LLVM IR's types for OpenCL C types as the module writer (llvm-ir.ts) spells them: scalars, vectors, pointers in
// their address spaces, and a named struct type per record, made the first time a record is spelled and listed at the
// module's head in that order.
import type { TripleInfo } from '../abi/llvm-kernel.js';
import { irAlign } from '../layout/ir-align.js';
import { layoutOf, recordLayout } from '../layout/layout.js';
import { type QualType, type RecordDecl, type Type, canonical } from '../types/types.js';
import { isPointerSized } from '../types/scalar-facts.js';
import { SCALAR_IR, ident } from './llvm-ir-spelling.js';

export class IrTypes {
  private readonly structs = new Map<number, { name: string; body: string }>();
  private readonly structOrder: number[] = [];
  private readonly usedStructNames = new Set<string>();

  constructor(private readonly info: TripleInfo) {}

  private ptr(space: number): string {
    return space === 0 ? 'ptr' : `ptr addrspace(${space})`;
  }

  irType(t: QualType | Type): string {
    const c = canonical('kind' in t ? { type: t } : t).type;
    const dl = this.info.layout;
    switch (c.kind) {
      case 'scalar':
        return isPointerSized(c.name) ? (dl.sizeT === 8 ? 'i64' : 'i32') : SCALAR_IR[c.name];
      case 'vector':
        return `<${c.length} x ${SCALAR_IR[c.element]}>`;
      case 'pointer':
        return this.ptr(this.info.spaces[canonical(c.pointee).space ?? 'generic']);
      case 'array':
        return `[${c.length ?? 0} x ${this.irType(c.element)}]`;
      case 'enum':
        return `i${layoutOf(c, dl).size * 8}`;
      case 'record':
        return this.recordType(c.decl);
      case 'image':
      case 'pipe':
        return this.ptr(c.kind === 'image' ? this.info.image : this.info.spaces.global);
      case 'opaque':
        return this.ptr(c.name === 'sampler_t' ? this.info.sampler : c.name === 'queue_t' ? this.info.queue : 0);
      case 'function':
        return 'ptr';
      case 'typedef':
        throw new Error('unreachable');
    }
  }

  /** A named LLVM struct type for a record: its fields at their offsets, explicit padding, packed when it must be. */
  private recordType(decl: RecordDecl): string {
    const done = this.structs.get(decl.id);
    if (done) return done.name;
    const base = `${decl.tagKind}.${decl.name ?? 'anon'}`;
    let name = base;
    for (let n = 0; this.usedStructNames.has(name); n++) name = `${base}.${n}`;
    this.usedStructNames.add(name);
    const ref = ident('%', name);
    const entry = { name: ref, body: 'opaque' };
    this.structs.set(decl.id, entry);
    const dl = this.info.layout;
    const rl = recordLayout(decl, dl);
    const packed =
      irAlign({ kind: 'record', decl }, dl) === 1 &&
      rl.fields.some((f) => f.bitWidth === undefined && irAlign(f.type, dl) > 1);
    const members: string[] = [];
    let at = 0;
    const pad = (to: number) => {
      if (to > at) members.push(`[${to - at} x i8]`);
      at = Math.max(at, to);
    };
    if (decl.tagKind === 'union') {
      const fields = rl.fields.filter((f) => f.bitWidth === undefined);
      const pick = fields.reduce<(typeof fields)[number] | undefined>((best, f) => {
        if (!best) return f;
        const a = irAlign(f.type, dl);
        const b = irAlign(best.type, dl);
        return a > b || (a === b && layoutOf(f.type, dl).size > layoutOf(best.type, dl).size) ? f : best;
      }, undefined);
      if (pick) {
        members.push(this.irType(pick.type));
        at = layoutOf(pick.type, dl).size;
      }
    } else {
      for (let i = 0; i < rl.fields.length; i++) {
        const f = rl.fields[i];
        if (f.bitWidth !== undefined) {
          // A run of bit-fields as the bytes it covers.
          let endBit = f.bitOffset! + f.bitWidth;
          while (i + 1 < rl.fields.length && rl.fields[i + 1].bitWidth !== undefined) {
            i++;
            endBit = Math.max(endBit, rl.fields[i].bitOffset! + rl.fields[i].bitWidth!);
          }
          const first = Math.floor(f.bitOffset! / 8);
          pad(first);
          const end = Math.max(first, Math.ceil(endBit / 8));
          if (end > at) {
            members.push(`[${end - at} x i8]`);
            at = end;
          }
          continue;
        }
        pad(f.offset);
        members.push(this.irType(f.type));
        at = f.offset + layoutOf(f.type, dl).size;
      }
    }
    pad(rl.size);
    entry.body = packed ? `<{ ${members.join(', ')} }>` : `{ ${members.join(', ')} }`;
    this.structOrder.push(decl.id);
    return ref;
  }

  /** The struct types made so far, `%name = type …` each with its newline, then a blank line (nothing for none). */
  *lines(): Generator<string, void, undefined> {
    for (const id of this.structOrder) {
      const s = this.structs.get(id)!;
      yield `${s.name} = type ${s.body}\n`;
    }
    if (this.structOrder.length) yield '\n';
  }
}
