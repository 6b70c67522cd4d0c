// One input of `kernarg lower`, shared by the one-file form and the batch: lower it, show its
// diagnostics (-w and -Werror applied), and write an output file, saying why when it cannot.
import { escapeControls, formatDiagnostics } from '../diagnostics/format.js';
import type { FileHost } from '../frontend/opencl-c/preprocessor.js';
import { lower } from '../lower.js';
import { type CliIO, writeOutput } from './io.js';
import type { PreparedLower } from './lower-settings.js';

/** The output of one prepared input (binary, or text in pieces), or undefined when it failed; its diagnostics go to stderr. */
export function lowerPrepared(prepared: PreparedLower, host: FileHost, io: CliIO): Uint8Array | readonly string[] | undefined {
  // In pieces: a JSON plan of hundreds of thousands of kernels can be longer than one string may be.
  const result = lower(prepared.path, prepared.text, host, { ...prepared.options, chunked: true });
  const shown = prepared.noWarnings ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
  if (shown.length) io.stderr(formatDiagnostics(shown, { color: prepared.color }));
  if (result.binary === undefined && result.chunks === undefined) return undefined;
  if (prepared.warningsAreErrors && shown.length) return undefined;
  return result.binary ?? result.chunks;
}

/** Writes an output file; false, after saying why, when it cannot be written. */
export function writeReported(io: CliIO, path: string, data: Uint8Array | readonly string[]): boolean {
  try {
    writeOutput(io, path, data);
    return true;
  } catch (e) {
    io.stderr(`kernarg: error: cannot write '${escapeControls(path)}': ${(e as Error).message}\n`);
    return false;
  }
}
