// The `lower` command line: its options, their checks, and reading its inputs (shared by `lower`,
// its batch form and `diff`).
import { offersFormat } from '../targets/format-names.js';
import { escapeControls } from '../diagnostics/format.js';
import {
  CL_STDS,
  type ClStd,
  type CommandLineMacro,
  DOPE_ORDERS,
  FAST_RELAXED_MATH_DECLARATION,
  GROUP_TABLES,
  INPUT_LANGUAGES,
  INPUT_OPTION_DECLARATIONS,
  TINYTC_OPTION_DECLARATIONS,
  TINYTC_VERSIONS,
} from '../options/input-options.js';
import { FORMATS, type LowerOptions, TARGETS } from '../lower.js';
import { TARGET_RECORDS, targetNamed } from '../targets/index.js';
import { type TinytcInputOptions, pick } from '../targets/options.js';
import {
  TARGET_OPTION_DECLARATIONS,
  formatProblem,
  languageProblem,
  stdProblem,
  targetProblem,
} from '../common-options.js';
import { type OptionProblem, problemText } from '../targets/option-problem.js';
import { applyTargetFlags, flagOptionSpecs } from './target-flags.js';
import { type OptionSpec, UsageError, parseArgs } from './args.js';
import { type CliIO, readStdinText, readText } from './io.js';
import { fileDiagnostic } from './file-diagnostics.js';
import { Messages } from '../diagnostics/messages.js';
import { didYouMean } from '../text/closest-name.js';

/** clBuildProgram options (and clang's spellings of them) that change code, not the argument ABI. */
const BUILD_OPTIONS_WITHOUT_ABI_EFFECT = [
  'cl-single-precision-constant',
  'cl-denorms-are-zero',
  'cl-fp32-correctly-rounded-divide-sqrt',
  'cl-opt-disable',
  'cl-mad-enable',
  'cl-no-signed-zeros',
  'cl-unsafe-math-optimizations',
  'cl-finite-math-only',
  'cl-uniform-work-group-size',
  'cl-no-subgroup-ifp',
  'cl-strict-aliasing',
];

/** Options of every target: the input's and the output's. */
const COMMON_OPTIONS: readonly OptionSpec[] = [
  ...TARGET_OPTION_DECLARATIONS,
  ...INPUT_OPTION_DECLARATIONS,
  { name: 'no-warnings', short: 'w', kind: 'boolean', help: 'suppress warnings (clang -w)' },
  {
    name: 'Werror',
    kind: 'boolean',
    shownWithOneDash: true,
    help: 'treat warnings as errors (clang -Werror)',
    singleDash: true,
  },
  FAST_RELAXED_MATH_DECLARATION,
  {
    name: 'cl-kernel-arg-info',
    kind: 'boolean',
    shownWithOneDash: true,
    help: 'as clang; for a target with --kernel-arg-info (llvm) the same',
    singleDash: true,
  },
  ...BUILD_OPTIONS_WITHOUT_ABI_EFFECT.map((name): OptionSpec => ({
    name,
    kind: 'boolean',
    help: 'OpenCL build option: accepted, no effect on the ABI',
    singleDash: true,
    shownWithOneDash: true,
  })),
  // tinytc's lit RUN lines pass tinytc-oc -O0; kernarg does not optimise, so its output is what -O0 asks for.
  {
    name: 'O0',
    kind: 'boolean',
    help: "tinytc-oc's -O0 (tinytc input): accepted; kernarg does not optimise",
    singleDash: true,
    shownWithOneDash: true,
  },
  ...TINYTC_OPTION_DECLARATIONS,
  {
    name: 'output',
    short: 'o',
    kind: 'string',
    value: '<file>',
    help: 'write the output to a file (required for --format spirv, which is binary)',
  },
  {
    name: 'output-dir',
    kind: 'string',
    value: '<dir>',
    help: "lower several inputs in one call: each one's output goes to <dir>/<input name>.<format's extension>",
  },
];

/** `lower`'s own options: the input's, the output's, and --color. */
export const LOWER_OWN_OPTIONS: readonly OptionSpec[] = [
  ...COMMON_OPTIONS,
  { name: 'color', kind: 'boolean', help: 'colour diagnostics (default: when stderr is a terminal)' },
];

/** The targets' options, each from its target's record. */
export const TARGET_FLAG_OPTIONS: readonly OptionSpec[] = flagOptionSpecs();

/** Every option `lower` takes: its own and every target's. */
export const LOWER_OPTIONS: readonly OptionSpec[] = [...LOWER_OWN_OPTIONS, ...TARGET_FLAG_OPTIONS];

/** A checked `lower` command line: the input, its text and the options to lower it with. */
export interface PreparedLower {
  readonly path: string;
  readonly text: string;
  readonly format: string;
  readonly color: boolean;
  readonly options: LowerOptions;
  /** `-o`: the file the output goes to (binary formats need one). */
  readonly outPath?: string;
  /** `-w`: errors only. */
  readonly noWarnings?: boolean;
  /** `-Werror`: a warning fails the command. */
  readonly warningsAreErrors?: boolean;
}

