/**
 * The readers of compiled kernels: one record per binary format, each telling its input apart by
 * the file's bytes (magic numbers and the ELF machine, not the file's name) and reading it into
 * the plan its target produces. `readBinary` picks the first record whose `matches` is true.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { Messages } from '../diagnostics/messages.js';
import type { AbiPlan, TargetName } from '../targets/index.js';
import { EM_AMDGPU, readAmdgpuCodeObject } from './amdgpu-code-object.js';
import { byteDiagnostic, caught } from './byte-error.js';
import { isElf, readElf } from './elf.js';
import { EM_INTEL_GEN, readZebin } from './zebin.js';
import { readPtx } from './ptx.js';
import { EM_CUDA, readCubin } from './cubin.js';
import { readSpirv } from './spirv.js';

export interface ReadBinaryResult {
  readonly plan?: AbiPlan;
  readonly diagnostics: Diagnostic[];
}

export interface BinaryReader {
  /** What the reader reads, in words (for messages and --help). */
  readonly kind: string;
  /** The targets whose plans it produces (SPIR-V: vulkan for a GLCompute shader, opencl for an OpenCL kernel). */
  readonly targets: readonly TargetName[];
  /** Whether the bytes are this reader's format (cheap: magic numbers only). */
  matches(bytes: Uint8Array): boolean;
  /**
   * The plan, or diagnostics saying at which byte and why there is none. `path` names the file in nothing but messages.
   */
  read(bytes: Uint8Array, path: string): ReadBinaryResult;
}

/** e_machine, read without trusting anything else in the header. */
function elfMachine(bytes: Uint8Array): number | undefined {
  if (!isElf(bytes) || bytes.length < 20 || bytes[5] !== 1) return undefined;
  return bytes[18] | (bytes[19] << 8);
}

/** SPIR-V's magic number, in either byte order (a module is a stream of 32-bit words of its writer's order). */
function isSpirv(b: Uint8Array): boolean {
  if (b.length < 4) return false;
  const le = (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0;
  const be = (b[3] | (b[2] << 8) | (b[1] << 16) | (b[0] << 24)) >>> 0;
  return le === 0x07230203 || be === 0x07230203;
}

/**
 * PTX text: after blank space and comments, its first directive is `.version` (every PTX module
 * starts so: the ISA requires it before anything else). Only the first 4 KiB are looked at.
 */
function isPtx(b: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(b.subarray(0, 4096));
  const rest = head.replace(/^(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
  return /^\.version\s+\d/.test(rest);
}

export const BINARY_READERS: readonly BinaryReader[] = [
  {
    kind: 'AMDGPU code object',
    targets: ['amdhsa'],
    matches: (b) => elfMachine(b) === EM_AMDGPU,
    read: (b) => readAmdgpuCodeObject(b),
  },
  { kind: 'zebin', targets: ['zebin'], matches: (b) => elfMachine(b) === EM_INTEL_GEN, read: (b) => readZebin(b) },
  { kind: 'SPIR-V module', targets: ['vulkan', 'opencl'], matches: isSpirv, read: (b, path) => readSpirv(b, path) },
  { kind: 'PTX module', targets: ['cuda'], matches: isPtx, read: (b, path) => readPtx(b, path) },
  { kind: 'cubin', targets: ['cuda'], matches: (b) => elfMachine(b) === EM_CUDA, read: (b) => readCubin(b) },
];

/** The reader of these bytes, or undefined when they are no compiled kernel kernarg reads. */
export function binaryReaderFor(bytes: Uint8Array): BinaryReader | undefined {
  return BINARY_READERS.find((r) => r.matches(bytes));
}

/** The plan a binary describes, or a diagnostic: KA7040 when no reader knows its bytes. */
export function readBinary(bytes: Uint8Array, path: string): ReadBinaryResult {
  const reader = binaryReaderFor(bytes);
  if (reader) return reader.read(bytes, path);
  if (isElf(bytes)) {
    // An ELF file no reader claims: its header read in full says why (truncated, big-endian, or another machine's).
    const elf = caught(() => readElf(bytes));
    if (!elf.value) return { diagnostics: elf.diagnostics };
    return {
      diagnostics: [
        byteDiagnostic(Messages.binaryUnknown, [
          `an ELF file for machine ${elf.value.machine}, neither AMDGPU (${EM_AMDGPU}) nor Intel GPU (${EM_INTEL_GEN})`,
        ]),
      ],
    };
  }
  return { diagnostics: [byteDiagnostic(Messages.binaryUnknown, ['no magic number kernarg knows'])] };
}
