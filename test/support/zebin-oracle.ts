// The zebin oracle: Intel's offline compiler (ocloc, from intel-opencl-icd) compiles OpenCL C for
// an Intel GPU into a zebin, an ELF whose `.ze_info` section is YAML listing each kernel's
// `payload_arguments`. Here: running ocloc, reading the section with a small ELF reader, and the
// payload entries of each kernel, from ocloc's YAML and from kernarg's `--format ze-info` alike.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** ocloc has no --version; --help exits 0. */
export const OCLOC = ['ocloc'];
export const OCLOC_PROBE = ['--help'];

/** The bytes of the section named `name` of a 64-bit little-endian ELF file, or undefined. */
export function elfSection(elf: Uint8Array, name: string): Uint8Array | undefined {
  const v = new DataView(elf.buffer, elf.byteOffset, elf.byteLength);
  if (v.getUint32(0) !== 0x7f454c46 || elf[4] !== 2 || elf[5] !== 1)
    throw new Error('not a 64-bit little-endian ELF file');
  const shoff = Number(v.getBigUint64(0x28, true));
  const shentsize = v.getUint16(0x3a, true);
  const shnum = v.getUint16(0x3c, true);
  const shstrndx = v.getUint16(0x3e, true);
  const header = (i: number) => {
    const at = shoff + i * shentsize;
    return {
      name: v.getUint32(at, true),
      offset: Number(v.getBigUint64(at + 0x18, true)),
      size: Number(v.getBigUint64(at + 0x20, true)),
    };
  };
  const strtab = header(shstrndx);
  const nameAt = (off: number) => {
    let end = strtab.offset + off;
    while (elf[end] !== 0) end++;
    return new TextDecoder().decode(elf.subarray(strtab.offset + off, end));
  };
  for (let i = 0; i < shnum; i++) {
    const h = header(i);
    if (nameAt(h.name) === name) return elf.subarray(h.offset, h.offset + h.size);
  }
  return undefined;
}

/** One payload entry: its `key: value` pairs in order. */
export type ZeEntry = readonly (readonly [string, string])[];

/**
 * Each kernel's `payload_arguments` from `.ze_info` YAML (llvm::yaml's output, or kernarg's
 * ze-info format): kernel name to its entries (an empty list where the kernel has none). Reads
 * only the `kernels:` list; IGC's own `Intel_Symbol_Table_Void_Program` entry is left out.
 */
export function payloadArguments(yaml: string): Map<string, ZeEntry[]> {
  const out = new Map<string, ZeEntry[]>();
  let inKernels = false;
  let kernel: ZeEntry[] | undefined;
  let inPayload = false;
  let entry: [string, string][] | undefined;
  for (const line of yaml.split('\n')) {
    if (/^\S/.test(line)) {
      inKernels = line.startsWith('kernels:');
      kernel = undefined;
      continue;
    }
    if (!inKernels) continue;
    const k = /^  - name:\s+(.*)$/.exec(line);
    if (k) {
      kernel = [];
      if (k[1] !== 'Intel_Symbol_Table_Void_Program') out.set(k[1], kernel);
      inPayload = false;
      continue;
    }
    if (/^    \S/.test(line)) {
      inPayload = line.startsWith('    payload_arguments:');
      continue;
    }
    if (!inPayload || !kernel) continue;
    const m = /^      ([- ]) (\w+):\s+(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === '-') kernel.push((entry = []));
    entry?.push([m[2], m[3].replace(/^'(.*)'$/, '$1')]);
  }
  return out;
}

/** An entry as one line, for comparing and for messages. */
export const entryText = (e: ZeEntry): string => e.map(([k, v]) => `${k}=${v}`).join(' ');

/** Why ocloc refused a file (its first error line), or its zebin's `.ze_info` text. */
export type OclocResult = { readonly zeInfo: string } | { readonly refused: string };

/**
 * Compiles OpenCL C with ocloc for `device` (zebin forced on) and returns its `.ze_info` text:
 * `source` written to a scratch file, or the file at `path` where it includes files beside it.
 */
export function runOcloc(
  source: string,
  device: string,
  std = 'CL2.0',
  extra: readonly string[] = [],
  path?: string,
): OclocResult {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-ocloc-'));
  try {
    const file = path ?? join(dir, 'k.cl');
    if (!path) writeFileSync(file, source);
    try {
      // ocloc compiles the text from memory: a file's own folder is not searched for `#include "…"` unless named.
      const own = path ? [`-I${dirname(path)}`] : [];
      execFileSync(
        'ocloc',
        [
          'compile',
          '-file',
          file,
          '-device',
          device,
          '-output_no_suffix',
          '-out_dir',
          join(dir, 'out'),
          '-options',
          [`-cl-std=${std}`, ...extra, ...own].join(' '),
        ],
        {
          env: { ...process.env, IGC_EnableZEBinary: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
          maxBuffer: 64 << 20,
        },
      );
    } catch (e) {
      const err = e as { stdout?: Buffer; stderr?: Buffer; message: string };
      const text = `${err.stdout?.toString() ?? ''}${err.stderr?.toString() ?? ''}` || err.message;
      return {
        refused:
          text
            .split('\n')
            .find((l) => /error:/.test(l))
            ?.trim() ?? text.trim().split('\n')[0],
      };
    }
    const bin = readdirSync(join(dir, 'out')).find((f) => !f.endsWith('.spv'));
    if (!bin) return { refused: 'ocloc wrote no binary' };
    const section = elfSection(readFileSync(join(dir, 'out', bin)), '.ze_info');
    if (!section) return { refused: 'the binary has no .ze_info section (not a zebin)' };
    return { zeInfo: new TextDecoder().decode(section) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