/** A checked `lower` command line before any input is read: its inputs and what applies to all of them. */
export interface LowerSettings {
  readonly paths: readonly string[];
  readonly format: string;
  readonly color: boolean;
  /** The options for each input, in `paths` order (they differ only in the input's language). */
  readonly options: readonly LowerOptions[];
  readonly outPath?: string;
  /** `--output-dir`: lower every input, each output to its own file there. */
  readonly outputDir?: string;
  readonly noWarnings: boolean;
  readonly warningsAreErrors: boolean;
}

/** Parses and checks a `lower` command line (usage errors throw); returns an exit code when a target flag refuses. */
export function lowerSettings(argv: readonly string[], io: CliIO): LowerSettings | number {
  const args = parseArgs(argv, LOWER_OPTIONS);
  const paths = args.positionals;
  const outputDir = args.values.get('output-dir') as string | undefined;
  if (!paths.length) throw new UsageError('lower needs an input file');
  if (paths.length > 1 && outputDir === undefined)
    throw new UsageError('lower takes one input file, or several with --output-dir <dir>');
  const outPath = args.values.get('output') as string | undefined;
  if (outPath !== undefined && outputDir !== undefined)
    throw new UsageError('give -o (one output file) or --output-dir (one per input), not both');
  const language = args.values.get('language') as string | undefined;
  if (language !== undefined && !(INPUT_LANGUAGES as readonly string[]).includes(language)) {
    throw new UsageError(`-x takes cl (OpenCL C) or ir (tinytc), not '${language}'`);
  }
  if (paths.includes('-') && language === undefined)
    throw new UsageError("reading standard input ('-') needs -x cl or -x ir");
  if (paths.includes('-') && outputDir !== undefined)
    throw new UsageError("standard input ('-') has no name to write under --output-dir: give it as a file");
  const target = args.values.get('target') as string | undefined;
  if (!target) throw new UsageError('lower needs --target');
  const record = targetNamed(target);
  if (!record) throw usageProblem(targetProblem(target), target, TARGETS);
  const format = (args.values.get('format') as string | undefined) ?? 'table';
  if (!offersFormat(FORMATS[record.name], format))
    throw usageProblem(formatProblem(target, format), format, FORMATS[record.name]);
  const std = clStd(args.values.get('cl-std') as string | undefined);
  // --dope-order, --group-tables and --tinytc were checked against their records' choices while parsing.
  const dopeOrder = args.values.get('dope-order') as string | undefined;
  const groupTables = args.values.get('group-tables') as string | undefined;
  const tinytcVersion = args.values.get('tinytc') as string | undefined;
  // Binary never goes to stdout: a terminal would get garbage and a pipe is better served by a file.
  if (format === 'spirv' && outPath === undefined && outputDir === undefined)
    throw new UsageError('--format spirv is binary: give -o <file>');
  if (args.values.has('float-atomic-add') && !format.startsWith('spirv'))
    throw new UsageError('--float-atomic-add applies to --format spirv and spirv-asm only');
  const commandLine = args.sequence
    .filter(([o]) => o === 'define' || o === 'undefine')
    .map(([o, d]) => commandLineMacro(o as 'define' | 'undefine', d));
  // clang's -cl-kernel-arg-info is the --kernel-arg-info of a target that has one.
  const values = new Map(args.values);
  if (
    values.get('cl-kernel-arg-info') === true &&
    !values.has('kernel-arg-info') &&
    record.flags.some((f) => f.flag === 'kernel-arg-info')
  )
    values.set('kernel-arg-info', true);
  const options: LowerOptions[] = [];
  for (const path of paths) {
    // Each input's language is its own (a batch may mix .cl and .ir); the checks that depend on it name the input when
    // there are several.
    const named = (m: string) => (paths.length > 1 ? `${escapeControls(path)}: ${m}` : m);
    if (!language && !path.endsWith('.cl') && !path.endsWith('.ir'))
      throw new UsageError(
        `cannot tell the language of '${escapeControls(path)}': use a .cl (OpenCL C) or .ir (tinytc) file, or -x cl`,
      );
    const isIr = language ? language === 'ir' : path.endsWith('.ir');
    if (dopeOrder !== undefined && !isIr)
      throw new UsageError(named('--dope-order applies to tinytc (.ir) input only'));
    if (tinytcVersion !== undefined && !isIr)
      throw new UsageError(named('--tinytc applies to tinytc (.ir) input only'));
    if (groupTables !== undefined && (!isIr || format !== 'opencl-c'))
      throw new UsageError(named('--group-tables applies to tinytc (.ir) input with --format opencl-c only'));
    const needsTinytc = languageProblem(record.name, format, isIr);
    if (needsTinytc) throw new UsageError(named(problemText(needsTinytc)));
    const base: LowerOptions = {
      target: record.name,
      format,
      language: isIr ? 'ir' : 'cl',
      std,
      includeDirs: (args.values.get('include') as string[] | undefined) ?? [],
      commandLine,
      fastRelaxedMath: args.values.get('cl-fast-relaxed-math') as boolean | undefined,
      ...(dopeOrder !== undefined || groupTables !== undefined || tinytcVersion !== undefined
        ? { tinytc: tinytcOptions(dopeOrder, groupTables, tinytcVersion) }
        : {}),
    };
    const applied = applyTargetFlags(record, values, base, io);
    if (typeof applied === 'number') return applied;
    const conflict = record.flagConflict(applied);
    if (conflict) throw new UsageError(conflict);
    options.push(applied);
  }
  return {
    paths,
    format,
    color: (args.values.get('color') as boolean | undefined) ?? io.color,
    options,
    noWarnings: args.values.get('no-warnings') === true,
    warningsAreErrors: args.values.get('Werror') === true,
    ...(outPath !== undefined ? { outPath } : {}),
    ...(outputDir !== undefined ? { outputDir } : {}),
  };
}

