// writeOutput: `-o` and `--output-dir` outputs go out in batches as their pieces are made.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CliIO, writeOutput } from '../src/cli/io.js';

function memoryIO(withAppend: boolean): { io: CliIO; files: Map<string, string | Uint8Array>; calls: string[] } {
  const files = new Map<string, string | Uint8Array>();
  const calls: string[] = [];
  const io: CliIO = {
    stdout: () => undefined,
    stderr: () => undefined,
    readFile: () => undefined,
    writeFile: (p, d) => {
      calls.push(`write ${typeof d === 'string' ? d.length : 'bytes'}`);
      files.set(p, d);
    },
    color: false,
  };
  if (withAppend) {
    io.appendFile = (p, t) => {
      calls.push(`append ${t.length}`);
      files.set(p, (files.get(p) as string) + t);
    };
  }
  return { io, files, calls };
}

// 3 MiB in pieces of 100 KiB, each piece distinct so order mistakes show.
const pieces = Array.from({ length: 30 }, (_, i) => String.fromCharCode(65 + (i % 26)).repeat(100 * 1024));

test('a text output is begun with writeFile and continued in ~1 MiB appends, in order', () => {
  const { io, files, calls } = memoryIO(true);
  writeOutput(io, 'out.json', pieces);
  assert.equal(files.get('out.json'), pieces.join(''));
  assert.match(calls[0], /^write (\d+)$/);
  assert.ok(Number(calls[0].split(' ')[1]) >= 1 << 20, calls[0]);
  assert.ok(calls.length >= 3, calls.join(', '));
  for (const c of calls.slice(1)) assert.match(c, /^append (\d+)$/);
  for (const c of calls.slice(1, -1)) assert.ok(Number(c.split(' ')[1]) >= 1 << 20, c);
});

test('pieces are written as they are made: no more than a batch is asked for ahead of its write', () => {
  const { io, files, calls } = memoryIO(true);
  let made = 0;
  function* lazy(): Generator<string> {
    for (const p of pieces) {
      // Each piece is asked for only once what came before it beyond a batch has been written.
      const written = calls.reduce((n, c) => n + Number(c.split(' ')[1]), 0);
      assert.ok(made - written <= (1 << 20) + 100 * 1024, `${made} made, ${written} written`);
      made += p.length;
      yield p;
    }
  }
  writeOutput(io, 'out.json', lazy());
  assert.equal(files.get('out.json'), pieces.join(''));
});

test('a small output, or any output to an IO without appendFile, is one write; an empty one too; bytes as they are', () => {
  for (const [withAppend, data] of [
    [true, pieces.slice(0, 3)],
    [false, pieces],
    [true, []],
  ] as const) {
    const { io, files, calls } = memoryIO(withAppend);
    writeOutput(io, 'out.txt', data);
    assert.equal(files.get('out.txt'), data.join(''));
    assert.deepEqual(calls, [`write ${data.join('').length}`]);
  }
  const { io, files } = memoryIO(true);
  const bytes = new Uint8Array([3, 2, 0x23, 7]);
  writeOutput(io, 'out.spv', bytes);
  assert.equal(files.get('out.spv'), bytes);
});
