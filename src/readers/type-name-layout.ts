// The value layout (in a plan's JSON form) of a by-value argument a binary describes only by its
// type name and size: OpenCL C scalars and vectors by name; anything else (a struct the binary
// names but does not describe) as its bytes, an array of uchar the caller fills.

const SCALARS: Readonly<Record<string, number>> = {
  bool: 1, char: 1, uchar: 1, short: 2, ushort: 2, int: 4, uint: 4, long: 8, ulong: 8, half: 2, float: 4, double: 8,
};
/** The spellings clang's `kernel_arg_type` uses for unsigned scalars, as OpenCL C names them. */
const UNSIGNED: Readonly<Record<string, string>> = { 'unsigned char': 'uchar', 'unsigned short': 'ushort', 'unsigned int': 'uint', 'unsigned long': 'ulong' };
const VECTOR_LENGTHS = [2, 3, 4, 8, 16];

/** `{kind: scalar|vector|array, ...}` for a by-value argument of `size` bytes named `typeName`. */
export function byValueLayoutJson(typeName: string | undefined, size: number): unknown {
  const name = typeName === undefined ? undefined : (UNSIGNED[typeName] ?? typeName);
  if (name !== undefined && Object.hasOwn(SCALARS, name) && SCALARS[name] === size) return { kind: 'scalar', type: name, size, align: size };
  const v = name === undefined ? null : /^([a-z]+?)(2|3|4|8|16)$/.exec(name);
  if (v && Object.hasOwn(SCALARS, v[1]) && v[1] !== 'bool') {
    const length = Number(v[2]);
    const stored = length === 3 ? 4 : length;
    if (VECTOR_LENGTHS.includes(length) && SCALARS[v[1]] * stored === size) return { kind: 'vector', element: v[1], length, size, align: size };
  }
  return { kind: 'array', element: { kind: 'scalar', type: 'uchar', size: 1, align: 1 }, length: size, stride: 1, size, align: 1 };
}
