// The options every target shares (target, format, OpenCL C version, input language), checked in
// one place above the targets and the code generator (a target's formats are its own and the code
// generator's rows, codegen/formats.ts): lower() reports what this finds as a diagnostic, the command line as a usage
// error,
// in the same words.
import { Messages } from './diagnostics/messages.js';
import { CL_STDS } from './options/input-options.js';
import type { OptionDeclaration } from './options/option-declaration.js';
import { FORMATS, codegenFormat } from './codegen/formats.js';
import { offersFormat } from './targets/format-names.js';
import { TARGETS, TARGET_RECORDS, targetNamed } from './targets/index.js';
import type { OptionProblem } from './targets/option-problem.js';

/** What the shared options say, read where they are given (the CLI's strings, or a library caller's values). */
export interface CommonOptions {
  readonly target: string;
  readonly format: string;
  readonly std?: string;
  /** The input is tinytc IR (.ir), else OpenCL C. */
  readonly isIr: boolean;
}

/** Why a target cannot be asked for (unknown), or undefined. */
export function targetProblem(target: string): OptionProblem | undefined {
  return targetNamed(target) ? undefined : { message: Messages.unknownTarget, args: [target, TARGETS.join(', ')] };
}

/** Why a format cannot be had from a known target, or undefined. */
export function formatProblem(target: string, format: string): OptionProblem | undefined {
  const record = targetNamed(target);
  if (!record || offersFormat(FORMATS[record.name], format)) return undefined;
  return { message: Messages.formatUnavailable, args: [format, record.name, FORMATS[record.name].join(', ')] };
}

/** Why an OpenCL C version is not one kernarg knows, or undefined. */
export function stdProblem(std: string | undefined): OptionProblem | undefined {
  return std === undefined || (CL_STDS as readonly string[]).includes(std)
    ? undefined
    : { message: Messages.unknownClStd, args: [std, CL_STDS.join(', ')] };
}

/** Why a format cannot be made from this input's language (it prints tinytc bodies), or undefined. */
export function languageProblem(target: string, format: string, isIr: boolean): OptionProblem | undefined {
  const record = targetNamed(target);
  return record && codegenFormat(record.name, format) && !isIr
    ? { message: Messages.formatNeedsTinytc, args: [format] }
    : undefined;
}

/**
 * The first problem of the shared options, in the order a reader meets them, or undefined; the
 * input's language is checked last, after the target's own options (lower() calls
 * languageProblem itself then).
 */
export function commonOptionProblem(o: Omit<CommonOptions, 'isIr'>): OptionProblem | undefined {
  return targetProblem(o.target) ?? formatProblem(o.target, o.format) ?? stdProblem(o.std);
}

/** --target and --format: the registry's names and each target's formats. */
export const TARGET_OPTION_DECLARATIONS: readonly OptionDeclaration[] = [
  { name: 'target', kind: 'string', value: '<target>', option: 'target', help: `target ABI: ${TARGETS.join(' | ')}` },
  {
    name: 'format',
    kind: 'string',
    value: '<format>',
    option: 'format',
    help: `output: table (default) | json${TARGET_RECORDS.filter((t) => FORMATS[t.name].length > 2)
      .map((t) => ` | ${FORMATS[t.name].slice(2).join(', ')} (${t.name})`)
      .join('')}`,
  },
];
