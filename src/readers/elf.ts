// A bounds-checked reader of little-endian ELF32 and ELF64 files: the header, the section headers
// with their names, and the notes of SHT_NOTE sections. Every offset and size a file claims is
// checked against the file's length before it is used, so a truncated or forged file stops with a
// ByteError naming the byte, never a RangeError or a loop over a count the file made up.
import { Messages } from '../diagnostics/messages.js';
import { fail } from './byte-error.js';

export const SHT_NOTE = 7;
const SHN_XINDEX = 0xffff;

export interface ElfSection {
  readonly index: number;
  readonly name: string;
  readonly type: number;
  readonly offset: number;
  readonly size: number;
  readonly link: number;
}

export interface ElfFile {
  readonly bits: 32 | 64;
  readonly osAbi: number;
  readonly abiVersion: number;
  readonly type: number;
  readonly machine: number;
  readonly flags: number;
  readonly sections: readonly ElfSection[];
  readonly bytes: Uint8Array;
}

export interface ElfNote {
  readonly name: string;
  readonly type: number;
  readonly desc: Uint8Array;
  /** Where the description starts in the file. */
  readonly descOffset: number;
}

/** Whether the bytes start with the ELF magic. */
export function isElf(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x7f && bytes[1] === 0x45 && bytes[2] === 0x4c && bytes[3] === 0x46;
}

/** Little-endian reads that refuse to pass the end of the file. */
class Bytes {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(at: number, n: number, what: string): void {
    if (at < 0 || n < 0 || at + n > this.bytes.length)
      fail(
        Messages.elfTruncated,
        Math.max(0, Math.min(at, this.bytes.length)),
        what,
        n,
        Math.max(0, this.bytes.length - at),
      );
  }
  u16(at: number, what: string): number {
    this.need(at, 2, what);
    return this.view.getUint16(at, true);
  }
  u32(at: number, what: string): number {
    this.need(at, 4, what);
    return this.view.getUint32(at, true);
  }
  /**
   * An ELF64 offset or size: anything past 2^53 is past any file this reader holds, so it is clamped there (the range
   * checks refuse it).
   */
  u64(at: number, what: string): number {
    this.need(at, 8, what);
    const hi = this.view.getUint32(at + 4, true);
    return hi >= 0x200000 ? Number.MAX_SAFE_INTEGER : hi * 2 ** 32 + this.view.getUint32(at, true);
  }
  word(bits: 32 | 64, at: number, what: string): number {
    return bits === 64 ? this.u64(at, what) : this.u32(at, what);
  }
}

