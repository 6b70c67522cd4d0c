// writeOutput: `-o` and `--output-dir` outputs longer than one string may be go out in batches.
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

test('an output over the join limit is begun with writeFile and continued in ~1 MiB appends, in order', () => {
  const { io, files, calls } = memoryIO(true);
  writeOutput(io, 'out.json', pieces, 1 << 20);
  assert.equal(files.get('out.json'), pieces.join(''));
  assert.equal(calls[0], 'write 0');
  assert.ok(calls.length >= 4, calls.join(', '));
  for (const c of calls.slice(1, -1)) assert.match(c, /^append (\d+)$/);
  for (const c of calls.slice(1, -1)) assert.ok(Number(c.split(' ')[1]) >= 1 << 20, c);
});

test('an output within the join limit, or an IO without appendFile, is written at once; bytes as they are', () => {
  for (const [withAppend, limit] of [[true, 1 << 28], [false, 1 << 20]] as const) {
    const { io, files, calls } = memoryIO(withAppend);
    writeOutput(io, 'out.txt', pieces, limit);
    assert.equal(files.get('out.txt'), pieces.join(''));
    assert.deepEqual(calls, [`write ${30 * 100 * 1024}`]);
  }
  const { io, files } = memoryIO(true);
  const bytes = new Uint8Array([3, 2, 0x23, 7]);
  writeOutput(io, 'out.spv', bytes);
  assert.equal(files.get('out.spv'), bytes);
});
