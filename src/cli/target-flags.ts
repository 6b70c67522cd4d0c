import { assertNever } from '../assert-never.js';
import { TARGET_RECORDS } from '../targets/index.js';
import type { LowerOptions } from '../targets/options.js';
import type { Target, TargetFlag } from '../targets/target.js';
import { type OptionSpec, type ParsedArgs, UsageError } from './args.js';
import { type CliIO, readText } from './io.js';
import { Messages } from '../diagnostics/messages.js';
import { DiagnosticBag } from '../diagnostics/diagnostic.js';
import { formatDiagnostic } from '../diagnostics/format.js';
import { fileDiagnostic, textDiagnostics } from './file-diagnostics.js';
import { didYouMean } from '../text/closest-name.js';

/** How help spells a flag's value. */
function valueText(f: TargetFlag): string | undefined {
  switch (f.kind) {
    case 'boolean':
      return undefined;
    case 'choice':
      return f.value ?? f.choices.join('|');
    case 'words':
      return f.choices.join(',');
    case 'count':
    case 'file':
      return f.value;
    default:
      return assertNever(f);
  }
}

const defaultOf = (f: TargetFlag): string | undefined => ('default' in f ? f.default : undefined);

/** The help line of a flag: the targets that take it, what it does, its default (each target's, where they differ). */
function helpText(owners: readonly { readonly target: string; readonly flag: TargetFlag }[]): string {
  const f = owners[0].flag;
  const choices = f.kind === 'choice' && f.value ? ` (${f.choices.join(' | ')})` : '';
  const defaults = [...new Set(owners.map((o) => defaultOf(o.flag)))];
  const dflt =
    defaults.length > 1
      ? ` (default ${owners.map((o) => `${defaultOf(o.flag) ?? 'none'} for ${o.target}`).join(', ')})`
      : defaults[0] !== undefined
        ? ` (default ${defaults[0]})`
        : '';
  return `${owners.map((o) => o.target).join(', ')}: ${f.help}${choices}${dflt}`;
}

/** Every flag of every target, once each, with the targets that take it. */
export function flagOwners(): Map<string, { readonly target: string; readonly flag: TargetFlag }[]> {
  const byFlag = new Map<string, { target: string; flag: TargetFlag }[]>();
  for (const t of TARGET_RECORDS) {
    for (const f of t.flags) {
      const seen = byFlag.get(f.flag);
      if (seen) seen.push({ target: t.name, flag: f });
      else byFlag.set(f.flag, [{ target: t.name, flag: f }]);
    }
  }
  return byFlag;
}

function specKind(f: TargetFlag): OptionSpec['kind'] {
  if (f.kind === 'boolean') return 'boolean';
  return f.kind === 'words' && f.repeatable ? 'list' : 'string';
}

/** The parser's specs for the targets' flags. */
export function flagOptionSpecs(): OptionSpec[] {
  return [...flagOwners().values()].map((owners) => ({
    name: owners[0].flag.flag,
    kind: specKind(owners[0].flag),
    value: valueText(owners[0].flag),
    help: helpText(owners),
    singleDash: owners.some((o) => o.flag.singleDash),
  }));
}

/** The README's table of target options, made from the records. */
export function targetOptionTable(): string {
  const rows = TARGET_RECORDS.flatMap((t) =>
    t.flags.map((f) => {
      const v = valueText(f);
      const dflt = 'default' in f && f.default !== undefined ? ` (default \`${f.default}\`)` : '';
      const choices = f.kind === 'choice' && f.value ? `: ${f.choices.map((c) => `\`${c}\``).join(', ')}` : '';
      return `| \`${t.name}\` | \`--${f.flag}${v ? ` ${v}` : ''}\` | \`${f.option}\` | ${f.help}${choices}${dflt} |`;
    }),
  );
  const escape = (row: string) => row.replace(/`[^`]*`/g, (code) => code.replaceAll('|', '\\|'));
  return (
    ['| target | option | lower() option | meaning |', '| --- | --- | --- | --- |', ...rows.map(escape)].join('\n') +
    '\n'
  );
}

/** Checks the chosen target's flags and folds them into the options; a flag of another target is a usage error. */
export function applyTargetFlags(
  target: Pick<Target, 'name' | 'flags'>,
  values: ParsedArgs['values'],
  base: LowerOptions,
  io: CliIO,
): LowerOptions | number {
  let o = base;
  const own = new Map(target.flags.map((f) => [f.flag, f]));
  for (const [name, owners] of flagOwners()) {
    if (!values.has(name)) continue;
    const f = own.get(name);
    if (!f) throw new UsageError(`--${name} applies to --target ${owners.map((x) => x.target).join(' or ')} only`);
    const v = values.get(name);
    switch (f.kind) {
      case 'boolean':
        o = f.apply(o, v === true);
        break;
      case 'choice': {
        const given = String(v);
        const now = f.deprecated?.[given];
        // An old spelling still works, with a warning naming the new one (scripts and saved command lines keep going).
        if (now !== undefined) {
          io.stderr(
            formatDiagnostic(new DiagnosticBag().report(Messages.deprecatedChoice, undefined, [name, given, now])),
          );
        }
        const s = now ?? given;
        if (!f.choices.includes(s))
          throw new UsageError(`--${name} takes ${f.choices.join(', ')}, not '${s}'${didYouMean(s, f.choices)}`);
        o = f.apply(o, s);
        break;
      }
      case 'count': {
        const s = String(v);
        if (!/^\d+$/.test(s)) throw new UsageError(`--${name} takes a byte count, not '${s}'`);
        o = f.apply(o, Number(s));
        break;
      }
      case 'words': {
        const given = Array.isArray(v) ? v : [String(v)];
        const words = given.flatMap((x) => x.split(',')).filter(Boolean);
        for (const w of words)
          if (!f.choices.includes(w))
            throw new UsageError(
              `--${name}: unknown ${f.noun} '${w}' (choose from ${f.choices.join(', ')})${didYouMean(w, f.choices)}`,
            );
        o = f.apply(o, words);
        break;
      }
      case 'file': {
        const path = String(v);
        const read = readText(io, path);
        if ('error' in read) {
          io.stderr(fileDiagnostic(path, Messages.cannotReadFile, [f.help.split(' (')[0], read.error]));
          return 1;
        }
        const r = f.apply(o, read.text);
        if ('message' in r) {
          io.stderr(
            textDiagnostics(path, read.text, [
              { message: Messages.samplerMapLine, args: [r.message], place: lineStart(read.text, r.line) },
            ]),
          );
          return 1;
        }
        o = r;
        break;
      }
      default:
        assertNever(f);
    }
  }
  return o;
}

/** The place of a 1-based line's text (a sampler map's refusal names the line). */
function lineStart(text: string, line: number): { start: number; end: number } {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    start = nl + 1;
  }
  const nl = text.indexOf('\n', start);
  return { start, end: nl < 0 ? text.length : nl };
}
