// `kernarg check <source> <binary>`: does this compiled kernel match this source? The binary is
// read (its kind from its bytes), the source lowered for the binary's target with the options the
// binary implies (src/check/implied-flags.ts) and then the user's, and the two plans compared by
// the ABI diff on the facts the binary states (src/check/stated-facts.ts). Exit 0: they agree;
// 3: they differ, each difference a row as `diff` prints it; 1: an input is bad; 2: usage.
import { checkPlans } from '../check/check-plans.js';
import { impliedFlags } from '../check/implied-flags.js';
import { escapeControls, formatDiagnostics } from '../diagnostics/format.js';
import { Messages } from '../diagnostics/messages.js';
import { diffToJson, diffToTable } from '../diff/render.js';
import { lower } from '../lower.js';
import { binaryReaderFor, readBinary } from '../readers/index.js';
import { isElf } from '../readers/elf.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { EXIT_BREAKING } from './diff-command.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { type CliIO, includeHost, readText } from './io.js';
import { LOWER_OPTIONS, prepareLower } from './lower-command.js';

/** `check` exits with this status when source and binary differ (as `diff` does for a breaking change). */
export const EXIT_DIFFERENT = EXIT_BREAKING;

/** The lower options that make no sense for a check: it prints a comparison, not a lowering. */
const NOT_FOR_CHECK = new Set(['format', 'output', 'output-dir', 'color']);

export const CHECK_OWN_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'format',
    kind: 'string',
    value: 'table|json',
    choices: ['table', 'json'],
    help: "output: table (default) or json (diff's JSON: old is the source, new the binary)",
  },
  { name: 'color', kind: 'boolean', help: 'colour diagnostics (default: when stderr is a terminal)' },
];

/**
 * Every option check takes: its own, then lower's build and target options (explicit target options override what the
 * binary implies).
 */
export const CHECK_OPTIONS: readonly OptionSpec[] = [
  ...CHECK_OWN_OPTIONS,
  ...LOWER_OPTIONS.filter((o) => !NOT_FOR_CHECK.has(o.name)),
];

/** What `kernarg check --help` says after the options: the binaries it reads and what each implies. */
export const CHECK_NOTES = `binaries (the kind from the file's bytes, not its name) and the options each implies:
  AMDGPU code object (.hsaco, .co, .o)  --target amdhsa --code-object <note's> --llvm <.comment's clang> --mcpu <e_flags'>
  PTX (.ptx)                             --target cuda --arch nvptx|nvptx64 (.address_size) --local-memory
  zebin (ocloc's .bin)                   --target zebin --device <the zebin's>
  SPIR-V (.spv)                          --target opencl (Kernel) or vulkan (GLCompute) --arch spir|spir64
Only the facts a binary states are compared: no slot alignment or struct fields in a code object,
no type or argument names in PTX, no integer signs in clang's SPIR-V; names only where the binary has them.
`;

const CHECK_OWN = new Set(CHECK_OWN_OPTIONS.map((o) => o.name));
const BY_NAME = new Map(CHECK_OPTIONS.map((o) => [o.name, o]));

/**
 * The user's lower options again as flags, after the implied ones so that they win (`--name=value`; lists in
 * command-line order).
 */
function userFlags(
  values: ReadonlyMap<string, string | boolean | string[]>,
  sequence: readonly [string, string][],
): string[] {
  const out: string[] = [];
  for (const [name, v] of values) {
    if (CHECK_OWN.has(name) || name === 'target' || BY_NAME.get(name)?.kind === 'list') continue;
    out.push(typeof v === 'boolean' ? `--${name}=${v ? 1 : 0}` : `--${name}=${String(v)}`);
  }
  for (const [name, v] of sequence) out.push(`--${name}=${v}`);
  return out;
}

const isSourceName = (path: string) => /\.(cl|ir)$/.test(path);

export function checkCommand(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, CHECK_OPTIONS);
  const files = args.positionals;
  if (files.length !== 2)
    throw new UsageError(
      `check takes a source and a binary (kernarg check <file.cl|file.ir> <binary>), ` +
        `not ${files.length} ${files.length === 1 ? 'file' : 'files'}`,
    );
  const [sourcePath, binaryPath] = files;
  if (sourcePath === '-' || binaryPath === '-') throw new UsageError("check reads files, not standard input ('-')");
  const format = (args.values.get('format') as string | undefined) ?? 'table';
  const color = (args.values.get('color') as boolean | undefined) ?? io.color;

  const read = readText(io, binaryPath);
  if ('error' in read) {
    io.stderr(fileDiagnostic(binaryPath, Messages.cannotReadFile, ['binary', read.error]));
    return 1;
  }
  const bytes = read.bytes ?? new TextEncoder().encode(read.text);
  if (!binaryReaderFor(bytes) && !isElf(bytes) && isSourceName(binaryPath) && !isSourceName(sourcePath)) {
    throw new UsageError(
      `'${escapeControls(binaryPath)}' is a source and '${escapeControls(sourcePath)}' is not: the source comes ` +
        `first (did you mean 'kernarg check ${escapeControls(binaryPath)} ${escapeControls(sourcePath)}'?)`,
    );
  }
  const result = readBinary(bytes, binaryPath);
  // A text format's reader (PTX) points at line:col with a code frame; a binary's at a byte offset
  // (the SPIR-V reader's span is in an empty file: no line to show).
  for (const d of result.diagnostics)
    io.stderr(
      d.span && d.span.file.text !== ''
        ? formatDiagnostics([d], { color })
        : `${escapeControls(binaryPath)}: ${d.severity}: ${escapeControls(d.message)} [${d.code}]\n`,
    );
  if (!result.plan) return 1;
  const binary = result.plan;
  const target = args.values.get('target') as string | undefined;
  if (target !== undefined && target !== binary.target) {
    throw new UsageError(
      `'${escapeControls(binaryPath)}' is compiled for ${binary.target}: leave out --target, or give ` +
        `--target ${binary.target}, not '${target}'`,
    );
  }

  const implied = impliedFlags(binary);
  const given = userFlags(args.values, args.sequence);
  const prepared = prepareLower([sourcePath, '--target', binary.target, ...implied, ...given], io);
  if (typeof prepared === 'number') return prepared;
  const lowered = lower(prepared.path, prepared.text, includeHost(io), { ...prepared.options, format: 'json' });
  const shown =
    args.values.get('no-warnings') === true
      ? lowered.diagnostics.filter((d) => d.severity === 'error')
      : lowered.diagnostics;
  if (shown.length) io.stderr(formatDiagnostics(shown, { color }));
  if (!lowered.plan || lowered.diagnostics.some((d) => d.severity === 'error')) return 1;
  if (args.values.get('Werror') === true && lowered.diagnostics.some((d) => d.severity === 'warning')) return 1;

  const r = checkPlans(lowered.plan, binary);
  const sourceSide = { file: sourcePath, target: binary.target, options: [...implied, ...given] };
  const binarySide = { file: binaryPath, target: binary.target, options: [] };
  io.stdout(
    format === 'json'
      ? diffToJson(sourceSide, binarySide, r)
      : diffToTable(sourceSide, binarySide, r, ['source', 'binary'], 'the binary agrees with the source'),
  );
  return r.changes.length ? EXIT_DIFFERENT : 0;
}
