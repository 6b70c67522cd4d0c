// `kernarg lower --output-dir DIR a.cl b.cl …`: many inputs in one call, each output to its own
// file. A build that lowers every kernel file pays Node's start-up and the loading of kernarg once
// instead of once per file (start-up alone is about as long as clang takes for a small file).
import { basename, extname, join, resolve } from 'node:path';
import { escapeControls } from '../diagnostics/format.js';
import { UsageError } from './args.js';
import { type FormatName, isFormatName } from '../targets/format-names.js';
import { type CliIO, includeHost } from './io.js';
import { lowerPrepared, writeReported } from './lower-one.js';
import { type LowerSettings, readPrepared } from './lower-settings.js';

/** The file extension of each output format (the table formats and signatures are text). */
export const FORMAT_EXTENSIONS = {
  table: 'txt',
  json: 'json',
  signatures: 'txt',
  'opencl-c': 'cl',
  'llvm-ir': 'll',
  clrx: 'clrx',
  'descriptor-map': 'csv',
  spirv: 'spv',
  'spirv-asm': 'spvasm',
  ptx: 'ptx',
  'ze-info': 'yaml',
} as const satisfies Record<FormatName, string>;

/** Where input `path`'s output goes: DIR/<name without its extension>.<format's extension>. */
export function batchOutputPath(dir: string, path: string, format: string): string {
  const ext = isFormatName(format) ? FORMAT_EXTENSIONS[format] : undefined;
  if (ext === undefined) throw new UsageError(`--output-dir: format '${format}' has no file extension`);
  const name = basename(path);
  const stem = extname(name) ? name.slice(0, -extname(name).length) : name;
  return join(dir, `${stem}.${ext}`);
}

/**
 * Lowers every input of `settings`, each output to its own file under `dir`. An input that cannot
 * be read or lowered is reported and the others go on; the exit code is 1 when any failed.
 */
export function lowerBatch(settings: LowerSettings, dir: string, io: CliIO): number {
  if (!io.writeFile) throw new UsageError('this environment cannot write files: leave out --output-dir');
  const outputs = settings.paths.map((p) => batchOutputPath(dir, p, settings.format));
  const inputs = new Set(settings.paths.map((p) => resolve(p)));
  const seen = new Map<string, string>();
  settings.paths.forEach((p, i) => {
    const out = resolve(outputs[i]);
    const other = seen.get(out);
    if (other !== undefined)
      throw new UsageError(
        `'${escapeControls(other)}' and '${escapeControls(p)}' would both write '${escapeControls(outputs[i])}'`,
      );
    if (inputs.has(out))
      throw new UsageError(
        `the output of '${escapeControls(p)}' would overwrite the input '${escapeControls(outputs[i])}'`,
      );
    seen.set(out, p);
  });
  // Include files are read once for the whole batch (a kernel library included by every file).
  const host = includeHost(io);
  const included = new Map<string, ReturnType<typeof host.readFile>>();
  const cachedHost: typeof host = {
    readFile: (path) => {
      if (!included.has(path)) included.set(path, host.readFile(path));
      return included.get(path);
    },
  };
  let failed = 0;
  for (let i = 0; i < settings.paths.length; i++) {
    const prepared = readPrepared(settings, i, io);
    if (typeof prepared === 'number') {
      failed++;
      continue;
    }
    const output = lowerPrepared(prepared, cachedHost, io);
    if (output === undefined || !writeReported(io, outputs[i], output)) failed++;
  }
  return failed ? 1 : 0;
}
