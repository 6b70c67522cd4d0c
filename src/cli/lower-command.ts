import { UsageError } from './args.js';
import { type CliIO, includeHost } from './io.js';
import { lowerBatch } from './lower-batch.js';
import { lowerPrepared, writeReported } from './lower-one.js';
import { lowerSettings, readPrepared } from './lower-settings.js';

export { LOWER_OPTIONS, type PreparedLower, prepareLower } from './lower-settings.js';

export function lowerCommand(argv: readonly string[], io: CliIO): number {
  const settings = lowerSettings(argv, io);
  if (typeof settings === 'number') return settings;
  if (settings.outputDir !== undefined) return lowerBatch(settings, settings.outputDir, io);
  const prepared = readPrepared(settings, 0, io);
  if (typeof prepared === 'number') return prepared;
  const output = lowerPrepared(prepared, includeHost(io), io);
  if (output === undefined) return 1;
  if (prepared.outPath === undefined) {
    if (output instanceof Uint8Array) io.stdout(output as unknown as string);
    else writeInBatches(output, io);
    return 0;
  }
  if (!io.writeFile) throw new UsageError('this environment cannot write files: leave out -o');
  return writeReported(io, prepared.outPath, output) ? 0 : 1;
}

/** Writes pieces joined into writes of about 1 MiB (one system call per piece would cost more than the join). */
function writeInBatches(chunks: Iterable<string>, io: CliIO): void {
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
