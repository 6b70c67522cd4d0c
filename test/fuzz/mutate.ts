// libFuzzer-style mutations of byte inputs: bit and byte edits, chunk copies and erasures,
// splices with other corpus entries, dictionary words inserted or written over, and repeats
// (which build deep nesting and long lines quickly).

/** A small fast PRNG (xorshift32), seeded, so a campaign can be replayed. */
export class Rng {
  constructor(private s: number) {
    if (this.s === 0) this.s = 0x9e3779b9;
  }
  next(): number {
    let x = this.s;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.s = x >>> 0;
    return this.s;
  }
  below(n: number): number {
    return n <= 0 ? 0 : this.next() % n;
  }
}

const INTERESTING = [
  '0',
  '-1',
  '1',
  '255',
  '256',
  '65535',
  '2147483647',
  '2147483648',
  '4294967295',
  '4294967296',
  '9223372036854775807',
  '18446744073709551616',
  '1e308',
  '0x',
  '0x7fffffff',
];

function splice(a: Uint8Array, at: number, remove: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length - remove + insert.length);
  out.set(a.subarray(0, at), 0);
  out.set(insert, at);
  out.set(a.subarray(at + remove), at + insert.length);
  return out;
}

const enc = new TextEncoder();

/** One to a few mutations of `input`, never longer than `maxLen`. */
export function mutate(
  input: Uint8Array,
  rng: Rng,
  corpus: readonly Uint8Array[],
  dict: readonly Uint8Array[],
  maxLen: number,
): Uint8Array {
  let a = input;
  const rounds = 1 + rng.below(4);
  for (let r = 0; r < rounds; r++) {
    const at = rng.below(a.length + 1);
    switch (rng.below(11)) {
      case 0: // flip a bit
        if (a.length) {
          a = a.slice();
          a[rng.below(a.length)] ^= 1 << rng.below(8);
        }
        break;
      case 1: // set a byte (printable most of the time)
        if (a.length) {
          a = a.slice();
          a[rng.below(a.length)] = rng.below(4) ? 32 + rng.below(95) : rng.below(256);
        }
        break;
      case 2: // insert bytes
        a = splice(
          a,
          at,
          0,
          Uint8Array.from({ length: 1 + rng.below(4) }, () => (rng.below(4) ? 32 + rng.below(95) : rng.below(256))),
        );
        break;
      case 3: // erase a chunk
        if (a.length) a = splice(a, at, Math.min(a.length - at, 1 + rng.below(16)), new Uint8Array());
        break;
      case 4: // copy a chunk of itself elsewhere
        if (a.length) {
          const from = rng.below(a.length);
          a = splice(a, at, 0, a.slice(from, from + 1 + rng.below(32)));
        }
        break;
      case 5: // splice with another input
        if (corpus.length) {
          const o = corpus[rng.below(corpus.length)];
          const from = rng.below(o.length + 1);
          a = splice(
            a,
            at,
            rng.below(2) ? 0 : Math.min(a.length - at, rng.below(32)),
            o.subarray(from, from + rng.below(128)),
          );
        }
        break;
      case 6: // insert a dictionary word
      case 7:
        if (dict.length) a = splice(a, at, 0, dict[rng.below(dict.length)]);
        break;
      case 8: // write a dictionary word over
        if (dict.length) {
          const w = dict[rng.below(dict.length)];
          a = splice(a, at, Math.min(a.length - at, w.length), w);
        }
        break;
      case 9: // an interesting number
        a = splice(a, at, 0, enc.encode(INTERESTING[rng.below(INTERESTING.length)]));
        break;
      default: {
        // repeat a short chunk many times (nesting, long lines)
        if (a.length) {
          const from = rng.below(a.length);
          const chunk = a.slice(from, from + 1 + rng.below(8));
          const times = 2 << rng.below(10);
          const rep = new Uint8Array(chunk.length * times);
          for (let k = 0; k < times; k++) rep.set(chunk, k * chunk.length);
          a = splice(a, at, 0, rep);
        }
      }
    }
    if (a.length > maxLen) a = a.slice(0, maxLen);
  }
  return a;
}

/** Reads a libFuzzer/AFL dictionary: one `"word"` (or `name="word"`) per line, with \\xNN, \\" and \\\\ escapes. */
export function parseDictionary(text: string): Uint8Array[] {
  const words: Uint8Array[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(?:[A-Za-z0-9_]+\s*=\s*)?"((?:[^"\\]|\\.)*)"\s*$/.exec(line);
    if (!m) continue;
    const bytes: number[] = [];
    const s = m[1];
    for (let i = 0; i < s.length; i++) {
      if (s[i] === '\\' && s[i + 1] === 'x') {
        bytes.push(parseInt(s.slice(i + 2, i + 4), 16));
        i += 3;
      } else if (s[i] === '\\') {
        bytes.push(s.charCodeAt(++i));
      } else bytes.push(...enc.encode(s[i]));
    }
    words.push(Uint8Array.from(bytes));
  }
  return words;
}
