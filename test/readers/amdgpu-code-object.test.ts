// The AMDGPU code object reader: recorded code objects (clang-16/19/22, code objects 4/5/6) read
// into the plan kernarg predicts from their source, slot by slot, and against llvm-readelf-22;
// fresh compiles of fixtures and generated kernels (a sample: scripts/readers-roundtrip-sweep.ts
// runs them all); and the messages a malformed file gets.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readBinary } from '../../src/readers/index.js';
import { decodeMsgpack } from '../../src/readers/msgpack.js';
import { ByteError } from '../../src/readers/byte-error.js';
import { fixtureFiles } from '../support/fixtures.js';
import { STDS, programSpec, renderBatch, samples } from '../support/gen.js';
import { amdhsaRoundTrip, compileCodeObject, type Source } from '../support/reader-roundtrip.js';
import { CLANG, CLANG19, CLANG22_AMDHSA, READELF22, requireTool } from '../support/tools.js';

const DIR = join(import.meta.dirname, 'code-objects');
const KINDS: Source = { text: readFileSync(join(DIR, 'kinds.cl'), 'utf8'), std: 'CL2.0' };
const RECORDED = [
  [16, 4],
  [19, 5],
  [22, 6],
] as const;
const object = (llvm: number, co: number) => new Uint8Array(readFileSync(join(DIR, `kinds.${llvm}.co${co}.o`)));

test('recorded code objects 4, 5 and 6 read into the plan kernarg predicts from their source, every slot', () => {
  for (const [llvm, co] of RECORDED) {
    const r = amdhsaRoundTrip(object(llvm, co), KINDS, llvm, co);
    assert.deepEqual(r.differences, [], `clang-${llvm}, code object ${co}`);
    assert.equal(r.kernels, 3);
  }
});

test('the round trip notices a plan that differs: a code object 4 object is not the code object 5 prediction', () => {
  const r = amdhsaRoundTrip(object(16, 4), KINDS, 16, 5);
  assert.ok(
    r.differences.some((d) => /code object: read 4, predicted 5/.test(d)),
    r.differences.join('\n'),
  );
  assert.ok(
    r.differences.some((d) => /slot \d+: predicted .*hidden_block_count_x/.test(d)),
    r.differences.join('\n'),
  );
});

test('a code object read: names, type names, address spaces, access, pointee alignment, by-value layouts from the type name', () => {
  const r = readBinary(object(22, 6), 'kinds.o');
  assert.deepEqual(r.diagnostics, []);
  assert.ok(r.plan?.target === 'amdhsa');
  const [values, handles] = r.plan.kernels;
  const by = (k: typeof values, n: string) => k.args.find((a) => a.name === n)!;
  assert.deepEqual(
    [by(values, 'l').valueKind, by(values, 'l').pointeeAlign, by(values, 'l').addressSpace],
    ['dynamic_shared_pointer', 4, 'local'],
  );
  assert.deepEqual([by(values, 'c').addressSpace, by(values, 'c').typeName], ['constant', 'char*']);
  assert.deepEqual(by(values, 'v').layout, {
    kind: 'vector',
    element: 'float',
    encoding: 'float',
    elementSize: 4,
    length: 4,
    size: 16,
    align: 16,
  });
  assert.deepEqual(
    by(values, 'd').layout?.kind === 'vector' && [
      by(values, 'd').layout!.size,
      (by(values, 'd').layout as { length: number }).length,
    ],
    [32, 3],
  );
  // A struct the metadata only names: its bytes.
  assert.deepEqual(by(values, 's').layout?.kind === 'array' && by(values, 's').layout!.size, 12);
  assert.deepEqual([by(handles, 'img').access, by(handles, 'out').access], ['read_only', 'write_only']);
  // Placed as a plan read from JSON is: slots carry where they live and how they are filled.
  assert.deepEqual(by(values, 'n').where, { kind: 'segment', offset: by(values, 'n').offset, size: 4 });
});

test('kernel arguments without -cl-kernel-arg-info names are named by position', (t) => {
  const clang = requireTool(t, CLANG22_AMDHSA);
  if (!clang) return;
  const bytes = compileCodeObject(
    clang,
    { text: 'kernel void k(global int *a, int n) {}', std: 'CL1.2', noArgInfo: true },
    6,
  );
  const r = readBinary(bytes, 'k.o');
  assert.ok(r.plan?.target === 'amdhsa', JSON.stringify(r.diagnostics));
  assert.deepEqual(
    r.plan.kernels[0].args.slice(0, 2).map((a) => [a.name, a.typeName]),
    [
      ['arg0', 'int*'],
      ['arg1', 'int'],
    ],
  );
});

