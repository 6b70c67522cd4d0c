// The targets the page offers and their options: made from the core's target records (TARGET_RECORDS),
// so a target or flag added there shows up here with nothing to copy.
import { type LowerOptions, type TargetFlag, type TargetName, CL_STDS, type ClStd, TARGET_RECORDS } from 'kernarg';

export interface Choice {
  readonly value: string;
  readonly label: string;
}

/** One control: a choice list, or an on/off flag (values 'on' and 'off'), and how its value goes into LowerOptions. */
export interface OptionSpec {
  /** The record's flag name (`pod-ubo`, `code-object`): the control is `data-option="<target>.<key>"`. */
  readonly key: string;
  readonly label: string;
  readonly help: string;
  readonly kind: 'choice' | 'flag';
  readonly choices?: readonly Choice[];
  readonly default: string;
  apply(o: LowerOptions, value: string): LowerOptions;
}

/**
 * The page's controls for a target's flags: its choices and on/off flags. Counts, word lists and
 * files (push-constant limits, storage-class lists, sampler maps) stay on the command line.
 */
function controlsOf(flags: readonly TargetFlag[]): OptionSpec[] {
  const out: OptionSpec[] = [];
  for (const f of flags) {
    const help = `--${f.flag}`;
    switch (f.kind) {
      case 'boolean':
        out.push({
          key: f.flag,
          label: f.help,
          help,
          kind: 'flag',
          default: 'off',
          apply: (o, v) => f.apply(o, v === 'on'),
        });
        break;
      case 'choice': {
        // A flag without a default leaves the choice to the core (amdhsa's code object follows --llvm):
        // the control then starts on "default", which applies nothing, so picking the first real
        // choice applies it instead of being taken for the default.
        const choices = f.choices.map((c) => ({ value: c, label: c }));
        if (f.default === undefined) choices.unshift({ value: '', label: 'default' });
        out.push({
          key: f.flag,
          label: f.help,
          help,
          kind: 'choice',
          choices,
          default: f.default ?? '',
          apply: (o, v) => f.apply(o, v),
        });
        break;
      }
      case 'count':
      case 'words':
      case 'file':
        break;
      default:
        f satisfies never;
    }
  }
  return out;
}

export const ALL_TARGETS: readonly TargetName[] = TARGET_RECORDS.map((t) => t.name);
const TITLES = new Map<TargetName, string>(TARGET_RECORDS.map((t) => [t.name, t.title]));
const CONTROLS = new Map<TargetName, readonly OptionSpec[]>(TARGET_RECORDS.map((t) => [t.name, controlsOf(t.flags)]));

/** The record's short name of a target. */
export const targetTitle = (t: TargetName): string => TITLES.get(t) ?? t;
/** The controls of a target's panel. */
export const targetOptions = (t: TargetName): readonly OptionSpec[] => CONTROLS.get(t) ?? [];
export const CL_VERSIONS: readonly ClStd[] = CL_STDS;

/** The value of a target option in a state's option map, or its default. */
export function optionValue(options: Readonly<Record<string, string>>, target: TargetName, spec: OptionSpec): string {
  const v = options[`${target}.${spec.key}`];
  if (v === undefined) return spec.default;
  if (spec.kind === 'flag') return v === 'on' ? 'on' : 'off';
  return spec.choices?.some((c) => c.value === v) ? v : spec.default;
}

/** `-D` text (`N=4 FAST`, `-D N=4 -DFAST`) as the core's define pairs. */
export function parseDefines(text: string): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  const words = text
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '' && w !== '-D');
  for (const raw of words) {
    const w = raw.startsWith('-D') ? raw.slice(2) : raw;
    const eq = w.indexOf('=');
    out.push(eq < 0 ? [w, undefined] : [w.slice(0, eq), w.slice(eq + 1)]);
  }
  return out;
}

export interface SourceOptions {
  readonly defines: string;
  readonly std: ClStd;
}

/**
 * LowerOptions for one target from the page's source options and option map: each control left off its default is
 * applied as the CLI applies its flag.
 */
export function lowerOptions(
  target: TargetName,
  src: SourceOptions,
  options: Readonly<Record<string, string>>,
  format: string,
): LowerOptions {
  let o: LowerOptions = { target, format, std: src.std, defines: parseDefines(src.defines) };
  for (const spec of targetOptions(target)) {
    const v = optionValue(options, target, spec);
    if (v !== spec.default) o = spec.apply(o, v);
  }
  return o;
}
