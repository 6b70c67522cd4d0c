// `kernarg lower <binary>`: a compiled kernel (an AMDGPU code object, a zebin) in place of a
// source. Its reader gives the plan, the target is the binary's (a --target that disagrees is a
// usage error), and the plan prints in the formats a read plan has: table, json, and a zebin's
// ze-info. Source inputs (.cl, .ir, -x, several inputs, standard input) never come here.
import { escapeControls } from '../diagnostics/format.js';
import { emitJson } from '../emit/json.js';
import { binaryReaderFor } from '../readers/index.js';
import { isElf } from '../readers/elf.js';
import { readBinary } from '../readers/index.js';
import { type AbiPlan, targetNamed } from '../targets/index.js';
import { emitZeInfo } from '../targets/zebin/ze-info.js';
import { emitPtxEntries } from '../targets/cuda/ptx.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { didYouMean } from '../text/closest-name.js';
import { UsageError, parseArgs } from './args.js';
import { type CliIO, readText } from './io.js';
import { writeReported } from './lower-one.js';
import { LOWER_OPTIONS } from './lower-settings.js';

/** The options that apply to a compiled kernel's plan. */
const BINARY_OPTIONS = new Set(['target', 'format', 'output', 'color', 'no-warnings', 'Werror']);

/** The formats a plan read from a binary prints in, per target (the rest need a source). */
function binaryFormats(target: AbiPlan['target']): readonly string[] {
  return target === 'zebin'
    ? ['table', 'json', 'ze-info']
    : target === 'cuda'
      ? ['table', 'json', 'ptx']
      : ['table', 'json'];
}

function render(plan: AbiPlan, format: string): string {
  if (format === 'json') return emitJson(plan);
  if (format === 'ze-info' && plan.target === 'zebin') return emitZeInfo(plan);
  if (format === 'ptx' && plan.target === 'cuda') return emitPtxEntries(plan);
  return targetNamed(plan.target)!.table(plan);
}

/**
 * Lowers a compiled kernel given as the one input, or returns undefined when the input is not
 * one (the source path then reads it and says what it is).
 */
export function lowerBinary(argv: readonly string[], io: CliIO): number | undefined {
  const args = parseArgs(argv, LOWER_OPTIONS);
  const paths = args.positionals;
  if (
    paths.length !== 1 ||
    paths[0] === '-' ||
    args.values.has('language') ||
    args.values.has('output-dir') ||
    /\.(cl|ir)$/.test(paths[0])
  )
    return undefined;
  const path = paths[0];
  const read = readText(io, path);
  if ('error' in read || read.bytes === undefined) return undefined;
  const bytes = read.bytes;
  const reader = binaryReaderFor(bytes);
  if (!reader && !isElf(bytes)) return undefined;
  const target = args.values.get('target') as string | undefined;
  const named = reader
    ? reader.kind === 'zebin'
      ? 'a zebin'
      : `${/^[AEIOU]/.test(reader.kind) ? 'an' : 'a'} ${reader.kind}`
    : '';
  if (reader && target !== undefined && !reader.targets.includes(target as AbiPlan['target']))
    throw new UsageError(
      `'${escapeControls(path)}' is ${named} (target ${reader.targets.join(' or ')}): leave out --target, or give ` +
        `--target ${reader.targets[0]}, not '${target}'`,
    );
  // Options that shape a lowering (-D, -I, --cl-std, --device, --code-object, ...) have nothing to
  // act on: the binary was compiled already. Saying so beats ignoring them.
  const shaping = reader ? [...args.values.keys()].find((k) => !BINARY_OPTIONS.has(k)) : undefined;
  if (shaping !== undefined)
    throw new UsageError(`--${shaping} applies to source input; '${escapeControls(path)}' is a compiled kernel`);
  const format = (args.values.get('format') as string | undefined) ?? 'table';
  const formats = reader ? [...new Set(reader.targets.flatMap(binaryFormats))] : [];
  if (reader && !formats.includes(format)) {
    throw new UsageError(
      `format '${format}' is not available for a binary of target '${reader.targets.join("' or '")}' (choose ` +
        `from ${formats.join(', ')})${didYouMean(format, formats)}`,
    );
  }
  const result = readBinary(bytes, path);
  // A text format's reader (PTX) points at line:col with a code frame; a binary's at a byte offset.
  for (const d of result.diagnostics)
    io.stderr(
      d.span
        ? formatDiagnostics([d], { color: io.color })
        : `${escapeControls(path)}: ${d.severity}: ${escapeControls(d.message)} [${d.code}]\n`,
    );
  if (!result.plan) return 1;
  if (target !== undefined && result.plan.target !== target)
    throw new UsageError(
      `'${escapeControls(path)}' holds a ${result.plan.target} plan (${reader!.kind}): leave out --target, or give ` +
        `--target ${result.plan.target}, not '${target}'`,
    );
  if (!binaryFormats(result.plan.target).includes(format))
    throw new UsageError(
      `format '${format}' is not available for a binary of target '${result.plan.target}' (choose ` +
        `from ${binaryFormats(result.plan.target).join(', ')})`,
    );
  const text = render(result.plan, format);
  const outPath = args.values.get('output') as string | undefined;
  if (outPath === undefined) {
    io.stdout(text);
    return 0;
  }
  if (!io.writeFile) throw new UsageError('this environment cannot write files: leave out -o');
  return writeReported(io, outPath, [text]) ? 0 : 1;
}
