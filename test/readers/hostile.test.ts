// Hostile inputs for the binary readers: truncations, bit flips and overwritten words of real code
// objects and zebins, and random bytes behind real headers. Every one gives a plan or
// diagnostics (each with a reader code and the byte), never an exception, and in bounded time.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { readBinary } from '../../src/readers/index.js';
import { decodeMsgpack } from '../../src/readers/msgpack.js';
import { parseZeInfoYaml } from '../../src/readers/ze-info-yaml.js';
import { ByteError } from '../../src/readers/byte-error.js';

const HERE = import.meta.dirname;
const REAL = [
  join(HERE, 'code-objects', 'kinds.16.co4.o'),
  join(HERE, 'code-objects', 'kinds.22.co6.o'),
  join(HERE, 'zebins', 'hand-images.pvc.zebin'),
  join(HERE, 'zebins', 'hand-pointers.tgllp.zebin'),
].map((f) => new Uint8Array(readFileSync(f)));
const SEED = process.env.KERNARG_FC_SEED ? Number(process.env.KERNARG_FC_SEED) : 7070;

/** A reader's answer: a plan, or diagnostics that each carry a reader code and name a byte. */
function wellFormed(bytes: Uint8Array): boolean {
  const started = performance.now();
  const r = readBinary(bytes, 'fuzz.bin');
  assert.ok(performance.now() - started < 2000, 'a read took over 2 s');
  if (r.plan) return true;
  assert.ok(r.diagnostics.length > 0, 'no plan and no diagnostic');
  for (const d of r.diagnostics) {
    assert.match(d.code, /^KA70\d\d$/);
    assert.match(d.message, /^at byte \d+: /);
  }
  return true;
}

const mutation = fc.record({
  file: fc.nat(REAL.length - 1),
  kind: fc.constantFrom('truncate', 'flip', 'word'),
  at: fc.nat(),
  bit: fc.nat(7),
  word: fc.constantFrom(0, 0xffffffff, 0x7fffffff, 0x80000000, 1, 64, 0xffff),
  count: fc.integer({ min: 1, max: 8 }),
});

test('truncated, bit-flipped and overwritten code objects and zebins never throw (fast-check)', () => {
  fc.assert(
    fc.property(mutation, (m) => {
      const src = REAL[m.file];
      let bytes: Uint8Array;
      if (m.kind === 'truncate') bytes = src.subarray(0, m.at % src.length);
      else {
        bytes = src.slice();
        const view = new DataView(bytes.buffer);
        for (let i = 0; i < m.count; i++) {
          // Header and section-header bytes are where a flip changes the most: half the mutations land in the first 128
          // bytes or the section headers.
          const at = (m.at * (i + 1) * 2654435761) % (i % 2 ? bytes.length : 128);
          if (m.kind === 'flip') bytes[at] ^= 1 << m.bit;
          else if (at + 4 <= bytes.length) view.setUint32(at, m.word, true);
        }
      }
      return wellFormed(bytes);
    }),
    { seed: SEED, numRuns: 1000 },
  );
});

test('every truncation of a code object and a zebin is a diagnostic, never an exception', () => {
  for (const src of [REAL[0], REAL[2]]) for (let n = 0; n < src.length; n += 7) wellFormed(src.subarray(0, n));
});

test('random bytes, bare and behind a real ELF header, never throw (fast-check)', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), fc.nat(REAL.length - 1), fc.boolean(), (tail, file, behind) => {
      const bytes = behind ? Uint8Array.from([...REAL[file].subarray(0, 64), ...tail]) : tail;
      return wellFormed(bytes);
    }),
    { seed: SEED, numRuns: 1500 },
  );
});

test('msgpack and the .ze_info YAML reader throw nothing but their ByteError on random input (fast-check)', () => {
  const onlyByteErrors = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      if (!(e instanceof ByteError)) throw e;
    }
    return true;
  };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (b) => onlyByteErrors(() => decodeMsgpack(b))),
    { seed: SEED, numRuns: 2000 },
  );
  const yamlish = fc
    .array(
      fc.tuple(
        fc.nat(8),
        fc.constantFrom('- ', '', ''),
        fc.constantFrom('a', 'kernels', "'q''x'", 'k"'),
        fc.constantFrom(':', ': 1', ": '2'", ': [ 1, 2 ]', ': "x\\"', ' x', ': &a', ':\t'),
      ),
      { maxLength: 30 },
    )
    .map((ls) => ls.map(([i, d, k, v]) => `${' '.repeat(i)}${d}${k}${v}`).join('\n'));
  fc.assert(
    fc.property(yamlish, (s) => onlyByteErrors(() => parseZeInfoYaml(new TextEncoder().encode(s), 0))),
    { seed: SEED, numRuns: 2000 },
  );
});
