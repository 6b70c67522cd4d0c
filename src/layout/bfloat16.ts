// bfloat16: the upper 16 bits of an IEEE binary32, rounded to nearest even — the encoding of tinytc's
// bf16, shared by the code generators' constants, the runtime packer and the reference evaluator.

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** The bits of the bfloat16 nearest a number (rounded to float first, as tinytc's `bfloat16{float(d)}`); NaN stays NaN. */
export function bf16Bits(v: number): number {
  F32[0] = v;
  const x = U32[0];
  if ((x & 0x7f800000) === 0x7f800000 && x & 0x7fffff) return (x >>> 16) | 0x40;
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
}

/** The number a bfloat16's bits encode. */
export function bf16Value(bits: number): number {
  U32[0] = (bits & 0xffff) << 16;
  return F32[0];
}
