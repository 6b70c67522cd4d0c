// The facts about each OpenCL C scalar, one row per scalar and keyed by the `ScalarName` union, so
// a scalar added to `SCALARS` without its row (or a row for a name that is no scalar) fails `tsc`.
// Sizes, encodings and signedness are read from here by the layout rules, the plan reader and the
// binary readers; nothing else states them.

/** OpenCL C built-in scalar types (C99 names normalised to OpenCL's: `unsigned int` is `uint`). */
export const SCALARS = [
  'void',
  'bool',
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
  'size_t',
  'ptrdiff_t',
  'intptr_t',
  'uintptr_t',
] as const;
export type ScalarName = (typeof SCALARS)[number];

/** How a scalar's bytes encode its value; its width is the layout's size in bytes. */
export type ScalarEncoding = 'int' | 'uint' | 'float' | 'half' | 'bool';

export interface ScalarFacts {
  /** Bytes (its alignment too); `'size_t'` for the types as wide as the data layout's size_t. */
  readonly bytes: number | 'size_t';
  readonly encoding: ScalarEncoding;
  /** Whether C converts to it as an unsigned type (`bool` included: it holds 0 and 1). */
  readonly unsigned: boolean;
}

export const SCALAR_FACTS = {
  // GNU C's sizeof(void); the checker refuses a void value, so void is only ever a pointee.
  void: { bytes: 1, encoding: 'uint', unsigned: false },
  bool: { bytes: 1, encoding: 'bool', unsigned: true },
  char: { bytes: 1, encoding: 'int', unsigned: false },
  uchar: { bytes: 1, encoding: 'uint', unsigned: true },
  short: { bytes: 2, encoding: 'int', unsigned: false },
  ushort: { bytes: 2, encoding: 'uint', unsigned: true },
  int: { bytes: 4, encoding: 'int', unsigned: false },
  uint: { bytes: 4, encoding: 'uint', unsigned: true },
  long: { bytes: 8, encoding: 'int', unsigned: false },
  ulong: { bytes: 8, encoding: 'uint', unsigned: true },
  half: { bytes: 2, encoding: 'half', unsigned: false },
  float: { bytes: 4, encoding: 'float', unsigned: false },
  double: { bytes: 8, encoding: 'float', unsigned: false },
  size_t: { bytes: 'size_t', encoding: 'uint', unsigned: true },
  ptrdiff_t: { bytes: 'size_t', encoding: 'int', unsigned: false },
  intptr_t: { bytes: 'size_t', encoding: 'int', unsigned: false },
  uintptr_t: { bytes: 'size_t', encoding: 'uint', unsigned: true },
} as const satisfies Record<ScalarName, ScalarFacts>;

/** The scalars as wide as the data layout's size_t. */
export type PointerSizedScalar = {
  [K in ScalarName]: (typeof SCALAR_FACTS)[K]['bytes'] extends 'size_t' ? K : never;
}[ScalarName];

export function isPointerSized(name: ScalarName): name is PointerSizedScalar {
  return SCALAR_FACTS[name].bytes === 'size_t';
}

/** Whether the encoding is an integer one (bool included). */
export function isIntegerEncoding(e: ScalarEncoding): boolean {
  return e === 'int' || e === 'uint' || e === 'bool';
}

/** Whether `name` is an OpenCL C scalar's name (for names read from JSON or a binary). */
export function isScalarName(name: string): name is ScalarName {
  return Object.hasOwn(SCALAR_FACTS, name);
}