/**
 * Parses and checks a one-input `lower` command line and reads the input; returns an exit code when it cannot be read.
 */
export function prepareLower(argv: readonly string[], io: CliIO): PreparedLower | number {
  const settings = lowerSettings(argv, io);
  if (typeof settings === 'number') return settings;
  if (settings.paths.length !== 1 || settings.outputDir !== undefined)
    throw new UsageError('this command takes exactly one input file');
  return readPrepared(settings, 0, io);
}

/** Reads input `i` of `settings` (standard input for '-'); returns 1 when it cannot be read, after saying why. */
export function readPrepared(settings: LowerSettings, i: number, io: CliIO): PreparedLower | number {
  const path = settings.paths[i];
  const read = path === '-' ? readStdinText(io) : readText(io, path);
  if ('error' in read) {
    io.stderr(fileDiagnostic(path === '-' ? '<stdin>' : path, Messages.cannotReadFile, ['input file', read.error]));
    return 1;
  }
  const { format, color, noWarnings, warningsAreErrors, outPath } = settings;
  return {
    path: path === '-' ? '<stdin>' : path,
    text: read.text,
    format,
    color,
    noWarnings,
    warningsAreErrors,
    ...(outPath !== undefined ? { outPath } : {}),
    options: settings.options[i],
  };
}

/** A shared option's problem as a usage error, in lower()'s words, with the nearest good spelling. */
function usageProblem(problem: OptionProblem | undefined, given: string, choices: readonly string[]): UsageError {
  return new UsageError(
    `${problem ? problemText(problem) : `'${given}' is not accepted`}${didYouMean(given, choices)}`,
  );
}

/** tinytc's options of a command line (both checked against their choices while parsing). */
function tinytcOptions(
  dopeOrder: string | undefined,
  groupTables: string | undefined,
  version: string | undefined,
): TinytcInputOptions {
  return {
    ...(version !== undefined ? { version: pick(TINYTC_VERSIONS, version) } : {}),
    ...(dopeOrder !== undefined ? { dopeOrder: pick(DOPE_ORDERS, dopeOrder) } : {}),
    ...(groupTables !== undefined ? { groupTables: pick(GROUP_TABLES, groupTables) } : {}),
  };
}

/** clang's -cl-std spellings: CL1.2, cl1.2, CL (1.0). */
function clStd(text: string | undefined): ClStd | undefined {
  if (text === undefined) return undefined;
  const up = text.toUpperCase();
  const std = up === 'CL' ? 'CL1.0' : up;
  const problem = stdProblem(std);
  if (problem) throw usageProblem({ ...problem, args: [text, ...problem.args.slice(1)] }, text, CL_STDS);
  return pick(CL_STDS, std);
}

/**
 * One `-D name[=value]`, `-D 'F(x, y)=body'` or `-U name`, checked: a name (with parameters for -D), a value on one
 * line.
 */
export function commandLineMacro(option: 'define' | 'undefine', text: string): CommandLineMacro {
  if (option === 'undefine') {
    if (!/^[A-Za-z_]\w*$/.test(text)) throw new UsageError(`'-U ${text}': macro name must be an identifier`);
    return { undefine: text };
  }
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  if (!/^[A-Za-z_]\w*(\(\s*(?:(?:[A-Za-z_]\w*|\.\.\.)(?:\s*,\s*(?:[A-Za-z_]\w*|\.\.\.))*)?\s*\))?$/.test(name)) {
    throw new UsageError(`'-D ${text}': macro name must be an identifier, or a function-like macro 'NAME(params)'`);
  }
  const value = eq < 0 ? undefined : text.slice(eq + 1);
  if (value !== undefined && /[\r\n]/.test(value)) throw new UsageError(`'-D ${name}': the value must be on one line`);
  return { define: name, value };
}
