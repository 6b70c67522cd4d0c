// One input of `kernarg lower`, shared by the one-file form and the batch: lower it, show its
// diagnostics (-w and -Werror applied), and write an output file, saying why when it cannot.
import { formatDiagnostics } from '../diagnostics/format.js';
import { Messages } from '../diagnostics/messages.js';
import { fileDiagnostic } from './file-diagnostics.js';
import type { FileHost } from '../frontend/opencl-c/preprocessor.js';
import { lower } from '../lower.js';
import { type CliIO, writeOutput } from './io.js';
import type { PreparedLower } from './lower-settings.js';

/**
 * The output of one prepared input (binary, or text in pieces), or undefined when it failed; its diagnostics go to
 * stderr.
 */
export function lowerPrepared(
  prepared: PreparedLower,
  host: FileHost,
  io: CliIO,
): Uint8Array | Iterable<string> | undefined {
  // In pieces: a JSON plan of hundreds of thousands of kernels can be longer than one string may be;
  // JSON's made one by one as they are written (streamed), so none is kept after its write.
  const result = lower(prepared.path, prepared.text, host, { ...prepared.options, chunked: true, streamed: true });
  const shown = prepared.noWarnings ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
  if (shown.length) io.stderr(formatDiagnostics(shown, { color: prepared.color }));
  const output = result.binary ?? result.pieces ?? result.chunks;
  if (output === undefined) return undefined;
  if (prepared.warningsAreErrors && shown.length) return undefined;
  return output;
}

/** Writes an output file; false, after saying why, when it cannot be written. */
export function writeReported(io: CliIO, path: string, data: Uint8Array | Iterable<string>): boolean {
  try {
    writeOutput(io, path, data);
    return true;
  } catch (e) {
    io.stderr(fileDiagnostic(path, Messages.cannotWriteOutput, [(e as Error).message]));
    return false;
  }
}
