import { escapeControls, formatDiagnostics } from '../diagnostics/format.js';
import { CL_STDS } from '../frontend/opencl-c/predefined.js';
import { type LowerOptions, TARGETS, lower } from '../lower.js';
import { TARGET_RECORDS, targetNamed } from '../targets/index.js';
import { pick } from '../targets/options.js';
import { applyTargetFlags, flagOptionSpecs } from './target-flags.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { type CliIO, includeHost, readText } from './io.js';

const DOPE_ORDERS = ['interleaved', 'shapes-first'] as const;
const GROUP_TABLES = ['pointer', 'ulong'] as const;

/** Options of every target: the input's and the output's. */
const COMMON_OPTIONS: readonly OptionSpec[] = [
  { name: 'target', kind: 'string', value: '<target>', help: `target ABI: ${TARGETS.join(' | ')}` },
  { name: 'format', kind: 'string', value: '<format>', help: `output: table (default) | json${TARGET_RECORDS.filter((t) => t.formats.length > 2).map((t) => ` | ${t.formats.slice(2).join(', ')} (${t.name})`).join('')}` },
  { name: 'include', short: 'I', kind: 'list', value: '<dir>', help: 'add a directory to the #include search path' },
  { name: 'define', short: 'D', kind: 'list', value: '<name>[=<value>]', help: 'define a macro' },
  { name: 'undefine', short: 'U', kind: 'list', value: '<name>', help: 'undefine a macro' },
  { name: 'cl-std', kind: 'string', value: '<CLx.y>', help: `OpenCL C version: ${CL_STDS.join(' | ')} (default CL1.2)` },
  { name: 'group-tables', kind: 'string', value: 'pointer|ulong', help: "tinytc --format opencl-c: group tables as 'global T*global*' (default) or 'global ulong*' cast back in the body (for NVIDIA)" },
  { name: 'dope-order', kind: 'string', value: 'interleaved|shapes-first', help: 'tinytc: extra memref arguments per mode (v0.3, default) or all shapes then strides (v0.4)' },
  { name: 'output', short: 'o', kind: 'string', value: '<file>', help: 'write the output to a file (required for --format spirv, which is binary)' },
];

/** Every option `lower` takes: the common ones, then each target's from its record, then --color. */
export const LOWER_OPTIONS: readonly OptionSpec[] = [
  ...COMMON_OPTIONS,
  ...flagOptionSpecs(),
  { name: 'color', kind: 'boolean', help: 'colour diagnostics (default: when stderr is a terminal)' },
];

/** A checked `lower` command line: the input, its text and the options to lower it with. */
export interface PreparedLower {
  readonly path: string;
  readonly text: string;
  readonly format: string;
  readonly color: boolean;
  readonly options: LowerOptions;
  /** `-o`: the file the output goes to (binary formats need one). */
  readonly outPath?: string;
}

export function lowerCommand(argv: readonly string[], io: CliIO): number {
  const prepared = prepareLower(argv, io);
  if (typeof prepared === 'number') return prepared;
  const result = lower(prepared.path, prepared.text, includeHost(io), prepared.options);
  if (result.diagnostics.length) io.stderr(formatDiagnostics(result.diagnostics, { color: prepared.color }));
  const data = result.binary ?? result.output;
  if (data === undefined) return 1;
  if (prepared.outPath === undefined) {
    io.stdout(data as string);
    return 0;
  }
  if (!io.writeFile) throw new UsageError('this environment cannot write files: leave out -o');
  try {
    io.writeFile(prepared.outPath, data);
  } catch (e) {
    io.stderr(`kernarg: error: cannot write '${prepared.outPath}': ${(e as Error).message}\n`);
    return 1;
  }
  return 0;
}

