import { formatDiagnostics } from '../diagnostics/format.js';
import { CL_STDS, type ClStd } from '../frontend/opencl-c/predefined.js';
import { FORMATS, TARGETS, type TargetName, lower } from '../lower.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import type { CliIO } from './io.js';

export const LOWER_OPTIONS: readonly OptionSpec[] = [
  { name: 'target', kind: 'string', value: '<target>', help: `target ABI: ${TARGETS.join(' | ')}` },
  { name: 'format', kind: 'string', value: '<format>', help: 'output: table (default) | json | signatures' },
  { name: 'include', short: 'I', kind: 'list', value: '<dir>', help: 'add a directory to the #include search path' },
  { name: 'define', short: 'D', kind: 'list', value: '<name>[=<value>]', help: 'define a macro' },
  { name: 'undefine', short: 'U', kind: 'list', value: '<name>', help: 'undefine a macro' },
  { name: 'cl-std', kind: 'string', value: '<CLx.y>', help: `OpenCL C version: ${CL_STDS.join(' | ')} (default CL1.2)` },
  { name: 'arch', kind: 'string', value: 'spir|spir64', help: 'device address width for the opencl target (default spir64)' },
  { name: 'color', kind: 'boolean', help: 'colour diagnostics (default: when stderr is a terminal)' },
];

export function lowerCommand(argv: readonly string[], io: CliIO): number {
  const args = parseArgs(argv, LOWER_OPTIONS);
  if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'lower takes exactly one input file' : 'lower needs an input file');
  const path = args.positionals[0];
  const target = args.values.get('target') as string | undefined;
  if (!target) throw new UsageError('lower needs --target');
  if (!(TARGETS as readonly string[]).includes(target)) throw new UsageError(`unknown target '${target}' (available: ${TARGETS.join(', ')})`);
  const format = (args.values.get('format') as string | undefined) ?? 'table';
  if (!FORMATS[target as TargetName].includes(format)) throw new UsageError(`format '${format}' is not available for target '${target}' (choose from ${FORMATS[target as TargetName].join(', ')})`);
  const std = args.values.get('cl-std') as string | undefined;
  if (std !== undefined && !(CL_STDS as readonly string[]).includes(std)) throw new UsageError(`unknown --cl-std '${std}' (choose from ${CL_STDS.join(', ')})`);
  const arch = args.values.get('arch') as string | undefined;
  if (arch !== undefined && arch !== 'spir' && arch !== 'spir64') throw new UsageError(`unknown --arch '${arch}' (choose spir or spir64)`);
  if (!path.endsWith('.cl')) throw new UsageError(`cannot tell the language of '${path}': use a .cl file`);
  const text = io.readFile(path);
  const color = (args.values.get('color') as boolean | undefined) ?? io.color;
  if (text === undefined) {
    io.stderr(`kernarg: error: cannot read '${path}'\n`);
    return 1;
  }
  const defines = ((args.values.get('define') as string[] | undefined) ?? []).map((d): [string, string | undefined] => {
    const eq = d.indexOf('=');
    const name = eq < 0 ? d : d.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`'-D ${d}': macro name must be an identifier`);
    return eq < 0 ? [name, undefined] : [name, d.slice(eq + 1)];
  });
  const result = lower(path, text, { readFile: io.readFile }, {
    target: target as TargetName,
    format,
    std: std as ClStd | undefined,
    includeDirs: (args.values.get('include') as string[] | undefined) ?? [],
    defines,
    undefines: (args.values.get('undefine') as string[] | undefined) ?? [],
    arch: arch as 'spir' | 'spir64' | undefined,
  });
  if (result.diagnostics.length) io.stderr(formatDiagnostics(result.diagnostics, { color }));
  if (result.output === undefined) return 1;
  io.stdout(result.output);
  return 0;
}
