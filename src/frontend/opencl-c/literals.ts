/** Values of C literals: integer, character, string and floating constants (C11 6.4.4, 6.4.5). */

export interface IntLiteral {
  readonly value: bigint;
  readonly unsigned: boolean;
  /** 'int' | 'long' (OpenCL C has no long long: both 'l' and 'll' mean 64 bits). */
  readonly size: 'int' | 'long';
}

const INT_RE = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)?$/;

/** Parses an integer constant; returns a reason string when it is not one. */
export function parseIntLiteral(text: string): IntLiteral | string {
  const m = INT_RE.exec(text);
  if (!m) return `'${text}' is not an integer constant`;
  const digits = m[1];
  const suffix = (m[2] ?? '').toLowerCase();
  let value: bigint;
  if (/^0[bB]/.test(digits)) value = BigInt(digits);
  else if (/^0[xX]/.test(digits)) value = BigInt(digits);
  else if (digits.length > 1 && digits[0] === '0') value = BigInt('0o' + digits.slice(1));
  else value = BigInt(digits);
  if (value >= 1n << 64n) return `integer constant '${text}' is too large`;
  const decimal = !/^0/.test(digits) || digits === '0';
  let unsigned = suffix.includes('u');
  let size: 'int' | 'long' = suffix.includes('l') ? 'long' : 'int';
  // C11 6.4.4.1p5: the first type of the list that can hold the value.
  if (size === 'int') {
    if (unsigned ? value > 0xffffffffn : value > 0x7fffffffn) {
      if (!unsigned && !decimal && value <= 0xffffffffn) unsigned = true;
      else size = 'long';
    }
  }
  if (size === 'long' && !unsigned && value > 0x7fffffffffffffffn) unsigned = true;
  return { value, unsigned, size };
}

const SIMPLE_ESCAPES: Record<string, number> = {
  n: 10,
  t: 9,
  r: 13,
  a: 7,
  b: 8,
  f: 12,
  v: 11,
  '\\': 92,
  "'": 39,
  '"': 34,
  '?': 63,
  e: 27,
};

/** Decodes the body of a character or string literal into code units; returns a reason on a bad escape. */
export function decodeEscapes(body: string): number[] | string {
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      const cp = body.codePointAt(i)!;
      if (cp > 0x7f) {
        // UTF-8, as clang stores narrow literals.
        for (const b of new TextEncoder().encode(String.fromCodePoint(cp))) out.push(b);
        if (cp > 0xffff) i++;
      } else out.push(cp);
      continue;
    }
    const d = body[++i];
    if (d === undefined) return 'trailing backslash';
    if (d in SIMPLE_ESCAPES) out.push(SIMPLE_ESCAPES[d]);
    else if (d === 'x') {
      let j = i + 1;
      while (j < body.length && /[0-9a-fA-F]/.test(body[j])) j++;
      if (j === i + 1) return '\\x used with no following hex digits';
      out.push(Number(BigInt('0x' + body.slice(i + 1, j)) & 0xffn));
      i = j - 1;
    } else if (d >= '0' && d <= '7') {
      let j = i;
      while (j < body.length && j < i + 3 && body[j] >= '0' && body[j] <= '7') j++;
      out.push(parseInt(body.slice(i, j), 8) & 0xff);
      i = j - 1;
    } else return `unknown escape sequence '\\${d}'`;
  }
  return out;
}

/** The value of a character constant: type int, the (signed char) value of its single byte. */
export function parseCharLiteral(text: string): number | string {
  const m = /^(u8|u|U|L)?'(.*)'$/s.exec(text);
  if (!m) return `'${text}' is not a character constant`;
  const units = decodeEscapes(m[2]);
  if (typeof units === 'string') return units;
  if (units.length === 0) return 'empty character constant';
  if (m[1]) return units[units.length - 1];
  // Multi-character constants: clang packs them big-endian into an int.
  let v = 0;
  for (const u of units) v = (v << 8) | u | 0;
  if (units.length === 1) v = (units[0] << 24) >> 24;
  return v;
}

/** The bytes of a narrow string literal, without the terminating zero. */
export function parseStringLiteral(text: string): number[] | string {
  const m = /^(u8|u|U|L)?"(.*)"$/s.exec(text);
  if (!m) return `'${text}' is not a string literal`;
  if (m[1] && m[1] !== 'u8') return `wide string literals are not supported in OpenCL C`;
  return decodeEscapes(m[2]);
}

export interface FloatLiteral {
  readonly value: number;
  /** 'half' (h suffix), 'float' (f), or 'double' (none). */
  readonly type: 'half' | 'float' | 'double';
}

/** Parses a floating constant, decimal or hexadecimal, with suffixes f, F, h, H, l, L. */
export function parseFloatLiteral(text: string): FloatLiteral | string {
  let body = text;
  let type: FloatLiteral['type'] = 'double';
  const last = body[body.length - 1];
  const hex = /^0[xX]/.test(body);
  if ((last === 'f' || last === 'F') && !(hex && !/[pP]/.test(body))) {
    type = 'float';
    body = body.slice(0, -1);
  } else if (last === 'h' || last === 'H') {
    type = 'half';
    body = body.slice(0, -1);
  } else if (last === 'l' || last === 'L') body = body.slice(0, -1);
  if (hex) {
    const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(body);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return `'${text}' is not a valid hexadecimal floating constant`;
    const intPart = m[1] || '0';
    const frac = m[2] ?? '';
    const mant = BigInt('0x' + intPart + frac);
    const exp = Number(m[3]) - 4 * frac.length;
    return { value: scaleBigInt(mant, exp), type };
  }
  if (!/^(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$/.test(body) || !/[.eE]/.test(body))
    return `'${text}' is not a valid floating constant`;
  return { value: Number(body), type };
}

/** mant * 2^exp, correctly rounded to double. */
function scaleBigInt(mant: bigint, exp: number): number {
  if (mant === 0n) return 0;
  const bits = mant.toString(2).length;
  if (bits > 60) {
    // Keep 64 significant bits plus a sticky bit; Number() rounds them once.
    const shift = bits - 64;
    const sticky = (mant & ((1n << BigInt(shift)) - 1n)) !== 0n ? 1n : 0n;
    mant = (mant >> BigInt(shift)) | sticky;
    exp += shift;
  }
  let v = Number(mant);
  // Stop once the value has overflowed or underflowed: an exponent like p118446744073709551616 would
  // otherwise take 10^17 steps (a fuzzer-found hang).
  while (exp > 0 && v !== Infinity) {
    const s = Math.min(exp, 1000);
    v *= 2 ** s;
    exp -= s;
  }
  while (exp < 0 && v !== 0) {
    const s = Math.min(-exp, 1000);
    v /= 2 ** s;
    exp += s;
  }
  return v;
}

export function isFloatLiteralText(text: string): boolean {
  if (/^0[xX]/.test(text)) return /[pP]/.test(text);
  return /[.eE]/.test(text);
}
