import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readBinary } from '../../../src/readers/index.js';
import { SAMPLE_KERNELS, buildCubin } from '../../support/cubin-image.js';

// Fuzz target: the binary readers (ELF, msgpack, AMDGPU code object metadata, zebin's .ze_info,
// a cubin's .nv.info records).
// The input is read as a binary itself, and as a recipe of changes to a real code object or zebin
// (a truncation, or byte patches), so mutations reach the notes and the YAML past a valid header.
// Any answer but a plan or diagnostics with a reader code naming a byte is a bug.

const HERE = join(import.meta.dirname, '..', '..', 'readers');
const BASES = [
  'code-objects/kinds.16.co4.o',
  'code-objects/kinds.19.co5.o',
  'code-objects/kinds.22.co6.o',
  'zebins/hand-images.pvc.zebin',
  'zebins/hand-builtins.tgllp.zebin',
  'cubins/nvcc-kernels.sm_90.cubin',
]
  .map((f): Uint8Array => new Uint8Array(readFileSync(join(HERE, f))))
  // A hand-built cubin beside nvcc's: the builder's records are small, so mutations reach them more often.
  .concat([buildCubin(SAMPLE_KERNELS)]);

function check(bytes: Uint8Array): void {
  const r = readBinary(bytes, 'fuzz.bin');
  if (r.plan) return;
  if (!r.diagnostics.length) throw new Error('no plan and no diagnostic');
  for (const d of r.diagnostics) {
    if (!/^KA7[04]\d\d$/.test(d.code)) throw new Error(`a diagnostic outside the readers' codes: ${d.code}`);
    if (!/^at byte \d+: /.test(d.message)) throw new Error(`a diagnostic without its byte: ${d.message}`);
  }
}

export function fuzz(data: Uint8Array): void {
  check(data);
  if (data.length < 4) return;
  const base = BASES[data[0] % BASES.length];
  if (data[1] % 4 === 0) {
    check(base.subarray(0, ((data[2] | (data[3] << 8)) * 3) % base.length));
    return;
  }
  const bytes = base.slice();
  for (let i = 2; i + 2 < data.length; i += 3) {
    const word = data[i] | (data[i + 1] << 8);
    // The high bit aims at the header and section headers; the rest anywhere.
    const at = word & 0x8000 ? word & 0x7f : (word * 5) % bytes.length;
    bytes[at] = data[i + 2];
  }
  check(bytes);
}
