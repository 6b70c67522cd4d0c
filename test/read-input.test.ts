// The CLI's file reader (src/cli/read-input.ts): one buffer of the file's size, and an all-ASCII file decoded as
// Latin-1. Both must give what Node's UTF-8 decoding of the whole file gives, for any bytes and any size.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeText, readInput } from '../src/cli/read-input.js';

test('decodeText is UTF-8 decoding, for ASCII, Latin-1 bytes, a byte-order mark and broken sequences', () => {
  const cases = ['', 'kernel void k(global float *a) { }\n', '\ufeffkernel void k() {}', '// café ∑ 𝔸\nint x;'].map(
    (t) => Buffer.from(t, 'utf8'),
  );
  cases.push(Buffer.from([0x61, 0xc3, 0x28, 0xff, 0x80, 0x62]), Buffer.from([0xe9, 0x0a]));
  for (const b of cases) assert.equal(decodeText(b), b.toString('utf8'));
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, ascii) => {
      const b = Buffer.from(ascii ? bytes.map((x) => x & 0x7f) : bytes);
      assert.equal(decodeText(b), b.toString('utf8'));
    }),
    { numRuns: 500 },
  );
});

test('readInput gives a file whole at sizes about its buffer and chunk edges, and its bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-read-'));
  try {
    for (const size of [0, 1, 4095, 4096, 4097, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 17]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = 32 + ((i * 7) % 90);
      if (size > 2) bytes[size >> 1] = 0xc3; // a broken sequence in the middle: the UTF-8 path
      const path = join(dir, `f${size}.cl`);
      writeFileSync(path, bytes);
      const r = readInput(path);
      assert.ok('text' in r, `size ${size}`);
      assert.equal(r.text, bytes.toString('utf8'), `size ${size}`);
      assert.deepEqual(Buffer.from(r.bytes!), bytes, `size ${size}`);
      assert.deepEqual(readInput(path, size), r);
      if (size > 0)
        assert.deepEqual(readInput(path, size - 1), {
          error: `is larger than the input limit of ${size - 1} bytes`,
        });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readInput reads a file that says it is empty but is not (a /proc file) in full', () => {
  const r = readInput('/proc/self/status');
  assert.ok('text' in r);
  assert.match(r.text, /^Name:/);
  assert.match(r.text, /\nPid:\s+\d+/);
});
