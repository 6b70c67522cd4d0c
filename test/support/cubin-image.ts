// Hand-built cubins for the cubin reader's tests and fuzz target (nothing on this machine makes
// real ones: no ptxas). An ELF of e_machine EM_CUDA (190) with NVIDIA's OS ABI (0x33), a
// `.nv.info` section, and per kernel a `.text.<kernel>` and a `.nv.info.<kernel>` whose EIATTR
// records are laid out as the driver's cubins have them: EIATTR_CBANK_PARAM_SIZE (HVAL), an NVAL
// record, EIATTR_PARAM_CBANK (SVAL, 8 bytes), then EIATTR_KPARAM_INFO (SVAL, 12 bytes) per
// parameter, last ordinal first, its size in the flags word's top 14 bits.

export interface CubinParam {
  readonly ordinal: number;
  readonly offset: number;
  readonly size: number;
}

export interface CubinKernel {
  readonly name: string;
  readonly params: readonly CubinParam[];
  /** EIATTR_CBANK_PARAM_SIZE; default the end of the last parameter. */
  readonly paramSize?: number;
}

const SHT_PROGBITS = 1;
const SHT_STRTAB = 3;
const SHT_CUDA_INFO = 0x70000000;

/** The EIATTR records of one kernel's `.nv.info.<kernel>` section. */
export function nvInfoRecords(k: CubinKernel): Uint8Array {
  const end = k.params.reduce((m, p) => Math.max(m, p.offset + p.size), 0);
  const bytes: number[] = [];
  const u16 = (v: number) => bytes.push(v & 0xff, (v >> 8) & 0xff);
  const u32 = (v: number) => {
    u16(v & 0xffff);
    u16(v >>> 16);
  };
  // EIATTR_CBANK_PARAM_SIZE (0x19), HVAL.
  bytes.push(3, 0x19);
  u16(k.paramSize ?? end);
  // EIATTR_CTAIDZ_USED (0x04), NVAL: no value, padded to 4 bytes.
  bytes.push(1, 0x04, 0, 0);
  // EIATTR_PARAM_CBANK (0x0a), SVAL of 8: the constant0 section's symbol, the bank offset and size.
  bytes.push(4, 0x0a);
  u16(8);
  u32(5);
  u16(0x210);
  u16(k.paramSize ?? end);
  for (const p of [...k.params].reverse()) {
    bytes.push(4, 0x17);
    u16(12);
    u32(0);
    u16(p.ordinal);
    u16(p.offset);
    // Size in bits 18..31; bits 12..16 set as the driver's cubins have them (the constant bank).
    u32(((p.size << 18) | 0x1f000) >>> 0);
  }
  return Uint8Array.from(bytes);
}

interface Section {
  readonly name: string;
  readonly type: number;
  readonly data: Uint8Array;
}

/**
 * A whole cubin: ELF64 (or ELF32 with `bits: 32`) little-endian, section headers at the end. Its
 * e_flags name `sm` as ptxas 13.0 writes them (ELF ABI version 8: the sm in bits 8-15, 0x6005a04
 * for sm_90), or with `abi: 7` as toolkits before 12.8 did (the sm in bits 0-7 and 16-23).
 */
export function buildCubin(kernels: readonly CubinKernel[], bits: 32 | 64 = 64, sm = 90, abi: 7 | 8 = 8): Uint8Array {
  const sections: Section[] = [
    { name: '.nv.info', type: SHT_CUDA_INFO, data: Uint8Array.of(4, 0x2f, 8, 0, 0, 0, 0, 0, 0x18, 0, 0, 0) },
  ];
  for (const k of kernels) {
    sections.push({ name: `.nv.info.${k.name}`, type: SHT_CUDA_INFO, data: nvInfoRecords(k) });
    // EXIT and a branch-to-self, as bytes only: the reader never looks at code.
    sections.push({ name: `.text.${k.name}`, type: SHT_PROGBITS, data: new Uint8Array(32).fill(0x4d) });
  }
  const names = ['', '.shstrtab', ...sections.map((s) => s.name)];
  const nameAt = new Map<string, number>();
  let strtab = '';
  for (const n of names) {
    nameAt.set(n, strtab.length);
    strtab += `${n}\0`;
  }
  const all: Section[] = [{ name: '.shstrtab', type: SHT_STRTAB, data: new TextEncoder().encode(strtab) }, ...sections];
  const header = bits === 64 ? 64 : 52;
  const entry = bits === 64 ? 64 : 40;
  const offsets: number[] = [];
  let at = header;
  for (const s of all) {
    at = Math.ceil(at / 8) * 8;
    offsets.push(at);
    at += s.data.length;
  }
  const shoff = Math.ceil(at / 8) * 8;
  const total = shoff + entry * (all.length + 1);
  const out = new Uint8Array(total);
  const v = new DataView(out.buffer);
  out.set([0x7f, 0x45, 0x4c, 0x46, bits === 64 ? 2 : 1, 1, 1, 0x33, abi]);
  const flags = abi === 8 ? (0x6000004 | (sm << 8)) >>> 0 : (sm | (sm << 16) | (bits === 64 ? 0x500 : 0x100)) >>> 0;
  v.setUint16(16, 2, true);
  v.setUint16(18, 190, true);
  v.setUint32(20, 1, true);
  if (bits === 64) {
    v.setBigUint64(40, BigInt(shoff), true);
    v.setUint32(48, flags, true);
    v.setUint16(52, 64, true);
    v.setUint16(54, 56, true);
    v.setUint16(58, entry, true);
    v.setUint16(60, all.length + 1, true);
    v.setUint16(62, 1, true);
  } else {
    v.setUint32(32, shoff, true);
    v.setUint32(36, flags, true);
    v.setUint16(40, 52, true);
    v.setUint16(42, 32, true);
    v.setUint16(46, entry, true);
    v.setUint16(48, all.length + 1, true);
    v.setUint16(50, 1, true);
  }
  all.forEach((s, i) => {
    out.set(s.data, offsets[i]);
    const h = shoff + entry * (i + 1);
    v.setUint32(h, nameAt.get(s.name)!, true);
    v.setUint32(h + 4, s.type, true);
    if (bits === 64) {
      v.setBigUint64(h + 24, BigInt(offsets[i]), true);
      v.setBigUint64(h + 32, BigInt(s.data.length), true);
    } else {
      v.setUint32(h + 16, offsets[i], true);
      v.setUint32(h + 20, s.data.length, true);
    }
  });
  return out;
}

/**
 * The parameters of a kernel with a struct, a vector, pointers, a char then a double and a 32-aligned block after 13
 * bytes.
 */
export const SAMPLE_KERNELS: readonly CubinKernel[] = [
  {
    name: 'mixed',
    params: [
      { ordinal: 0, offset: 0, size: 8 },
      { ordinal: 1, offset: 8, size: 1 },
      { ordinal: 2, offset: 16, size: 8 },
      { ordinal: 3, offset: 32, size: 16 },
      { ordinal: 4, offset: 48, size: 16 },
    ],
  },
  {
    name: 'bank',
    params: [
      { ordinal: 0, offset: 0, size: 13 },
      { ordinal: 1, offset: 16, size: 32 },
    ],
  },
  { name: 'none', params: [] },
];
