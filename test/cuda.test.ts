import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { emitJson } from '../src/emit/json.js';
import { paramOffset } from '../src/targets/cuda/param-base.js';
import { cudaTarget } from '../src/targets/cuda/index.js';
import type { CudaPlan } from '../src/targets/cuda/plan.js';
import { readCudaPlan } from '../src/targets/cuda/schema.js';

const plan = (source: string, cuda: { localMemory?: 'nvidia' | 'pocl'; arch?: 'nvptx64' | 'nvptx' } = {}) => {
  const r = lower('k.cl', source, memoryHost({}), { target: 'cuda', format: 'json', cuda });
  assert.ok(r.plan?.target === 'cuda', r.diagnostics.map((d) => d.message).join('\n'));
  return r.plan as CudaPlan;
};

test('parameter offsets follow what cuFuncGetParamInfo said on an H200 (driver 580) for hand-written PTX', () => {
  // [alignment, size] of each .param, and the offsets the driver reported (scripts: the probe in the README's cuda
  // section).
  // prettier-ignore -- one probe per row: [[alignment, size] of each .param], [offsets]
  const cases: [[number, number][], number[]][] = [
    [
      [
        [1, 13],
        [32, 32],
      ],
      [0, 16],
    ],
    [
      [
        [1, 13],
        [16, 16],
      ],
      [0, 16],
    ],
    [
      [
        [1, 13],
        [4, 4],
      ],
      [0, 16],
    ],
    [
      [
        [8, 8],
        [32, 32],
      ],
      [0, 16],
    ],
    [
      [
        [1, 1],
        [64, 64],
      ],
      [0, 48],
    ],
    [
      [
        [1, 13],
        [8, 8],
      ],
      [0, 16],
    ],
    [
      [
        [1, 17],
        [4, 4],
      ],
      [0, 20],
    ],
    [
      [
        [1, 1],
        [128, 128],
        [1, 1],
      ],
      [0, 112, 240],
    ],
    [
      [
        [1, 5],
        [2, 2],
        [2, 3],
        [8, 8],
      ],
      [0, 6, 8, 16],
    ],
    [
      [
        [4, 12],
        [16, 16],
      ],
      [0, 16],
    ],
    [
      [
        [2, 6],
        [8, 8],
      ],
      [0, 8],
    ],
    [
      [
        [1, 80 + 13],
        [32, 32],
      ],
      [0, 112],
    ],
  ];
  for (const [params, want] of cases) {
    let end = 0;
    const got = params.map(([align, size]) => {
      const at = paramOffset(end, align, 90);
      end = at + size;
      return at;
    });
    assert.deepEqual(got, want, JSON.stringify(params));
  }
});

test('the cuda packer writes each value at its offset in the parameter buffer, local blocks as shared-memory offsets', () => {
  const p = plan(
    'typedef struct { char c; double d; } S;\nkernel void k(global int *p, char c, float4 v, local float *l, S s, ' +
      'local double *m) {}',
  );
  const k = p.kernels[0];
  assert.deepEqual(
    k.args.map((a) => [a.name, a.offset, a.size]),
    [
      ['p', 0, 8],
      ['c', 8, 1],
      ['v', 16, 16],
      ['l', 32, 8],
      ['s', 40, 16],
      ['m', 56, 8],
    ],
  );
  assert.equal(k.paramBytes, 64);
  assert.deepEqual(k.dynamicShared, ['l', 'm']);
  const bytes = cudaTarget.pack.packer(p, 'k').pack(
    {
      p: 0x1122334455n,
      c: -2,
      v: [1, 2, 3, 4],
      l: { local: 12, offset: 0 },
      s: { c: 7, d: 0.5 },
      m: { local: 8, offset: 16 },
    },
    { global: [1], local: [1] },
  );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(bytes.length, 64);
  assert.equal(view.getBigUint64(0, true), 0x1122334455n);
  assert.equal(view.getInt8(8), -2);
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => view.getFloat32(16 + 4 * i, true)),
    [1, 2, 3, 4],
  );
  // The host places the blocks in the launch's dynamic shared memory and passes each block's offset.
  assert.equal(view.getBigUint64(32, true), 0n);
  assert.equal(view.getInt8(40), 7);
  assert.equal(view.getFloat64(48, true), 0.5);
  assert.equal(view.getBigUint64(56, true), 16n);
  // A plan read back from its JSON packs the same bytes.
  const again = readCudaPlan(JSON.parse(emitJson(p)));
  assert.deepEqual(
    cudaTarget.pack.packer(again, 'k').pack(
      {
        p: 0x1122334455n,
        c: -2,
        v: [1, 2, 3, 4],
        l: { local: 12, offset: 0 },
        s: { c: 7, d: 0.5 },
        m: { local: 8, offset: 16 },
      },
      { global: [1], local: [1] },
    ),
    bytes,
  );
});

