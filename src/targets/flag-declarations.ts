// A target's command-line flags declared against the fields of its option group: each declaration
// names the field it sets (`key`), and the compiler checks that its kind and choices fit that
// field's type (a choice's values are the field's, a count sets a number, a file's reader returns
// the field's value). `declareFlags` then makes each flag's `apply`, so no target writes one by hand
// and no flag can set a field its group does not have.
import type { LowerOptions, TargetOptionGroups } from './options.js';
import type { TargetFlag } from './target.js';
import { assertNever } from '../assert-never.js';

type GroupName = keyof TargetOptionGroups;

interface Shared {
  readonly flag: string;
  readonly help: string;
  /** Also spelled with one dash, as the tool it mirrors does (clspv's `-pod-ubo`). */
  readonly singleDash?: boolean;
}

/** The declarations a field of type V can have: set by a flag of kind... */
type KindsFor<V> =
  // ...boolean: present or absent; or clspv's `=0|1` spelling with a default.
  | ([V] extends [boolean]
      ? { readonly kind: 'boolean' } | { readonly kind: 'zero-one'; readonly default: boolean }
      : never)
  // ...choice: one of the field's values, by its text (`--bits 32` sets 32).
  | ([V] extends [string | number]
      ? {
          readonly kind: 'choice';
          readonly choices: readonly V[];
          /** How help spells the value, where the choices are too many to list (`<triple>`). */
          readonly value?: string;
          readonly default?: V;
          /** Old spellings still taken, each with the choice it now is (the CLI warns). */
          readonly deprecated?: Readonly<Record<string, V>>;
        }
      : never)
  // ...count: a byte count.
  | ([V] extends [number] ? { readonly kind: 'count'; readonly value: string; readonly default?: number } : never)
  // ...words: comma-separated choices; `repeatable` flags gather every occurrence.
  | ([V] extends [readonly (infer E extends string)[]]
      ? {
          readonly kind: 'words';
          readonly choices: readonly E[];
          readonly repeatable: boolean;
          readonly noun: string;
          readonly default?: string;
        }
      : never)
  // ...file: a file whose text `read` turns into the value, or says what is wrong on which line.
  | ([V] extends [readonly unknown[]]
      ? {
          readonly kind: 'file';
          readonly value: string;
          read(text: string): { readonly value: V } | { readonly line: number; readonly message: string };
        }
      : never);

/** One flag of group G: the field it sets, and a kind that fits the field's type. */
export type FlagDeclaration<G> = {
  [K in keyof G & string]-?: Shared & { readonly key: K } & KindsFor<NonNullable<G[K]>>;
}[keyof G & string];

/** Any flag declaration, its field's type forgotten: what `declareFlags` reads once the types were checked. */
type AnyDeclaration = Shared & { readonly key: string } & (
    | { readonly kind: 'boolean' }
    | { readonly kind: 'zero-one'; readonly default: boolean }
    | {
        readonly kind: 'choice';
        readonly choices: readonly (string | number)[];
        readonly value?: string;
        readonly default?: string | number;
        readonly deprecated?: Readonly<Record<string, string | number>>;
      }
    | { readonly kind: 'count'; readonly value: string; readonly default?: number }
    | {
        readonly kind: 'words';
        readonly choices: readonly string[];
        readonly repeatable: boolean;
        readonly noun: string;
        readonly default?: string;
      }
    | {
        readonly kind: 'file';
        readonly value: string;
        read(text: string): { readonly value: unknown } | { readonly line: number; readonly message: string };
      }
  );

/** The flags of one target, each setting a field of `o[group]`. */
export function declareFlags<N extends GroupName>(
  group: N,
  declarations: readonly FlagDeclaration<NonNullable<TargetOptionGroups[N]>>[],
): TargetFlag[] {
  // The one place a field is written by name: the declaration's type checked the value against the field.
  const set = (o: LowerOptions, key: string, value: unknown): LowerOptions =>
    ({ ...o, [group]: { ...o[group], [key]: value } }) as LowerOptions;
  // A group's declarations are some of all declarations; the generic group is not narrowed by TypeScript.
  return (declarations as readonly AnyDeclaration[]).map((d): TargetFlag => {
    const shared = {
      flag: d.flag,
      help: d.help,
      option: `${group}.${d.key}`,
      ...(d.singleDash ? { singleDash: true } : {}),
    };
    switch (d.kind) {
      case 'boolean':
        return { ...shared, kind: 'boolean', apply: (o, v) => set(o, d.key, v) };
      case 'zero-one':
        return {
          ...shared,
          kind: 'choice',
          choices: ['0', '1'],
          default: d.default ? '1' : '0',
          apply: (o, v) => set(o, d.key, v === '1'),
        };
      case 'choice': {
        const choices = d.choices.map(String);
        const deprecated =
          d.deprecated && Object.fromEntries(Object.entries(d.deprecated).map(([old, now]) => [old, String(now)]));
        return {
          ...shared,
          kind: 'choice',
          choices,
          ...(d.value !== undefined ? { value: d.value } : {}),
          ...(d.default !== undefined ? { default: String(d.default) } : {}),
          ...(deprecated ? { deprecated } : {}),
          apply: (o, v) => set(o, d.key, d.choices[choices.indexOf(v)]),
        };
      }
      case 'count':
        return {
          ...shared,
          kind: 'count',
          value: d.value,
          ...(d.default !== undefined ? { default: String(d.default) } : {}),
          apply: (o, v) => set(o, d.key, v),
        };
      case 'words':
        return {
          ...shared,
          kind: 'words',
          choices: d.choices,
          repeatable: d.repeatable,
          noun: d.noun,
          ...(d.default !== undefined ? { default: d.default } : {}),
          apply: (o, v) => set(o, d.key, v),
        };
      case 'file':
        return {
          ...shared,
          kind: 'file',
          value: d.value,
          apply(o, text) {
            const r = d.read(text);
            return 'message' in r ? r : set(o, d.key, r.value);
          },
        };
      default:
        return assertNever(d);
    }
  });
}
