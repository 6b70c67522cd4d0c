// The facts of the input's options, below both sides that read them: the frontends that honour
// them (preprocessor, OpenCL C predefines, tinytc's calling convention) and the targets, lower()
// and the command line that pass them on. Here, a target names them without importing a frontend.

import type { OptionDeclaration } from './option-declaration.js';

/** OpenCL C versions, as clang's -cl-std spells them. */
export const CL_STDS = ['CL1.0', 'CL1.1', 'CL1.2', 'CL2.0', 'CL3.0'] as const;
export type ClStd = (typeof CL_STDS)[number];
/** The version a source without -cl-std is read as (clang's, for OpenCL C sources). */
export const DEFAULT_CL_STD: ClStd = 'CL1.2';

/** `__OPENCL_C_VERSION__` of each version. */
const CL_VERSION_NUMBERS = {
  'CL1.0': 100,
  'CL1.1': 110,
  'CL1.2': 120,
  'CL2.0': 200,
  'CL3.0': 300,
} as const satisfies Record<ClStd, number>;

export function clVersion(std: ClStd): number {
  return CL_VERSION_NUMBERS[std];
}

/** Input languages, as clang's -x names them here: OpenCL C, tinytc IR. */
export const INPUT_LANGUAGES = ['cl', 'ir'] as const;
export type InputLanguage = (typeof INPUT_LANGUAGES)[number];

/** tinytc: the extra memref arguments per mode (v0.3, `interleaved`) or all shapes then all strides (v0.4). */
export const DOPE_ORDERS = ['interleaved', 'shapes-first'] as const;
export type DopeOrder = (typeof DOPE_ORDERS)[number];

/** tinytc --format opencl-c: group tables as `global T*global*`, or `global ulong*` cast back in the body. */
export const GROUP_TABLES = ['pointer', 'ulong'] as const;
export type GroupTables = (typeof GROUP_TABLES)[number];

/** One `-D name[=value]` or `-U name`, in command-line order. */
export type CommandLineMacro = { readonly define: string; readonly value?: string } | { readonly undefine: string };

/**
 * The input's options, as `lower` (and `diff`) take them on the command line: each sets the
 * lower() option it names. The target and format, which the registry knows, are declared beside
 * the targets (common-options.ts).
 */
export const INPUT_OPTION_DECLARATIONS: readonly OptionDeclaration[] = [
  {
    name: 'include',
    short: 'I',
    kind: 'list',
    value: '<dir>',
    option: 'includeDirs',
    help: 'add a directory to the #include search path',
  },
  {
    name: 'define',
    short: 'D',
    kind: 'list',
    value: '<name>[=<value>]',
    option: 'commandLine',
    help: "define a macro, object-like or function-like ('F(x)=body'), in order with -U",
  },
  { name: 'undefine', short: 'U', kind: 'list', value: '<name>', option: 'commandLine', help: 'undefine a macro' },
  {
    name: 'cl-std',
    kind: 'string',
    value: '<CLx.y>',
    option: 'std',
    singleDash: true,
    help: `OpenCL C version: ${CL_STDS.join(' | ')} (default ${DEFAULT_CL_STD}; clang's -cl-std=CL2.0 too)`,
  },
  {
    name: 'language',
    short: 'x',
    kind: 'string',
    value: INPUT_LANGUAGES.join('|'),
    option: 'language',
    help: "input language, as clang's -x (default: from the file's extension; needed for - as standard input)",
  },
];

/** clang's -cl-fast-relaxed-math: the one build option with an effect on the source (it defines a macro). */
export const FAST_RELAXED_MATH_DECLARATION: OptionDeclaration = {
  name: 'cl-fast-relaxed-math',
  kind: 'boolean',
  shownWithOneDash: true,
  singleDash: true,
  option: 'fastRelaxedMath',
  help: 'as clang: defines __FAST_RELAXED_MATH__',
};

/** tinytc input's options. */
/** tinytc's language versions (frontend/tinytc/v04/version.ts tells them apart). */
export type TinytcVersion = '0.3' | '0.4';
export const TINYTC_VERSIONS = ['0.3', '0.4'] as const satisfies readonly TinytcVersion[];

export const TINYTC_OPTION_DECLARATIONS: readonly OptionDeclaration[] = [
  {
    name: 'group-tables',
    kind: 'string',
    value: GROUP_TABLES.join('|'),
    choices: GROUP_TABLES,
    option: 'tinytc.groupTables',
    help:
      "tinytc --format opencl-c: group tables as 'global T*global*' (default) or 'global ulong*' cast back in " +
      'the body (for NVIDIA)',
  },
  {
    name: 'dope-order',
    kind: 'string',
    value: DOPE_ORDERS.join('|'),
    choices: DOPE_ORDERS,
    option: 'tinytc.dopeOrder',
    help: 'tinytc: extra memref arguments per mode (v0.3, default) or all shapes then strides (v0.4)',
  },
  {
    name: 'tinytc',
    kind: 'string',
    value: TINYTC_VERSIONS.join('|'),
    choices: TINYTC_VERSIONS,
    option: 'tinytc.version',
    help: "tinytc: the input's language version (default: recognised from the text)",
  },
];