test("--local-memory pocl: 32-bit offsets for local and constant pointers, and pocl's appended work_dim and global offsets", () => {
  const p = plan('kernel void k(global int *p, constant float *c, local float *l, int n) {}', { localMemory: 'pocl' });
  const k = p.kernels[0];
  assert.deepEqual(
    k.args.map((a) => `${a.name}:${a.offset}:${a.size}:${a.ptxType}`),
    [
      'p:0:8:u64',
      'c:8:4:u32',
      'l:12:4:u32',
      'n:16:4:u32',
      '_work_dim:20:4:u32',
      '_global_offset_x:24:4:u32',
      '_global_offset_y:28:4:u32',
      '_global_offset_z:32:4:u32',
    ],
  );
  const ptx = lower('k.cl', 'kernel void k(global int *p, local float *l) {}', memoryHost({}), {
    target: 'cuda',
    format: 'ptx',
    cuda: { localMemory: 'pocl' },
  }).output!;
  assert.match(
    ptx,
    /^\.visible \.entry k\(\n\t\.param \.u64 k_param_0,\n\t\.param \.u32 k_param_1,\n\t\.param \.u32 k_param_2,/m,
  );
  const bytes = cudaTarget.pack
    .packer(p, 'k')
    .pack(
      { p: 5n, l: { local: 4, offset: 0 }, n: 9 },
      { global: [8, 4], local: [4, 2], globalOffset: [1, 2], hidden: { 'pocl_constant_offset:c': 64n } },
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.deepEqual(
    [
      view.getUint32(8, true),
      view.getUint32(16, true),
      view.getUint32(20, true),
      view.getUint32(24, true),
      view.getUint32(28, true),
      view.getUint32(32, true),
    ],
    [64, 9, 2, 1, 2, 0],
  );
  const refused = lower('k.cl', 'kernel void k(read_only image2d_t i) {}', memoryHost({}), {
    target: 'cuda',
    cuda: { localMemory: 'pocl' },
  });
  assert.equal(refused.output, undefined);
  assert.deepEqual(
    refused.diagnostics.map((d) => d.code),
    ['KA4405'],
  );
});

test("CUDA's parameter limits: over 4,096 bytes a warning (CUDA 12.1 and Volta needed), over 32,764 an error", () => {
  const big = (n: number) => `typedef struct { char b[${n}]; } B;\nkernel void k(B b) {}`;
  const warned = lower('k.cl', big(5000), memoryHost({}), { target: 'cuda' });
  assert.ok(warned.output !== undefined);
  assert.deepEqual(
    warned.diagnostics.map((d) => `${d.code} ${d.severity}`),
    ['KA4404 warning'],
  );
  const refused = lower('k.cl', big(40000), memoryHost({}), { target: 'cuda' });
  assert.equal(refused.output, undefined);
  assert.deepEqual(
    refused.diagnostics.map((d) => d.code),
    ['KA4403'],
  );
  assert.ok(lower('k.cl', big(32764), memoryHost({}), { target: 'cuda' }).output !== undefined);
});

test('--arch nvptx: 32-bit pointers, 4 bytes each in the parameter buffer', () => {
  const k = plan('kernel void k(global int *p, local float *l, long n) {}', { arch: 'nvptx' }).kernels[0];
  assert.deepEqual(
    k.args.map((a) => `${a.offset}:${a.size}:${a.ptxType}`),
    ['0:4:u32', '4:4:u32', '8:8:u64'],
  );
});
