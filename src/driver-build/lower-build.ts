// Lowering OpenCL C for a driver: the plan kernarg packs launches with, and the build input the
// driver compiles, made from one reading of the files (so both see the same header bytes).
import type { FileHost } from '../frontend/opencl-c/preprocessor.js';
import { type LowerResult, lowerPlan } from '../lower.js';
import { type BuildFlag, type BuildInput, frontendOptions, recordingHost } from '../build-input/build-input.js';
import { normalize } from '../build-input/paths.js';

/** Lowers `source` for the opencl target with `flags`, recording every header it reads into the build input. */
export function lowerForDriver(
  path: string,
  source: string,
  host: FileHost,
  flags: readonly BuildFlag[],
  extra?: string,
): { readonly result: LowerResult; readonly input: BuildInput } {
  const rec = recordingHost(host);
  const result = lowerPlan(path, source, rec.host, { target: 'opencl', ...frontendOptions({ flags }) });
  return {
    result,
    input: { path, source, headers: rec.headers, flags: [...flags], ...(extra?.trim() ? { extra: extra.trim() } : {}) },
  };
}

/**
 * Lowers a portable build input from its own tree (the main file and headers held in memory, paths
 * relative to the tree's root), so names the plan spells from a path (clang's `struct (unnamed at
 * <file>:l:c)`) carry the tree's relative path rather than the generating machine's absolute one.
 */
export function lowerPortable(input: BuildInput): LowerResult {
  const files = new Map<string, string>([[normalize(input.path), input.source]]);
  for (const [p, text] of Object.entries(input.headers)) files.set(normalize(p), text);
  const host: FileHost = { readFile: (p) => files.get(normalize(p)) };
  return lowerPlan(input.path, input.source, host, { target: 'opencl', ...frontendOptions(input) });
}
