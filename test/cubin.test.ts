import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { emitJson } from '../src/emit/json.js';
import { readBinary, binaryReaderFor } from '../src/readers/index.js';
import { readCubin, readNvInfo } from '../src/readers/cubin.js';
import { readPtx } from '../src/readers/ptx.js';
import { readCudaPlan } from '../src/targets/cuda/schema.js';
import { type CubinKernel, SAMPLE_KERNELS, buildCubin, nvInfoRecords } from './support/cubin-image.js';

const layout = (k: { args: readonly { offset: number; size: number; align: number; ptxType: string }[] }) =>
  k.args.map((a) => `${a.offset}+${a.size}/${a.align}:${a.ptxType}`);

test('a cubin is told by its bytes (EM_CUDA), and each .nv.info.<kernel> becomes a kernel of a cuda plan', () => {
  const bytes = buildCubin(SAMPLE_KERNELS);
  assert.equal(binaryReaderFor(bytes)?.kind, 'cubin');
  const r = readBinary(bytes, 'k.cubin');
  assert.deepEqual(r.diagnostics, []);
  assert.ok(r.plan?.target === 'cuda');
  const plan = r.plan;
  assert.equal(plan.arch, 'nvptx64');
  assert.deepEqual(
    plan.kernels.map((k) => k.name),
    ['mixed', 'bank', 'none'],
  );
  // Sizes 1, 2, 4, 8 at their own alignment read as integers (a pointer is a u64); the rest as byte arrays.
  assert.deepEqual(layout(plan.kernels[0]), ['0+8/8:u64', '8+1/1:u8', '16+8/8:u64', '32+16/16:b8', '48+16/16:b8']);
  // The .align 32 block after 13 bytes sits at 16, where the driver puts it (0x210 + 16 is 32-aligned): its alignment
  // is inferred as 32.
  assert.deepEqual(layout(plan.kernels[1]), ['0+13/16:b8', '16+32/32:b8']);
  assert.deepEqual(
    plan.kernels.map((k) => k.paramBytes),
    [64, 48, 0],
  );
  assert.deepEqual(
    plan.kernels[1].args.map((a) => a.name),
    ['bank_param_0', 'bank_param_1'],
  );
  // The plan passes the cuda schema's checks (alignment from the bank base, sizes, order) when read back.
  const again = readCudaPlan(JSON.parse(emitJson(plan)));
  assert.deepEqual(again.kernels.map(layout), plan.kernels.map(layout));
});

test('an ELF32 cubin reads as nvptx (32-bit pointers)', () => {
  const r = readCubin(
    buildCubin(
      [
        {
          name: 'k',
          params: [
            { ordinal: 0, offset: 0, size: 4 },
            { ordinal: 1, offset: 4, size: 4 },
          ],
        },
      ],
      32,
    ),
  );
  assert.equal(r.plan?.arch, 'nvptx');
  assert.deepEqual(layout(r.plan!.kernels[0]), ['0+4/4:u32', '4+4/4:u32']);
});

test('KPARAM_INFO records are read in any order; the other record formats are stepped over with their padding', () => {
  const params = [
    { ordinal: 2, offset: 16, size: 4 },
    { ordinal: 0, offset: 0, size: 8 },
    { ordinal: 1, offset: 8, size: 2 },
  ];
  const info = readNvInfo(nvInfoRecords({ name: 'k', params }), 100, '.nv.info.k');
  assert.deepEqual(
    info.params.map((p) => [p.ordinal, p.offset, p.size]),
    [
      [1, 8, 2],
      [0, 0, 8],
      [2, 16, 4],
    ],
  );
  assert.equal(info.paramSize, 20);
  // BVAL (3 bytes, padded to 2) and NVAL (2, padded to 4) before a KPARAM_INFO record.
  const records = Uint8Array.of(2, 0x30, 9, 0, 1, 0x04, 0, 0, 4, 0x17, 12, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0x10, 0);
  const read = readNvInfo(records, 0, '.nv.info.k');
  assert.deepEqual(
    read.params.map((p) => [p.ordinal, p.offset, p.size, p.at]),
    [[0, 4, 4, 8]],
  );
});

