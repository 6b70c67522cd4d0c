/**
 * A float constant as SPIRV-Tools prints it: normal numbers as C++ streams print them with
 * max_digits10 significant digits (9 for 32-bit, 17 for 64-bit) in %g style; zeros as `0`/`-0`;
 * subnormals, infinities and NaNs as normalized hexadecimal floats (`0x1p-149`, `0x1p+128`).
 */
export function formatFloat(bits: bigint, width: number): string {
  const mantBits = width === 16 ? 10 : width === 32 ? 23 : 52;
  const expBits = width === 16 ? 5 : width === 32 ? 8 : 11;
  const bias = (1 << (expBits - 1)) - 1;
  const sign = (bits >> BigInt(width - 1)) & 1n ? '-' : '';
  const exp = Number((bits >> BigInt(mantBits)) & BigInt((1 << expBits) - 1));
  const mant = bits & ((1n << BigInt(mantBits)) - 1n);
  // SPIRV-Tools prints every 16-bit float as a hexadecimal float (zero as 0x0p+0).
  if (exp === 0 && mant === 0n) return width === 16 ? `${sign}0x0p+0` : `${sign}0`;
  if (width === 16 || exp === 0 || exp === (1 << expBits) - 1) {
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
  // A normal number m·2^e as an exact fraction N/D, rounded to `precision` digits half-to-even (as C++ streams do).
  const precision = width === 32 ? 9 : 17;
  const m = (1n << BigInt(mantBits)) | mant;
  const e = exp - bias - mantBits;
  const N = e >= 0 ? m << BigInt(e) : m;
  const D = e >= 0 ? 1n : 1n << BigInt(-e);
  const pow10 = (k: number) => 10n ** BigInt(k);
  const ge = (k: number) => (k >= 0 ? N >= pow10(k) * D : N * pow10(-k) >= D);
  let e10 = Math.floor(Math.log10(Number(N) / Number(D)));
  if (!Number.isFinite(e10)) e10 = Math.floor((e + mantBits) * Math.LOG10E * Math.LN2);
  while (!ge(e10)) e10--;
  while (ge(e10 + 1)) e10++;
  const shift = precision - 1 - e10;
  const num = shift >= 0 ? N * pow10(shift) : N;
  const den = shift >= 0 ? D : D * pow10(-shift);
  let q = num / den;
  const twice = 2n * (num % den);
  if (twice > den || (twice === den && q % 2n === 1n)) q++;
  if (q === pow10(precision)) {
    q /= 10n;
    e10++;
  }
  const digits = q.toString();
  const strip = (x: string) => (x.includes('.') ? x.replace(/0+$/, '').replace(/\.$/, '') : x);
  if (e10 < -4 || e10 >= precision) {
    const ee = Math.abs(e10);
    return `${sign}${strip(`${digits[0]}.${digits.slice(1)}`)}e${e10 < 0 ? '-' : '+'}${ee < 10 ? '0' : ''}${ee}`;
  }
  // Fixed notation: the point after e10 + 1 digits (zeros in front when e10 < 0).
  const fixed =
    e10 >= 0 ? `${digits.slice(0, e10 + 1)}.${digits.slice(e10 + 1)}` : `0.${'0'.repeat(-e10 - 1)}${digits}`;
  return `${sign}${strip(fixed)}`;
}

/**
 * A float constant as C's `%a` prints its value widened to a double (what tinytc's `tinytc-oc -S`
 * prints, through `std::hexfloat`): `0x1.5p+5`, `0x1p+0`, zeros `0x0p+0`, trailing zero digits
 * dropped; a double's subnormals as `0x0.<digits>p-1022`; `inf` and `nan`, signed when negative.
 * A 16- or 32-bit value is a normal double when it is not zero, so it always prints normalized.
 */
export function formatHexFloat(bits: bigint, width: number): string {
  const mantBits = width === 16 ? 10 : width === 32 ? 23 : 52;
  const expBits = width === 16 ? 5 : width === 32 ? 8 : 11;
  const bias = (1 << (expBits - 1)) - 1;
  const sign = (bits >> BigInt(width - 1)) & 1n ? '-' : '';
  const exp = Number((bits >> BigInt(mantBits)) & BigInt((1 << expBits) - 1));
  let mant = bits & ((1n << BigInt(mantBits)) - 1n);
  if (exp === (1 << expBits) - 1) return `${sign}${mant === 0n ? 'inf' : 'nan'}`;
  if (exp === 0 && mant === 0n) return `${sign}0x0p+0`;
  // The fraction's 52 bits as a double holds them: 13 hex digits, trailing zeros dropped.
  const digits = (m: bigint) => m.toString(16).padStart(13, '0').replace(/0+$/, '');
  if (exp === 0 && width === 64) return `${sign}0x0.${digits(mant)}p-1022`;
  let e = exp === 0 ? 1 - bias : exp - bias;
  if (exp === 0) {
    // A 16- or 32-bit subnormal: shift its leading 1 into the implicit bit.
    while (!(mant & (1n << BigInt(mantBits)))) {
      mant <<= 1n;
      e--;
    }
    mant &= (1n << BigInt(mantBits)) - 1n;
  }
  const frac = digits(mant << BigInt(52 - mantBits));
  return `${sign}0x1${frac ? `.${frac}` : ''}p${e >= 0 ? '+' : ''}${e}`;
}
