import { didYouMean } from '../text/closest-name.js';
import type { OptionDeclaration } from '../options/option-declaration.js';

/**
 * One command-line option: the one record its parsing, its checks and its `--help` line all read
 * (the TypeScript compiler's `optionDeclarations` is the model); the core declares the options
 * that set lower()'s options, each command adds its own.
 */
export type OptionSpec = OptionDeclaration;

export interface ParsedArgs {
  readonly positionals: string[];
  readonly values: Map<string, string | boolean | string[]>;
  /** Every value of a list option as [option name, value], in command-line order (`-D` and `-U` interleave). */
  readonly sequence: [string, string][];
}

export class UsageError extends Error {}

/** How the user would spell an option: `--name`, or `-X` for one with only a short form in mind. */
const spelled = (s: OptionSpec) => `--${s.name}`;

/** An unknown option, with the nearest known one when there is a likely typo. */
export function unknownOption(given: string, name: string, specs: readonly OptionSpec[]): UsageError {
  return new UsageError(
    `unknown option '${given}'${didYouMean(
      name,
      specs.map((s) => s.name),
      (n) => spelled(specs.find((s) => s.name === n)!),
    )}`,
  );
}

/** A string option's value checked against its choices. */
export function checkChoice(spec: OptionSpec, value: string): void {
  if (!spec.choices || spec.choices.includes(value)) return;
  const list = spec.choices.length === 2 ? spec.choices.join(' or ') : spec.choices.join(', ');
  throw new UsageError(`--${spec.name} takes ${list}, not '${value}'${didYouMean(value, spec.choices)}`);
}

/** Parses `--name value`, `--name=value`, `-X value`, `-Xvalue`, `--flag`, `--no-flag`. */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  const positionals: string[] = [];
  const values = new Map<string, string | boolean | string[]>();
  const sequence: [string, string][] = [];
  const set = (spec: OptionSpec, v: string | boolean) => {
    if (typeof v === 'string') checkChoice(spec, v);
    if (spec.kind === 'list') {
      sequence.push([spec.name, String(v)]);
      const list = (values.get(spec.name) as string[] | undefined) ?? [];
      list.push(String(v));
      values.set(spec.name, list);
    } else values.set(spec.name, v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const single = /^-([A-Za-z][\w-]+)(=|$)/.exec(a);
    const singleSpec = single && !a.startsWith('--') ? byName.get(single[1]) : undefined;
    if (a.startsWith('--') || singleSpec?.singleDash) {
      const dashes = a.startsWith('--') ? 2 : 1;
      const eq = a.indexOf('=');
      const name = a.slice(dashes, eq < 0 ? undefined : eq);
      let spec = byName.get(name);
      if (!spec && name.startsWith('no-') && byName.get(name.slice(3))?.kind === 'boolean') {
        if (eq >= 0) throw new UsageError(`option '${'-'.repeat(dashes)}${name}' takes no value`);
        values.set(name.slice(3), false);
        continue;
      }
      if (!spec) throw unknownOption(`${'-'.repeat(dashes)}${name}`, name, specs);
      if (spec.kind === 'boolean') {
        if (eq >= 0) {
          const v = a.slice(eq + 1);
          if (!['0', '1', 'true', 'false'].includes(v))
            throw new UsageError(`option '${'-'.repeat(dashes)}${name}' takes 0 or 1, not '${v}'`);
          values.set(name, v === '1' || v === 'true');
        } else values.set(name, true);
        continue;
      }
      let v: string | undefined = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`option '${'-'.repeat(dashes)}${name}' needs a value`);
      set(spec, v);
      spec = undefined;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const spec = byShort.get(a[1]);
      if (!spec) throw unknownOption(a, /^-[\w-]+/.exec(a)?.[0].slice(1) ?? a.slice(1), specs);
      if (spec.kind === 'boolean') {
        values.set(spec.name, true);
        continue;
      }
      const v = a.length > 2 ? a.slice(2) : argv[++i];
      if (v === undefined) throw new UsageError(`option '-${spec.short}' needs a value`);
      set(spec, v);
      continue;
    }
    positionals.push(a);
  }
  return { positionals, values, sequence };
}

/** An option's spelling in help and in the README: `-I, --include <dir>`, `-cl-std <CLx.y>`. */
export function optionFlag(s: OptionSpec): string {
  return (
    (s.short ? `-${s.short}, ` : '') + `${s.shownWithOneDash ? '-' : '--'}${s.name}` + (s.value ? ` ${s.value}` : '')
  );
}

/** The help lines of some options: flag column, then what each does. */
export function optionHelp(specs: readonly OptionSpec[]): string {
  const rows = specs.map((s) => {
    // Options without a one-letter form are indented past the `-X, ` of those with one.
    const flag = (s.short ? '' : '    ') + optionFlag(s);
    return [flag, s.help];
  });
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([f, h]) => `  ${f.padEnd(w)}  ${h}`).join('\n') + '\n';
}