/** One kernel's cubin with its .nv.info.<kernel> bytes replaced. */
function withNvInfo(k: CubinKernel, patch: (records: Uint8Array) => Uint8Array): Uint8Array {
  const good = buildCubin([k]);
  const records = nvInfoRecords(k);
  const at = indexOf(good, records);
  const bad = patch(records.slice());
  assert.equal(bad.length, records.length, 'patches keep the section size');
  const out = good.slice();
  out.set(bad, at);
  return out;
}

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error('not found');
}

test('malformed .nv.info records and KPARAM_INFO lists are refused with the byte and the reason, never an exception', () => {
  const k: CubinKernel = {
    name: 'k',
    params: [
      { ordinal: 0, offset: 0, size: 8 },
      { ordinal: 1, offset: 8, size: 4 },
    ],
  };
  // The records: CBANK_PARAM_SIZE at 0, NVAL at 4, PARAM_CBANK at 8 (12 bytes), KPARAM_INFO ordinal 1 at 20, ordinal 0
  // at 36.
  const cases: [string, (r: Uint8Array) => Uint8Array, RegExp][] = [
    ['an unknown record format', (r) => ((r[4] = 9), r), /record format 9 is none of/],
    ['a sized record longer than the section', (r) => ((r[10] = 0xff), r), /a record of 255 bytes where \d+ are left/],
    ['a KPARAM_INFO of another size', (r) => ((r[22] = 8), r), /EIATTR_KPARAM_INFO holds 12 bytes, not 8/],
    ['two records for one ordinal', (r) => ((r[28] = 0), r), /two EIATTR_KPARAM_INFO records give ordinal 0/],
    ['an ordinal missing', (r) => ((r[28] = 2), r), /no EIATTR_KPARAM_INFO record gives ordinal 1/],
    [
      'overlapping parameters',
      (r) => ((r[30] = 4), r),
      /parameter 1 at offset 4 overlaps the one before, which ends at 8/,
    ],
    ['a parameter of size 0', (r) => (r.set([0, 0xf0, 1, 0], 32), r), /parameter 1 has size 0/],
    [
      'a buffer size short of the parameters',
      (r) => ((r[2] = 4), r),
      /EIATTR_CBANK_PARAM_SIZE says 4 bytes, but the parameters end at 12/,
    ],
  ];
  for (const [what, patch, message] of cases) {
    const r = readBinary(withNvInfo(k, patch), 'bad.cubin');
    assert.equal(r.plan, undefined, what);
    assert.equal(r.diagnostics.length, 1, what);
    assert.match(r.diagnostics[0].code, /^KA740[13]$/, what);
    assert.match(r.diagnostics[0].message, /^at byte \d+: /, what);
    assert.match(r.diagnostics[0].message, message, what);
  }
  const none = readCubin(buildCubin([]));
  assert.deepEqual(
    none.diagnostics.map((d) => d.code),
    ['KA7402'],
  );
});

test('every truncation of a cubin gets a diagnostic naming a byte (the ELF reader and the record reader bound every read)', () => {
  const bytes = buildCubin(SAMPLE_KERNELS);
  for (let n = 0; n < bytes.length; n += 7) {
    const r = readBinary(bytes.subarray(0, n), 'cut.cubin');
    if (r.plan) continue;
    assert.ok(r.diagnostics.length > 0, `cut at ${n}`);
    for (const d of r.diagnostics) assert.match(d.message, /^at byte \d+: /, `cut at ${n}: ${d.message}`);
  }
});

