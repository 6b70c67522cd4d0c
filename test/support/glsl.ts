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

/**
 * A shader's source file (test/shaders/<name>.comp, or .hlsl for glslang's HLSL front end) and glslang's arguments for
 * it.
 */
export function shaderSource(name: string): { path: string; text: string; args: string[] } {
  const hlsl = join(SHADER_DIR, `${name}.hlsl`);
  if (existsSync(hlsl))
    return { path: hlsl, text: readFileSync(hlsl, 'utf8'), args: ['-V', '-D', '-e', 'main', '-S', 'comp'] };
  const comp = join(SHADER_DIR, `${name}.comp`);
  return { path: comp, text: readFileSync(comp, 'utf8'), args: ['-V'] };
}

/** The cached module of a source: named by the SHA-256 of glslang's arguments and the source. */
export function spvCachePath(source: string, args: readonly string[] = ['-V']): string {
  return join(
    SPV_CACHE,
    `${createHash('sha256').update(args.join('\0')).update('\0').update(source).digest('hex').slice(0, 32)}.spv`,
  );
}

/**
 * The SPIR-V of a test shader: from the cache, else compiled with `glslang` (undefined: not cached and no compiler
 * given).
 */
export function shaderSpirv(name: string, glslang: string | undefined): Uint8Array | undefined {
  const src = shaderSource(name);
  const cached = spvCachePath(src.text, src.args);
  if (!existsSync(cached)) {
    if (!glslang) return undefined;
    mkdirSync(SPV_CACHE, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    execFileSync(glslang, [...src.args, src.path, '-o', tmp], { stdio: ['ignore', 'pipe', 'pipe'] });
    renameSync(tmp, cached);
  }
  return new Uint8Array(readFileSync(cached));
}