/** Parses and checks a `lower` command line (usage errors throw); returns an exit code when the input cannot be read. */
export function prepareLower(argv: readonly string[], io: CliIO): PreparedLower | number {
  const args = parseArgs(argv, LOWER_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'lower takes exactly one input file' : 'lower needs an input file');
  const path = args.positionals[0];
  const target = args.values.get('target') as string | undefined;
  if (!target) throw new UsageError('lower needs --target');
  const record = targetNamed(target);
  if (!record) throw new UsageError(`unknown target '${target}' (available: ${TARGETS.join(', ')})`);
  const format = (args.values.get('format') as string | undefined) ?? 'table';
  if (!record.formats.includes(format)) throw new UsageError(`format '${format}' is not available for target '${target}' (choose from ${record.formats.join(', ')})`);
  const std = args.values.get('cl-std') as string | undefined;
  if (std !== undefined && !(CL_STDS as readonly string[]).includes(std)) throw new UsageError(`unknown --cl-std '${std}' (choose from ${CL_STDS.join(', ')})`);
  if (!path.endsWith('.cl') && !path.endsWith('.ir')) throw new UsageError(`cannot tell the language of '${path}': use a .cl (OpenCL C) or .ir (tinytc) file`);
  const dopeOrder = args.values.get('dope-order') as string | undefined;
  if (dopeOrder !== undefined && dopeOrder !== 'interleaved' && dopeOrder !== 'shapes-first') throw new UsageError(`--dope-order takes interleaved or shapes-first, not '${dopeOrder}'`);
  if (dopeOrder !== undefined && !path.endsWith('.ir')) throw new UsageError('--dope-order applies to tinytc (.ir) input only');
  const groupTables = args.values.get('group-tables') as string | undefined;
  if (groupTables !== undefined && groupTables !== 'pointer' && groupTables !== 'ulong') throw new UsageError(`--group-tables takes pointer or ulong, not '${groupTables}'`);
  if (groupTables !== undefined && (!path.endsWith('.ir') || format !== 'opencl-c')) throw new UsageError('--group-tables applies to tinytc (.ir) input with --format opencl-c only');
  if (format === 'opencl-c' && !path.endsWith('.ir')) throw new UsageError('--format opencl-c needs tinytc input (.ir)');
  if (format.startsWith('spirv') && !path.endsWith('.ir')) throw new UsageError(`--format ${format} needs tinytc input (.ir)`);
  const outPath = args.values.get('output') as string | undefined;
  // Binary never goes to stdout: a terminal would get garbage and a pipe is better served by a file.
  if (format === 'spirv' && outPath === undefined) throw new UsageError('--format spirv is binary: give -o <file>');
  if (args.values.has('float-atomic-add') && !format.startsWith('spirv')) throw new UsageError('--float-atomic-add applies to --format spirv and spirv-asm only');
  const defines = ((args.values.get('define') as string[] | undefined) ?? []).map((d): [string, string | undefined] => {
    const eq = d.indexOf('=');
    const name = eq < 0 ? d : d.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`'-D ${d}': macro name must be an identifier`);
    return eq < 0 ? [name, undefined] : [name, d.slice(eq + 1)];
  });
  const base: LowerOptions = {
    target: record.name,
    format,
    std: std === undefined ? undefined : pick(CL_STDS, std),
    includeDirs: (args.values.get('include') as string[] | undefined) ?? [],
    defines,
    undefines: (args.values.get('undefine') as string[] | undefined) ?? [],
    dopeOrder: dopeOrder === undefined ? undefined : pick(DOPE_ORDERS, dopeOrder),
    groupTables: groupTables === undefined ? undefined : pick(GROUP_TABLES, groupTables),
  };
  const options = applyTargetFlags(record, args.values, base, io);
  if (typeof options === 'number') return options;
  const conflict = record.flagConflict(options);
  if (conflict) throw new UsageError(conflict);
  const read = readText(io, path);
  const color = (args.values.get('color') as boolean | undefined) ?? io.color;
  if ('error' in read) {
    io.stderr(`kernarg: error: cannot read '${escapeControls(path)}': ${read.error}\n`);
    return 1;
  }
  const text = read.text;
  return { path, text, format, color, ...(outPath !== undefined ? { outPath } : {}), options };
}