test("real cubins (ptxas and nvcc of CUDA 13.0, test/readers/cubins): offsets and sizes equal the PTX plan's for the cubin's own architecture", () => {
  const dir = join(import.meta.dirname, 'readers', 'cubins');
  const launchPtx = join(import.meta.dirname, '..', 'scripts', 'gpu-cuda', 'launch-kernels.ptx');
  const cases: [string, string, number][] = [
    ['launch-kernels.sm_80.cubin', launchPtx, 80],
    ['launch-kernels.sm_90.cubin', launchPtx, 90],
    ['nvcc-kernels.sm_90.cubin', join(dir, 'nvcc-kernels.sm_90.ptx'), 90],
  ];
  for (const [cubin, ptx, sm] of cases) {
    const bytes = new Uint8Array(readFileSync(join(dir, cubin)));
    assert.equal(binaryReaderFor(bytes)?.kind, 'cubin', cubin);
    const fromCubin = readCubin(bytes);
    assert.deepEqual(fromCubin.diagnostics, [], cubin);
    // The architecture comes from e_flags (ELF ABI version 8: bits 8-15).
    assert.equal(fromCubin.plan!.sm, sm, cubin);
    const fromPtx = readPtx(new Uint8Array(readFileSync(ptx)), ptx, fromCubin.plan!.sm).plan!;
    assert.deepEqual(
      fromCubin.plan!.kernels.map((k) => k.name).sort(),
      fromPtx.kernels.map((k) => k.name).sort(),
      cubin,
    );
    for (const k of fromCubin.plan!.kernels) {
      const p = fromPtx.kernels.find((x) => x.name === k.name)!;
      assert.deepEqual(
        k.args.map((a) => [a.offset, a.size]),
        p.args.map((a) => [a.offset, a.size]),
        `${cubin} ${k.name}`,
      );
    }
  }
  // sm_80 counts alignments above 16 from 0x160 (ptxas: the 32-aligned block after 13 bytes at 32), sm_90 from 0x210
  // (at 16).
  const sm80 = readCubin(new Uint8Array(readFileSync(join(dir, 'launch-kernels.sm_80.cubin')))).plan!;
  assert.deepEqual(
    sm80.kernels.find((k) => k.name === 'bank')!.args.map((a) => a.offset),
    [0, 32, 64],
  );
  const nvcc = readCubin(new Uint8Array(readFileSync(join(dir, 'nvcc-kernels.sm_90.cubin')))).plan!;
  assert.deepEqual(
    nvcc.kernels.find((k) => k.name === 'bank')!.args.map((a) => a.offset),
    [0, 16, 48],
  );
  // Read under sm_90's base, the sm_80 PTX plan differs where it did before the architecture was known.
  const asSm90 = readPtx(new Uint8Array(readFileSync(launchPtx)), launchPtx).plan!;
  assert.deepEqual(
    asSm90.kernels.find((k) => k.name === 'bank')!.args.map((a) => a.offset),
    [0, 16, 48],
  );
});

test("a cubin's architecture from e_flags, either ELF ABI version: alignments inferred from its base; an unknown one refused at byte 48", () => {
  const bank = [
    {
      name: 'bank',
      params: [
        { ordinal: 0, offset: 0, size: 13 },
        { ordinal: 1, offset: 32, size: 32 },
      ],
    },
  ];
  for (const [sm, abi] of [
    [80, 8],
    [80, 7],
    [100, 8],
    [120, 7],
  ] as const) {
    const r = readCubin(buildCubin(bank, 64, sm, abi));
    assert.deepEqual(r.diagnostics, [], `sm_${sm} abi ${abi}`);
    assert.equal(r.plan!.sm, sm);
    // 32 is 32-aligned from 0x160 and from 0: the 32-byte block keeps its alignment, and the plan reads back.
    assert.equal(r.plan!.kernels[0].args[1].align, 32);
    assert.equal(readCudaPlan(JSON.parse(emitJson(r.plan!))).sm, sm);
  }
  // From 0x210, offset 32 is only 16-aligned.
  assert.equal(readCubin(buildCubin(bank, 64, 90)).plan!.kernels[0].args[1].align, 16);
  const old = readCubin(buildCubin(bank, 64, 70));
  assert.equal(old.plan, undefined);
  assert.deepEqual(
    old.diagnostics.map((d) => [d.code, d.message]),
    [
      [
        'KA7404',
        'at byte 48: the cubin is for sm_70, whose parameter-buffer base kernarg does not know (it knows sm_75, ' +
          'sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_103, sm_110, sm_120, sm_121)',
      ],
    ],
  );
  assert.equal(readCubin(buildCubin(bank, 32, 70)).diagnostics[0]?.message.slice(0, 11), 'at byte 36:');
});
