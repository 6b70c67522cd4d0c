// Structured fuzzing with the project's own fast-check models: the fuzzer's bytes are the random
// source an arbitrary draws from, one byte a draw, so a mutated byte changes one choice of the
// generated value (a parameter's type, an array's length) and the coverage-guided corpus keeps the
// choices that reached new code. Past the last byte every draw is 0: the smallest choice.
import fc from 'fast-check';

/** pure-rand's generator interface (v8), fed from bytes. */
class ByteSource {
  constructor(
    private readonly bytes: Uint8Array,
    private at = 0,
  ) {}
  clone(): ByteSource {
    return new ByteSource(this.bytes, this.at);
  }
  /** A 32-bit value spreading one byte over the whole range, so `value mod n` follows the byte for small n. */
  next(): number {
    const b = this.at < this.bytes.length ? this.bytes[this.at] : 0;
    this.at++;
    return Math.imul(b, 0x01010101) | 0;
  }
  getState(): readonly number[] {
    return [this.at];
  }
}

/** The value `arb` generates when its draws are `bytes` (no bias: every choice is as the bytes say). */
export function fromBytes<T>(arb: fc.Arbitrary<T>, bytes: Uint8Array): T {
  return arb.generate(new fc.Random(new ByteSource(bytes)), undefined).value;
}
