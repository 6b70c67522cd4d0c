import { UsageError } from './args.js';
import { type CliIO, inBatches, includeHost } from './io.js';
import { lowerBatch } from './lower-batch.js';
import { lowerBinary } from './lower-binary.js';
import { lowerPrepared, writeReported } from './lower-one.js';
import { lowerSettings, readPrepared } from './lower-settings.js';

export { LOWER_OPTIONS, type PreparedLower, prepareLower } from './lower-settings.js';

export function lowerCommand(argv: readonly string[], io: CliIO): number {
  // A compiled kernel (an ELF code object or zebin) is read, not lowered.
  const binary = lowerBinary(argv, io);
  if (binary !== undefined) return binary;
  const settings = lowerSettings(argv, io);
  if (typeof settings === 'number') return settings;
  if (settings.outputDir !== undefined) return lowerBatch(settings, settings.outputDir, io);
  const prepared = readPrepared(settings, 0, io);
  if (typeof prepared === 'number') return prepared;
  const output = lowerPrepared(prepared, includeHost(io), io);
  if (output === undefined) return 1;
  if (prepared.outPath === undefined) {
    if (output instanceof Uint8Array) io.stdout(output as unknown as string);
    else if (io.stdoutPieces) io.stdoutPieces(output);
    else for (const text of inBatches(output)) if (text) io.stdout(text);
    return 0;
  }
  if (!io.writeFile) throw new UsageError('this environment cannot write files: leave out -o');
  return writeReported(io, prepared.outPath, output) ? 0 : 1;
}
