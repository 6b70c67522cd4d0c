import { SourceFile } from '../../src/diagnostics/source.js';
import { compileOpenCL, type OpenCLFrontendOptions } from '../../src/frontend/opencl-c/index.js';
import type { FileHost } from '../../src/frontend/opencl-c/preprocessor.js';

/**
 * A frontend result as plain data: source files by path (every run makes its own SourceFile
 * objects), an object met again inside itself by the path it was first met at (types refer to
 * themselves).
 */
export function fingerprint(value: unknown): string {
  const open = new Map<object, string>();
  const walk = (v: unknown, path: string): unknown => {
    if (v instanceof SourceFile) return `<file ${v.path}>`;
    if (typeof v === 'bigint') return `${v}n`;
    if (v === null || typeof v !== 'object') return v;
    const again = open.get(v);
    if (again !== undefined) return `<cycle to ${again}>`;
    open.set(v, path);
    let out: unknown;
    if (v instanceof Map) out = [...v].map(([k, x], i) => [walk(k, `${path}.k${i}`), walk(x, `${path}.v${i}`)]);
    else if (v instanceof Set) out = [...v].map((x, i) => walk(x, `${path}[${i}]`));
    else if (Array.isArray(v)) out = v.map((x, i) => walk(x, `${path}[${i}]`));
    else {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(v)) o[k] = walk((v as Record<string, unknown>)[k], `${path}.${k}`);
      out = o;
    }
    open.delete(v);
    return out;
  };
  return JSON.stringify(walk(value, '$'));
}

/**
 * The module and diagnostics of one source read both ways: bodies skipped at the character level, and token by token.
 */
export function compileBothWays(
  path: string,
  text: string,
  host: FileHost,
  options: OpenCLFrontendOptions,
): { skipped: string; tokens: string; skippedBodies: number } {
  const skipped = compileOpenCL(new SourceFile(path, text), host, { ...options, skipBodies: true });
  const tokens = compileOpenCL(new SourceFile(path, text), host, { ...options, skipBodies: false });
  return {
    skipped: fingerprint({ module: skipped.module, diagnostics: skipped.diagnostics.items }),
    tokens: fingerprint({ module: tokens.module, diagnostics: tokens.diagnostics.items }),
    skippedBodies: skipped.skippedBodies ?? 0,
  };
}
