// The value layout (in a plan's JSON form) of a by-value argument a binary describes only by its
// type name and size: OpenCL C scalars and vectors by name; anything else (a struct the binary
// names but does not describe) as its bytes, an array of uchar the caller fills.
import { SCALAR_FACTS, isScalarName } from '../types/scalar-facts.js';

/**
 * A scalar's bytes by its name, for the scalars of a fixed size that a value may have (not void, not size_t and
 * friends).
 */
function fixedBytes(name: string): number | undefined {
  if (name === 'void' || !isScalarName(name)) return undefined;
  const bytes = SCALAR_FACTS[name].bytes;
  return bytes === 'size_t' ? undefined : bytes;
}
/** The spellings clang's `kernel_arg_type` uses for unsigned scalars, as OpenCL C names them. */
const UNSIGNED: Readonly<Record<string, string>> = {
  'unsigned char': 'uchar',
  'unsigned short': 'ushort',
  'unsigned int': 'uint',
  'unsigned long': 'ulong',
};
const VECTOR_LENGTHS = [2, 3, 4, 8, 16];

/** `{kind: scalar|vector|array, ...}` for a by-value argument of `size` bytes named `typeName`. */
export function byValueLayoutJson(typeName: string | undefined, size: number): unknown {
  const name = typeName === undefined ? undefined : (UNSIGNED[typeName] ?? typeName);
  if (name !== undefined && fixedBytes(name) === size) return { kind: 'scalar', type: name, size, align: size };
  const v = name === undefined ? null : /^([a-z]+?)(2|3|4|8|16)$/.exec(name);
  const elementBytes = v && v[1] !== 'bool' ? fixedBytes(v[1]) : undefined;
  if (v && elementBytes !== undefined) {
    const length = Number(v[2]);
    const stored = length === 3 ? 4 : length;
    if (VECTOR_LENGTHS.includes(length) && elementBytes * stored === size)
      return { kind: 'vector', element: v[1], length, size, align: size };
  }
  return {
    kind: 'array',
    element: { kind: 'scalar', type: 'uchar', size: 1, align: 1 },
    length: size,
    stride: 1,
    size,
    align: 1,
  };
}
