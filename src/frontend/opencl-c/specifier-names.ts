// The names the specifier parser looks words up in: image, opaque and vector type names, the
// specifiers clang treats as a sign or width, and the type one basic keyword names alone.
import {
  IMAGE_TYPES,
  OPAQUE_TYPES,
  type ScalarName,
  type Type,
  type VectorElement,
  scalar,
} from '../../types/types.js';

export const IMAGE_NAMES: ReadonlySet<string> = new Set(IMAGE_TYPES);
/** Specifiers clang sets as a sign or a width: repeated, they are warned about and ignored. */
export const SIGN_OR_WIDTH: ReadonlySet<string> = new Set(['signed', 'unsigned', 'short']);
export const OPAQUE_NAMES: ReadonlySet<string> = new Set(OPAQUE_TYPES);

/** `float4` and the like: element and length by name. */
export const VECTOR_NAMES = new Map<string, readonly [VectorElement, 2 | 3 | 4 | 8 | 16]>();
for (const e of [
  'char',
  'uchar',
  'short',
  'ushort',
  'int',
  'uint',
  'long',
  'ulong',
  'half',
  'float',
  'double',
] as const) {
  for (const n of [2, 3, 4, 8, 16] as const) VECTOR_NAMES.set(`${e}${n}`, [e, n]);
}

/** The type one basic keyword names alone (as basicType would give it; one keyword raises no diagnostic). */
export function singleBasicType(key: string): Type {
  switch (key) {
    case 'void':
    case 'bool':
    case 'float':
    case 'double':
    case 'half':
    case 'char':
    case 'short':
    case 'int':
    case 'long':
      return scalar(key as ScalarName);
    case 'signed':
      return scalar('int');
    case 'unsigned':
      return { ...scalar('uint'), spelling: 'unsigned int' };
    default:
      throw new Error(`not a basic type keyword: ${key}`);
  }
}

/**
 * What a word can be among declaration specifiers, for the one lookup `declSpecifiers` makes per
 * word (instead of a string compare or set test per kind in turn). `builtin`: a type name
 * builtinTypeName knows. Words not here are typedef names or the declarator.
 */
export type SpecifierWord =
  | 'attribute'
  | 'kernel'
  | 'storage'
  | 'qualifier'
  | 'space'
  | 'access'
  | 'pipe'
  | 'basic'
  | 'record'
  | 'enum'
  | 'builtin';

/** Every specifier word with its kind (the word lists come from parser-core.ts and the tables above). */
export function specifierWords(lists: {
  readonly storage: Iterable<string>;
  readonly qualifiers: Iterable<string>;
  readonly spaces: Iterable<string>;
  readonly access: Iterable<string>;
  readonly basic: Iterable<string>;
  readonly scalars: Iterable<string>;
}): ReadonlyMap<string, SpecifierWord> {
  const words = new Map<string, SpecifierWord>([
    ['__attribute__', 'attribute'],
    ['kernel', 'kernel'],
    ['__kernel', 'kernel'],
    ['pipe', 'pipe'],
    ['struct', 'record'],
    ['union', 'record'],
    ['enum', 'enum'],
  ]);
  const add = (kind: SpecifierWord, names: Iterable<string>) => {
    for (const w of names) {
      if (words.has(w)) throw new Error(`specifier word '${w}' is both ${words.get(w)} and ${kind}`);
      words.set(w, kind);
    }
  };
  add('storage', lists.storage);
  add('qualifier', lists.qualifiers);
  add('space', lists.spaces);
  add('access', lists.access);
  add('basic', lists.basic);
  add('builtin', lists.scalars);
  add('builtin', IMAGE_NAMES);
  add('builtin', OPAQUE_NAMES);
  add('builtin', VECTOR_NAMES.keys());
  return words;
}
