import { formatDiagnostics } from '../diagnostics/format.js';
import { diffViews } from '../diff/compare.js';
import { type DiffSide, diffToJson, diffToTable } from '../diff/render.js';
import { abiView } from '../diff/view.js';
import { TARGETS, lower } from '../lower.js';
import { didYouMean } from '../text/closest-name.js';
import { targetProblem } from '../common-options.js';
import { problemText } from '../targets/option-problem.js';
import { type OptionSpec, UsageError, checkChoice, unknownOption } from './args.js';
import { type CliIO, includeHost } from './io.js';
import { LOWER_OPTIONS, prepareLower } from './lower-command.js';

/**
 * `kernarg diff` exits with this status when a change is breaking (like `git diff --exit-code`, but apart from 1 and
 * 2).
 */
export const EXIT_BREAKING = 3;

export const DIFF_OPTIONS: readonly OptionSpec[] = [
  { name: 'target', kind: 'string', value: '<target>', help: 'the target both sides are lowered for' },
  { name: 'old-target', kind: 'string', value: '<target>', help: "the old side's target (compare two targets' views)" },
  { name: 'new-target', kind: 'string', value: '<target>', help: "the new side's target" },
  {
    name: 'old-opt',
    kind: 'list',
    value: '<option>',
    help: "a lower option for the old side only (repeatable; '--old-opt --pod-ubo', '--old-opt=--code-object=4')",
  },
  { name: 'new-opt', kind: 'list', value: '<option>', help: 'a lower option for the new side only (repeatable)' },
  {
    name: 'format',
    kind: 'string',
    value: 'table|json',
    choices: ['table', 'json'],
    help: 'output: table (default) or json',
  },
];

const DIFF_OWNED = new Map(DIFF_OPTIONS.map((o) => [o.name, o]));
const LOWER_BY_NAME = new Map(LOWER_OPTIONS.map((o) => [o.name, o]));
const LOWER_BY_SHORT = new Map(LOWER_OPTIONS.filter((o) => o.short).map((o) => [o.short!, o]));

/** Splits a diff command line into its own options, the two files, and the lower options both sides share. */
function splitArgs(argv: readonly string[]): { own: Map<string, string[]>; files: string[]; shared: string[] } {
  const own = new Map<string, string[]>();
  const files: string[] = [];
  const shared: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const mine = DIFF_OWNED.get(name);
      if (mine) {
        const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
        if (v === undefined) throw new UsageError(`option '--${name}' needs a value`);
        own.set(name, [...(own.get(name) ?? []), v]);
        continue;
      }
      const spec = LOWER_BY_NAME.get(name);
      // Unknown to diff and to lower: the nearest of both commands' options, not lower's alone.
      if (!spec && !(name.startsWith('no-') && LOWER_BY_NAME.get(name.slice(3))?.kind === 'boolean'))
        throw unknownOption(a.slice(0, eq < 0 ? undefined : eq), name, [...DIFF_OPTIONS, ...LOWER_OPTIONS]);
      shared.push(a);
      if (spec && spec.kind !== 'boolean' && eq < 0 && i + 1 < argv.length) shared.push(argv[++i]);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      shared.push(a);
      const spec = LOWER_BY_SHORT.get(a[1]);
      if (spec && spec.kind !== 'boolean' && a.length === 2 && i + 1 < argv.length) shared.push(argv[++i]);
      continue;
    }
    files.push(a);
  }
  return { own, files, shared };
}

const one = (own: Map<string, string[]>, name: string): string | undefined => {
  const v = own.get(name);
  if (v && v.length > 1) throw new UsageError(`--${name} given twice`);
  return v?.[0];
};

/** `--old-opt "--code-object 4"` and `--old-opt=--code-object=4` both name one option and its value. */
const sideOptions = (values: readonly string[] | undefined): string[] =>
  (values ?? []).flatMap((v) => v.split(/\s+/).filter(Boolean));

export function diffCommand(argv: readonly string[], io: CliIO): number {
  const { own, files, shared } = splitArgs(argv);
  if (files.length !== 2) throw new UsageError(`diff takes two input files (old and new), not ${files.length}`);
  const format = one(own, 'format') ?? 'table';
  checkChoice(DIFF_OWNED.get('format')!, format);
  const target = one(own, 'target');
  const oldTarget = one(own, 'old-target') ?? target;
  const newTarget = one(own, 'new-target') ?? target;
  if (!oldTarget || !newTarget) throw new UsageError('diff needs --target (or both --old-target and --new-target)');
  for (const t of [oldTarget, newTarget]) {
    const problem = targetProblem(t);
    if (problem) throw new UsageError(`${problemText(problem)}${didYouMean(t, TARGETS)}`);
  }
  for (const o of [...(own.get('old-opt') ?? []), ...(own.get('new-opt') ?? [])])
    if (!o.trimStart().startsWith('-'))
      throw new UsageError(`--old-opt/--new-opt take lower options ('--pod-ubo', '--code-object=4'), not '${o}'`);
  const oldOpts = sideOptions(own.get('old-opt'));
  const newOpts = sideOptions(own.get('new-opt'));
  for (const o of [...oldOpts, ...newOpts])
    if (/^--(target|format)(=|$)/.test(o))
      throw new UsageError('use --old-target/--new-target to compare two targets; diff has its own --format');

  const sides: { side: DiffSide; view: ReturnType<typeof abiView> }[] = [];
  for (const [file, t, opts] of [
    [files[0], oldTarget, oldOpts],
    [files[1], newTarget, newOpts],
  ] as const) {
    const prepared = prepareLower([file, ...shared, '--target', t, ...opts], io);
    if (typeof prepared === 'number') return prepared;
    const result = lower(prepared.path, prepared.text, includeHost(io), { ...prepared.options, format: 'json' });
    if (result.diagnostics.length) io.stderr(formatDiagnostics(result.diagnostics, { color: prepared.color }));
    if (!result.plan || result.output === undefined) return 1;
    sides.push({ side: { file, target: t, options: [...shared, ...opts] }, view: abiView(result.plan) });
  }
  const [a, b] = sides;
  const r = diffViews(a.view, b.view);
  io.stdout(format === 'json' ? diffToJson(a.side, b.side, r) : diffToTable(a.side, b.side, r));
  return r.breaking ? EXIT_BREAKING : 0;
}
