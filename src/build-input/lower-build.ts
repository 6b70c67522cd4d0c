// Lowering OpenCL C for a driver: the plan kernarg packs launches with, and the build input the
// driver compiles, made from one reading of the files (so both see the same header bytes).
import type { FileHost } from '../frontend/opencl-c/preprocessor.js';
import { type LowerResult, lower } from '../lower.js';
import { type BuildFlag, type BuildInput, frontendOptions, recordingHost } from './build-input.js';

/** Lowers `source` for the opencl target with `flags`, recording every header it reads into the build input. */
export function lowerForDriver(path: string, source: string, host: FileHost, flags: readonly BuildFlag[], extra?: string): { readonly result: LowerResult; readonly input: BuildInput } {
  const rec = recordingHost(host);
  const result = lower(path, source, rec.host, { target: 'opencl', format: 'json', ...frontendOptions({ flags }) });
  return { result, input: { path, source, headers: rec.headers, flags: [...flags], ...(extra?.trim() ? { extra: extra.trim() } : {}) } };
}
