// kernarg's amdhsa plan against the NT_AMDGPU_METADATA note of the code object clang-16 compiles
// from the same kernels, read with kernarg's own ELF and msgpack readers (not its code-object
// reader, which maps the note into a plan the way the lowering does): every slot, hidden ones
// included, and the segment's size and alignment.
import type { AmdhsaKernelPlan, AmdhsaSlot } from '../../../src/abi/plan.js';
import { SHT_NOTE, notesOf, readElf } from '../../../src/readers/elf.js';
import { MsgArray, MsgMap, type MsgValue, decodeMsgpack } from '../../../src/readers/msgpack.js';
import type { Difference } from './compare-opencl.js';

const NT_AMDGPU_METADATA = 32;

/** A plain object of a msgpack map with string keys (arrays of maps kept as arrays). */
function plain(v: MsgValue): unknown {
  if (v instanceof MsgMap) return Object.fromEntries(v.entries.map((e) => [String(e.key), plain(e.value)]));
  if (v instanceof MsgArray) return v.items.map(plain);
  return v;
}

export type NoteKernel = Record<string, unknown> & { '.name': string; '.args'?: Record<string, unknown>[] };

/** The kernels of a code object's metadata note, by name. */
export function noteKernels(object: Uint8Array): Map<string, NoteKernel> {
  const elf = readElf(object);
  for (const s of elf.sections) {
    if (s.type !== SHT_NOTE) continue;
    const note = notesOf(elf, s).find((n) => n.name === 'AMDGPU' && n.type === NT_AMDGPU_METADATA);
    if (!note) continue;
    const meta = plain(decodeMsgpack(note.desc, note.descOffset)) as { 'amdhsa.kernels': NoteKernel[] };
    return new Map(meta['amdhsa.kernels'].map((k) => [k['.name'], k]));
  }
  throw new Error('the code object has no NT_AMDGPU_METADATA note');
}

/** The slot fields kernarg's plan carries, and the note's key for each. */
const SLOT_KEYS = {
  offset: '.offset',
  size: '.size',
  valueKind: '.value_kind',
  typeName: '.type_name',
  addressSpace: '.address_space',
  access: '.access',
  pointeeAlign: '.pointee_align',
} as const satisfies Partial<Record<keyof AmdhsaSlot, string>>;

export function compareAmdhsaKernel(k: AmdhsaKernelPlan, note: NoteKernel): Difference[] {
  const out: Difference[] = [];
  const differ = (arg: number | null, field: string, ours: unknown, theirs: unknown) => {
    if (JSON.stringify(ours) !== JSON.stringify(theirs))
      out.push({ kernel: k.name, arg, field, kernarg: ours, clang: theirs });
  };
  const args = note['.args'] ?? [];
  differ(null, 'slot count', k.args.length, args.length);
  k.args.forEach((a, i) => {
    const t = args[i];
    if (!t) return;
    for (const [field, key] of Object.entries(SLOT_KEYS))
      differ(i, field, (a as unknown as Record<string, unknown>)[field], t[key]);
    // Hidden slots have no name in the note; explicit ones have the parameter's.
    if (a.param !== null) differ(i, 'name', a.name, t['.name']);
  });
  differ(null, 'kernargSegmentSize', k.kernargSegmentSize, note['.kernarg_segment_size']);
  differ(null, 'kernargSegmentAlign', k.kernargSegmentAlign, note['.kernarg_segment_align']);
  return out;
}
