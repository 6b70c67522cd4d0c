// clang's AMDHSA metadata read from a compiled code object (not from its assembly), as a loader sees it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Compiles `source` with `clang … -c` into a code object and returns `llvm-readelf --file-header
 * --notes` of it: the ELF header (whose ABI version names the code object) and the
 * `NT_AMDGPU_METADATA` note. Throws with clang's or readelf's message.
 */
export function amdhsaNotes(
  clang: string,
  readelf: string,
  source: string,
  args: readonly string[],
  path?: string,
): string {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-amdhsa-'));
  try {
    const file = path ?? join(dir, 'input.cl');
    if (!path) writeFileSync(file, source);
    const object = join(dir, 'k.o');
    try {
      execFileSync(clang, [...args, '-c', '-o', object, file], {
        stdio: ['ignore', 'pipe', 'pipe'],
        maxBuffer: 256 << 20,
      });
    } catch (e) {
      const err = e as { stderr?: Buffer; message: string };
      throw new Error(`clang failed: ${err.stderr?.toString() ?? err.message}\n--- source ---\n${source}`);
    }
    return execFileSync(readelf, ['--file-header', '--notes', object], { encoding: 'utf8', maxBuffer: 256 << 20 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The code object version a header or assembly names: `.amdhsa_code_object_version N` in `-S`
 * output, or the ELF ABI version (2, 3, 4 for code objects 4, 5, 6: LLVM's
 * ELFABIVERSION_AMDGPU_HSA_V4..V6) in readelf's header; undefined where neither is printed
 * (clang-16's assembly has no directive).
 */
export function codeObjectOf(text: string): number | undefined {
  const directive = /\.amdhsa_code_object_version (\d+)/.exec(text);
  if (directive) return Number(directive[1]);
  const abi = /ABI Version:\s+(\d+)/.exec(text);
  return abi ? Number(abi[1]) + 2 : undefined;
}
