import { type ScalarTypeName, isFloatType } from '../../frontend/tinytc/ast.js';

/** OpenCL C spelling of each tinytc scalar type. */
export const C_TYPE: Record<ScalarTypeName, string> = {
  i1: 'bool',
  i8: 'char',
  i16: 'short',
  i32: 'int',
  i64: 'long',
  index: 'long',
  f32: 'float',
  f64: 'double',
  // tinytc v0.4's types: half needs cl_khr_fp16; bf16 is kept as its 16 bits (computed in float, bf16.ts);
  // a complex number is a 2-vector, real part first (complex.ts).
  f16: 'half',
  bf16: 'ushort',
  c32: 'float2',
  c64: 'double2',
};

export const isWide = (t: ScalarTypeName) => t === 'i64' || t === 'index';

/** The unsigned type arithmetic wraps in: `uint` up to 32 bits (C promotes narrower types to int), `ulong` for 64. */
export const wrapType = (t: ScalarTypeName) => (isWide(t) ? 'ulong' : 'uint');

/** A double as an exact C99 hexadecimal floating literal (no suffix), or a macro for infinities and NaN. */
export function hexFloat(x: number): string {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x > 0 ? 'INFINITY' : '(-INFINITY)';
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0);
  const lo = dv.getUint32(4);
  const sign = hi >>> 31 ? '-' : '';
  const exp = (hi >>> 20) & 0x7ff;
  const mant = ((BigInt(hi & 0xfffff) << 32n) | BigInt(lo)).toString(16).padStart(13, '0').replace(/0+$/, '') || '0';
  if (exp === 0 && mant === '0') return `${sign}0x0p+0`;
  return exp === 0 ? `${sign}0x0.${mant}p-1022` : `${sign}0x1.${mant}p${exp - 1023 >= 0 ? '+' : ''}${exp - 1023}`;
}

/** A floating literal of the type, exact: f32 values are rounded to float first, as tinytc does. */
export function floatLiteral(x: number, t: 'f32' | 'f64'): string {
  const v = t === 'f32' ? Math.fround(x) : x;
  const text = hexFloat(v);
  if (!/^-?0x/.test(text)) return t === 'f64' ? `((double)${text})` : text;
  const lit = t === 'f32' ? `${text}f` : text;
  return lit.startsWith('-') ? `(${lit})` : lit;
}

/** An integer literal of the type; the caller has checked that it fits. */
export function intLiteral(v: bigint, t: ScalarTypeName): string {
  if (t === 'i1') return v ? 'true' : 'false';
  if (isFloatType(t)) return floatLiteral(Number(v), t);
  if (isWide(t)) return v === -(2n ** 63n) ? '(-9223372036854775807L - 1L)' : v < 0n ? `(${v}L)` : `${v}L`;
  if (t === 'i32') return v === -(2n ** 31n) ? '(-2147483647 - 1)' : v < 0n ? `(${v})` : `${v}`;
  return `((${C_TYPE[t]})${v})`;
}
