/**
 * A float constant as SPIRV-Tools prints it: normal numbers as C++ streams print them with
 * max_digits10 significant digits (9 for 32-bit, 17 for 64-bit) in %g style; zeros as `0`/`-0`;
 * subnormals, infinities and NaNs as normalized hexadecimal floats (`0x1p-149`, `0x1p+128`).
 */
export function formatFloat(bits: bigint, width: number): string {
  const mantBits = width === 32 ? 23 : 52;
  const expBits = width === 32 ? 8 : 11;
  const bias = (1 << (expBits - 1)) - 1;
  const sign = (bits >> BigInt(width - 1)) & 1n ? '-' : '';
  const exp = Number((bits >> BigInt(mantBits)) & BigInt((1 << expBits) - 1));
  const mant = bits & ((1n << BigInt(mantBits)) - 1n);
  if (exp === 0 && mant === 0n) return `${sign}0`;
  if (exp === 0 || exp === (1 << expBits) - 1) {
    // Normalized hex: shift a subnormal's mantissa until its leading 1 is the implicit bit.
    let m = mant;
    let e = exp === 0 ? 1 - bias : exp - bias;
    if (exp === 0) {
      while (!(m & (1n << BigInt(mantBits)))) {
        m <<= 1n;
        e--;
      }
      m &= (1n << BigInt(mantBits)) - 1n;
    }
    // Hex digits of the fraction: pad the mantissa to whole nibbles, drop trailing zeros.
    const nibbles = Math.ceil(mantBits / 4);
    const frac = (m << BigInt(nibbles * 4 - mantBits)).toString(16).padStart(nibbles, '0').replace(/0+$/, '');
    return `${sign}0x1${frac ? `.${frac}` : ''}p${e >= 0 ? '+' : ''}${e}`;
  }
  const dv = new DataView(new ArrayBuffer(8));
  let x: number;
  if (width === 32) {
    dv.setUint32(0, Number(bits), true);
    x = dv.getFloat32(0, true);
  } else {
    dv.setBigUint64(0, bits, true);
    x = dv.getFloat64(0, true);
  }
  const precision = width === 32 ? 9 : 17;
  const [digits, expText] = x.toExponential(precision - 1).split('e');
  const e10 = Number(expText);
  const strip = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (e10 < -4 || e10 >= precision) {
    const ee = Math.abs(e10);
    return `${strip(digits)}e${e10 < 0 ? '-' : '+'}${ee < 10 ? '0' : ''}${ee}`;
  }
  return strip(x.toFixed(Math.max(0, precision - 1 - e10)));
}