for (const [llvm, tool, co] of [
  [16, CLANG, 4],
  [19, CLANG19, 5],
  [22, CLANG22_AMDHSA, 6],
] as const) {
  test(`clang-${llvm} code object ${co}: fixtures and generated kernels read back equal to kernarg's plan, and to llvm-readelf-22 --notes (a sample)`, (t) => {
    const clang = requireTool(t, tool);
    const readelf = requireTool(t, READELF22);
    if (!clang || !readelf) return;
    const files = fixtureFiles();
    // Three fixtures a generation, a different three each (the sweep script reads them all).
    const start = (llvm % 5) * 3;
    const sources: Source[] = files.slice(start, start + 3).map((f) => ({
      text: f.text,
      std: f.std,
      path: f.path,
      includeDirs: f.includeDirs,
      defines: f.defines,
      clangArgs: f.clangArgs,
      host: f,
    }));
    const { values } = samples(programSpec, 12, 7100 + llvm);
    sources.push({ text: renderBatch(values, 0, 'q'), std: STDS[llvm % 3] });
    let kernels = 0;
    for (const s of sources) {
      const r = amdhsaRoundTrip(compileCodeObject(clang, s, co), s, llvm, co, readelf);
      assert.deepEqual(r.differences, [], s.path ?? s.text);
      kernels += r.kernels;
    }
    assert.ok(kernels >= 10, `only ${kernels} kernels`);
  });
}

test('malformed files get a diagnostic at a byte, with the reader code', () => {
  const good = object(19, 5);
  const cases: [Uint8Array, RegExp][] = [
    [good.subarray(0, 10), /^at byte 0: the file ends inside the ELF identification \(16 bytes needed, 10 there\)/],
    [good.subarray(0, 40), /^at byte 0: the file ends inside the ELF header/],
    [good.subarray(0, 200), /section headers of 64 bytes each do not fit the file|ends inside/],
    [Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 2, ...new Array(58).fill(0)]), /^at byte 5: big-endian/],
    [Uint8Array.from([1, 2, 3, 4]), /^at byte 0: not a kind of compiled kernel/],
  ];
  for (const [bytes, want] of cases) {
    const r = readBinary(bytes, 'bad.o');
    assert.equal(r.plan, undefined);
    assert.equal(r.diagnostics.length, 1);
    assert.match(r.diagnostics[0].message, want);
    assert.match(r.diagnostics[0].code, /^KA70\d\d$/);
  }
  // An ELF for another ABI version is no code object 4-6.
  const v3 = good.slice();
  v3[8] = 1;
  assert.match(
    readBinary(v3, 'v3.o').diagnostics[0].message,
    /ELF ABI version 1 is not an AMDHSA code object 4, 5 or 6/,
  );
});

test('msgpack: lengths past the data, nesting past the budget, unknown type bytes and trailing bytes are messages at their byte', () => {
  const msg = (bytes: number[], budget?: { depth: number; values: number }) => {
    try {
      decodeMsgpack(Uint8Array.from(bytes), 100, budget);
      return 'decoded';
    } catch (e) {
      assert.ok(e instanceof ByteError, String(e));
      return `${e.diagnosticMessage.code} ${e.args.join(' ')}`;
    }
  };
  assert.equal(msg([0xdd, 0xff, 0xff, 0xff, 0xff]), 'KA7010 100 an array of 4294967295');
  assert.equal(msg([0xdb, 0, 0, 0, 9, 0x61]), 'KA7010 105 a string');
  assert.equal(msg([0x91, 0x91, 0x91, 0x90], { depth: 2, values: 100 }), 'KA7012 102 2');
  assert.equal(msg([0x93, 1, 2, 3], { depth: 8, values: 3 }), 'KA7013 103 3');
  assert.equal(msg([0xc1]), 'KA7011 100 c1');
  assert.equal(msg([0x01, 0x02]), 'KA7015 101 1');
  assert.equal(msg([0xcf, 0xff, 0, 0, 0, 0, 0, 0, 0]), 'KA7014 100 18374686479671623680');
  assert.equal(msg([0x82, 0xa1, 0x61, 0x01, 0xa1, 0x62, 0xc3]), 'decoded');
});
