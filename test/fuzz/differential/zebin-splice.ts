// A zebin with its `.ze_info` section replaced: the emitted YAML appended to a real zebin that
// ocloc wrote for the same device, and the section header pointed at it, so the zebin reader reads
// what `--format ze-info` printed exactly as it reads ocloc's own section.
import { readElf } from '../../../src/readers/elf.js';

export function withZeInfo(zebin: Uint8Array, zeInfo: Uint8Array): Uint8Array {
  const elf = readElf(zebin);
  if (elf.bits !== 64) throw new Error('a zebin is ELF64');
  const section = elf.sections.find((s) => s.name === '.ze_info');
  if (!section) throw new Error('the base zebin has no .ze_info');
  const view = new DataView(zebin.buffer, zebin.byteOffset, zebin.byteLength);
  const shoff = Number(view.getBigUint64(0x28, true));
  const shentsize = view.getUint16(0x3a, true);
  const at = Math.ceil(zebin.length / 8) * 8;
  const out = new Uint8Array(at + zeInfo.length);
  out.set(zebin, 0);
  out.set(zeInfo, at);
  const o = new DataView(out.buffer);
  const header = shoff + section.index * shentsize;
  o.setBigUint64(header + 0x18, BigInt(at), true);
  o.setBigUint64(header + 0x20, BigInt(zeInfo.length), true);
  return out;
}
