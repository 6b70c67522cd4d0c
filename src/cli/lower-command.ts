import { escapeControls, formatDiagnostics } from '../diagnostics/format.js';
import { lower } from '../lower.js';
import { UsageError } from './args.js';
import { type CliIO, includeHost } from './io.js';
import { lowerBatch } from './lower-batch.js';
import { lowerSettings, readPrepared } from './lower-settings.js';

export { LOWER_OPTIONS, type PreparedLower, prepareLower } from './lower-settings.js';

export function lowerCommand(argv: readonly string[], io: CliIO): number {
  const settings = lowerSettings(argv, io);
  if (typeof settings === 'number') return settings;
  if (settings.outputDir !== undefined) return lowerBatch(settings, settings.outputDir, io);
  const prepared = readPrepared(settings, 0, io);
  if (typeof prepared === 'number') return prepared;
  // In pieces: a JSON plan of hundreds of thousands of kernels can be longer than one string may be.
  const result = lower(prepared.path, prepared.text, includeHost(io), { ...prepared.options, chunked: true });
  const shown = prepared.noWarnings ? result.diagnostics.filter((d) => d.severity === 'error') : result.diagnostics;
  if (shown.length) io.stderr(formatDiagnostics(shown, { color: prepared.color }));
  if (result.binary === undefined && result.chunks === undefined) return 1;
  if (prepared.warningsAreErrors && shown.length) return 1;
  if (prepared.outPath === undefined) {
    if (result.binary !== undefined) io.stdout(result.binary as unknown as string);
    else writeInBatches(result.chunks!, io);
    return 0;
  }
  if (!io.writeFile) throw new UsageError('this environment cannot write files: leave out -o');
  try {
    io.writeFile(prepared.outPath, result.binary ?? result.chunks!.join(''));
  } catch (e) {
    io.stderr(`kernarg: error: cannot write '${escapeControls(prepared.outPath)}': ${(e as Error).message}
`);
    return 1;
  }
  return 0;
}

/** Writes pieces joined into writes of about 1 MiB (one system call per piece would cost more than the join). */
function writeInBatches(chunks: readonly string[], io: CliIO): void {
  let batch: string[] = [];
  let length = 0;
  for (const c of chunks) {
    batch.push(c);
    length += c.length;
    if (length >= 1 << 20) {
      io.stdout(batch.join(''));
      batch = [];
      length = 0;
    }
  }
  if (batch.length) io.stdout(batch.join(''));
}
