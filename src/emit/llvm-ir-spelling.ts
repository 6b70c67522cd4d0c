// How LLVM IR spells names, strings and scalar types (llvm-ir.ts writes the module with them).
import type { ScalarName } from '../types/types.js';
import type { PointerSizedScalar } from '../types/scalar-facts.js';

/**
 * `xs` appended to `out` by a loop: `out.push(...xs)` passes every element as an argument, and a module of 100,000
 * kernels has more lines than the stack holds arguments.
 */
export function pushAll(out: string[], xs: readonly string[]): void {
  for (const x of xs) out.push(x);
}

/** Printable ASCII but `"` and `\`: what an LLVM string holds as it is. */
const PLAIN = /^[ !#-[\]-~]*$/;

/**
 * An LLVM string body: printable ASCII as is, everything else (and `"`, `\`) as `\XX`. Nearly every string is plain
 * (LLVM IR of 190,000 kernels spells over a million type names): those are quoted without being encoded.
 */
export function llvmString(s: string): string {
  if (PLAIN.test(s)) return `"${s}"`;
  let out = '';
  for (const b of new TextEncoder().encode(s)) {
    out +=
      b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c
        ? String.fromCharCode(b)
        : '\\' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return `"${out}"`;
}

/** An LLVM identifier: bare when it is a C identifier, quoted otherwise. */
export function ident(sigil: '@' | '%', name: string): string {
  return /^[A-Za-z_$.][A-Za-z0-9_$.]*$/.test(name) ? `${sigil}${name}` : `${sigil}${llvmString(name)}`;
}

/** LLVM IR's type for each scalar of a fixed size (size_t and friends take the data layout's width). */
export const SCALAR_IR = {
  void: 'void',
  bool: 'i1',
  char: 'i8',
  uchar: 'i8',
  short: 'i16',
  ushort: 'i16',
  int: 'i32',
  uint: 'i32',
  long: 'i64',
  ulong: 'i64',
  half: 'half',
  float: 'float',
  double: 'double',
} as const satisfies Record<Exclude<ScalarName, PointerSizedScalar>, string>;
/** The scalars `!vec_type_hint` marks signed (clang's vector elements; the hint takes no size_t). */
export const SIGNED = new Set<ScalarName>(['char', 'short', 'int', 'long']);