/** The header and section headers of an ELF file, names resolved. */
export function readElf(bytes: Uint8Array): ElfFile {
  const b = new Bytes(bytes);
  b.need(0, 16, 'the ELF identification');
  if (!isElf(bytes)) fail(Messages.elfNotElf);
  const cls = bytes[4];
  if (cls !== 1 && cls !== 2) fail(Messages.elfClass, cls);
  if (bytes[5] !== 1) fail(Messages.elfEndian, bytes[5]);
  const bits = cls === 2 ? 64 : 32;
  const w = bits / 8;
  const headerSize = bits === 64 ? 64 : 52;
  b.need(0, headerSize, 'the ELF header');
  const type = b.u16(16, 'e_type');
  const machine = b.u16(18, 'e_machine');
  // e_entry and e_phoff are not needed: sections carry what the readers read.
  const shoffAt = 24 + 2 * w;
  const shoff = b.word(bits, shoffAt, 'e_shoff');
  const flags = b.u32(shoffAt + w, 'e_flags');
  const shentsize = b.u16(shoffAt + w + 10, 'e_shentsize');
  let shnum = b.u16(shoffAt + w + 12, 'e_shnum');
  let shstrndx = b.u16(shoffAt + w + 14, 'e_shstrndx');
  const entry = bits === 64 ? 64 : 40;
  const base = { bits, osAbi: bytes[7], abiVersion: bytes[8], type, machine, flags, bytes } as const;
  if (shoff === 0) return { ...base, sections: [] };
  if (shentsize !== entry) fail(Messages.elfHeaderSize, shoffAt + w + 10, 'e_shentsize', shentsize, entry);
  // ELF's extended numbering: 0 sections (or SHN_XINDEX names) mean the real figure is in section 0.
  if (shnum === 0) shnum = b.word(bits, shoff + (bits === 64 ? 32 : 20), 'the extended section count');
  if (shstrndx === SHN_XINDEX) shstrndx = b.u32(shoff + (bits === 64 ? 40 : 24), 'the extended string table index');
  if (shoff > bytes.length || shnum > Math.floor((bytes.length - shoff) / entry))
    fail(Messages.elfSectionHeaders, Math.min(shoff, bytes.length), shnum, entry);
  const raw: { nameAt: number; type: number; offset: number; size: number; link: number }[] = [];
  for (let i = 0; i < shnum; i++) {
    const at = shoff + i * entry;
    raw.push(
      bits === 64
        ? {
            nameAt: b.u32(at, 'sh_name'),
            type: b.u32(at + 4, 'sh_type'),
            offset: b.u64(at + 24, 'sh_offset'),
            size: b.u64(at + 32, 'sh_size'),
            link: b.u32(at + 40, 'sh_link'),
          }
        : {
            nameAt: b.u32(at, 'sh_name'),
            type: b.u32(at + 4, 'sh_type'),
            offset: b.u32(at + 16, 'sh_offset'),
            size: b.u32(at + 20, 'sh_size'),
            link: b.u32(at + 24, 'sh_link'),
          },
    );
  }
  const strtab = shstrndx < raw.length ? raw[shstrndx] : undefined;
  const names = strtab
    ? checkedRange(bytes, '.shstrtab', strtab.offset, strtab.size, shoff + shstrndx * entry)
    : new Uint8Array(0);
  const sections = raw.map((s, index): ElfSection => {
    if (strtab && s.nameAt >= names.length && !(index === 0 && s.nameAt === 0))
      fail(Messages.elfSectionName, shoff + index * entry, index, s.nameAt, names.length);
    return {
      index,
      name: strtab ? cString(names, s.nameAt) : '',
      type: s.type,
      offset: s.offset,
      size: s.size,
      link: s.link,
    };
  });
  return { ...base, sections };
}

/** `size` bytes at `offset`, or a ByteError naming the section header that claimed them. */
function checkedRange(bytes: Uint8Array, name: string, offset: number, size: number, headerAt: number): Uint8Array {
  if (offset > bytes.length || size > bytes.length - offset)
    fail(Messages.elfSectionData, headerAt, name, size, offset, bytes.length);
  return bytes.subarray(offset, offset + size);
}

const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** A NUL-terminated string (or the rest of the table when it has no NUL), as latin-1-safe UTF-8. */
function cString(table: Uint8Array, at: number): string {
  let end = at;
  while (end < table.length && table[end] !== 0) end++;
  return UTF8.decode(table.subarray(at, end));
}

/** A section's bytes (SHT_NOBITS and the null section have none). */
export function sectionBytes(elf: ElfFile, s: ElfSection): Uint8Array {
  if (s.type === 8 || s.index === 0) return new Uint8Array(0);
  return checkedRange(elf.bytes, s.name, s.offset, s.size, s.offset);
}

/** The notes of one SHT_NOTE section, each name and description 4-byte padded as ELF has them. */
export function notesOf(elf: ElfFile, s: ElfSection): ElfNote[] {
  const data = sectionBytes(elf, s);
  const b = new Bytes(data);
  const notes: ElfNote[] = [];
  let at = 0;
  // Each round moves `at` forward by at least 12 bytes, so the loop ends within data.length / 12 rounds.
  while (at + 12 <= data.length) {
    const namesz = b.u32(at, 'n_namesz');
    const descsz = b.u32(at + 4, 'n_descsz');
    const type = b.u32(at + 8, 'n_type');
    const nameAt = at + 12;
    const descAt = nameAt + pad4(namesz);
    if (pad4(namesz) > data.length - nameAt)
      fail(Messages.elfNote, s.offset + at, s.name, namesz, data.length - nameAt);
    if (descsz > data.length - descAt) fail(Messages.elfNote, s.offset + at + 4, s.name, descsz, data.length - descAt);
    const name = cString(data.subarray(nameAt, nameAt + namesz), 0);
    notes.push({ name, type, desc: data.subarray(descAt, descAt + descsz), descOffset: s.offset + descAt });
    at = descAt + pad4(descsz);
  }
  return notes;
}

const pad4 = (n: number): number => n + ((4 - (n % 4)) % 4);
