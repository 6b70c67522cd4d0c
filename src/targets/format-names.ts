// Every output format a target may offer, as a union: a target's `formats` list only these, so a
// target that adds a format adds it here, and every table keyed by `FormatName` (the CLI's file
// extensions) fails `tsc` until it has the new format's row.

export const FORMAT_NAMES = [
  'table',
  'json',
  'signatures',
  'opencl-c',
  'llvm-ir',
  'clrx',
  'descriptor-map',
  'spirv',
  'spirv-asm',
  'ptx',
  'ze-info',
] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export function isFormatName(name: string): name is FormatName {
  return (FORMAT_NAMES as readonly string[]).includes(name);
}

/** Whether `formats` (a target's) offers the format a caller named. */
export function offersFormat(formats: readonly FormatName[], name: string): boolean {
  return isFormatName(name) && formats.includes(name);
}
