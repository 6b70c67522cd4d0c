// GLSL compute shaders compiled by glslangValidator -V, cached by the source's content hash in
// test/.tmp/shader-spv/ (ignored by git; scripts/gpu-vulkan-shaders.sh carries it to a machine
// without glslang). A changed source is a new hash, so a stale module is never read.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

export const GLSLANG = ['glslangValidator'];
export const SHADER_DIR = join(import.meta.dirname, '..', 'shaders');
export const SPV_CACHE = join(import.meta.dirname, '..', '.tmp', 'shader-spv');

/** The cached module of a source: named by the SHA-256 of the source and glslang's arguments. */
export function spvCachePath(source: string): string {
  return join(SPV_CACHE, `${createHash('sha256').update('-V\0').update(source).digest('hex').slice(0, 32)}.spv`);
}

/** The SPIR-V of test/shaders/<name>.comp: from the cache, else compiled with `glslang` (undefined: not cached and no compiler given). */
export function shaderSpirv(name: string, glslang: string | undefined): Uint8Array | undefined {
  const comp = join(SHADER_DIR, `${name}.comp`);
  const cached = spvCachePath(readFileSync(comp, 'utf8'));
  if (!existsSync(cached)) {
    if (!glslang) return undefined;
    mkdirSync(SPV_CACHE, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    execFileSync(glslang, ['-V', comp, '-o', tmp], { stdio: ['ignore', 'pipe', 'pipe'] });
    renameSync(tmp, cached);
  }
  return new Uint8Array(readFileSync(cached));
}

