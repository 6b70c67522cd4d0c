// How a scalar's bytes encode its value: the one place a C scalar name becomes an encoding. Value
// layouts carry the result as data, so packers and readers never look at type names.

/** A scalar's encoding; its width is the layout's size in bytes. */
export type ScalarEncoding = 'int' | 'uint' | 'float' | 'half' | 'bool';

const ENCODINGS: Readonly<Record<string, ScalarEncoding>> = {
  bool: 'bool',
  char: 'int', short: 'int', int: 'int', long: 'int',
  uchar: 'uint', ushort: 'uint', uint: 'uint', ulong: 'uint',
  half: 'half', float: 'float', double: 'float',
  ptrdiff_t: 'int', intptr_t: 'int',
  size_t: 'uint', uintptr_t: 'uint',
  /** Pointers, images, samplers and other handles: an unsigned address or handle of the data layout's width. */
  handle: 'uint',
};

/** The encoding of a scalar by its OpenCL C name (an enum by its underlying type's). */
export function scalarEncoding(name: string): ScalarEncoding {
  return Object.hasOwn(ENCODINGS, name) ? ENCODINGS[name] : 'uint';
}

/** Whether the encoding is an integer one (bool included). */
export function isInteger(e: ScalarEncoding): boolean {
  return e === 'int' || e === 'uint' || e === 'bool';
}
