import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { readPtx } from '../src/readers/ptx.js';
import { CudaContext, CudaBuffer } from '../src/runtime/cuda/host.js';
import {
  CUDA_BASE_LIMITS,
  cudaGeometry,
  extraImage,
  kernelParamsImage,
  paramDifferences,
} from '../src/runtime/cuda/launch-images.js';
import { readCudaArgs } from '../src/runtime/args/read-cuda-args.js';
import { PackError, RuntimeInputError, LaunchError } from '../src/pack/errors.js';
import { cudaTarget } from '../src/targets/cuda/index.js';
import type { CudaPlan } from '../src/targets/cuda/plan.js';
import { deliberateCases } from './support/deliberate.js';
import { type MockKernel, mockCuda } from './support/mock-cuda.js';

const GPU = join(import.meta.dirname, '..', 'scripts', 'gpu-cuda');
const CL = readFileSync(join(GPU, 'launch-kernels.cl'), 'utf8');
const PTX = readFileSync(join(GPU, 'launch-kernels.ptx'), 'utf8');
const clPlan = (() => {
  const r = lower('launch-kernels.cl', CL, memoryHost({}), { target: 'cuda', format: 'json' });
  assert.ok(r.plan, r.diagnostics.map((d) => d.message).join('\n'));
  return r.plan as CudaPlan;
})();
const ptxPlan = readPtx(new TextEncoder().encode(PTX), 'launch-kernels.ptx').plan!;

/**
 * What cuFuncGetParamInfo said: bank's .align 32 block after 13 bytes at 16 is the H200's answer
 * (driver 580) for that parameter list (test/cuda.test.ts); the rest is each parameter at its alignment.
 */
const DRIVER = {
  mixed: [
    { offset: 0, size: 8 },
    { offset: 8, size: 8 },
    { offset: 16, size: 1 },
    { offset: 24, size: 8 },
    { offset: 32, size: 16 },
    { offset: 48, size: 24 },
  ],
  bank: [
    { offset: 0, size: 13 },
    { offset: 16, size: 32 },
    { offset: 48, size: 8 },
  ],
  empty: [
    { offset: 0, size: 8 },
    { offset: 8, size: 4 },
    { offset: 16, size: 16 },
  ],
};

const MIXED_ARGS = { c: -7, d: 0.25, v: [1.5, -2, 3.25, 1e6], s: { c: 65, d: 2.5, i: 40 } };

/** The parameter buffer of `mixed` written out by hand from the driver's offsets (72 bytes). */
function mixedImage(out: bigint, input: bigint): Uint8Array {
  const b = new DataView(new ArrayBuffer(72));
  b.setBigUint64(0, out, true);
  b.setBigUint64(8, input, true);
  b.setInt8(16, -7);
  b.setFloat64(24, 0.25, true);
  [1.5, -2, 3.25, 1e6].forEach((x, i) => b.setFloat32(32 + 4 * i, x, true));
  b.setInt8(48, 65);
  b.setFloat64(56, 2.5, true);
  b.setInt32(64, 40, true);
  return new Uint8Array(b.buffer);
}

test("the committed PTX's .entry lists and kernarg's plan of its source agree with the driver's offsets and sizes", () => {
  for (const plan of [clPlan, ptxPlan]) {
    for (const k of plan.kernels)
      assert.deepEqual(
        paramDifferences(k, DRIVER[k.name as keyof typeof DRIVER]),
        [],
        `${k.name} (${plan === clPlan ? '.cl' : '.ptx'})`,
      );
  }
  // A plan that puts the block at 32 (each parameter aligned from 0) is told apart, parameter by parameter.
  const naive = {
    ...clPlan.kernels[1],
    args: clPlan.kernels[1].args.map((a, i) => ({ ...a, offset: [0, 32, 64][i] })),
  };
  assert.deepEqual(paramDifferences(naive, DRIVER.bank), [
    "parameter 1 'b': the plan says offset 32, size 32; the driver says offset 16, size 32",
    "parameter 2 'out': the plan says offset 64, size 8; the driver says offset 48, size 8",
  ]);
  assert.deepEqual(paramDifferences(clPlan.kernels[1], DRIVER.bank.slice(0, 2)), [
    'the plan has 3 parameters, the driver 2',
  ]);
});

test('where the parameter buffer differs from every parameter aligned from offset 0 is exactly the reviewed bank-0 cases', () => {
  // The driver counts alignments above 16 from the buffer's place in constant bank 0 (0x210), not from 0.
  const differing = new Set<string>();
  for (const k of clPlan.kernels) {
    let end = 0;
    for (const a of k.args) {
      const naive = Math.ceil(end / a.align) * a.align;
      if (naive !== a.offset) differing.add(k.name);
      end = a.offset + a.size;
    }
  }
  assert.deepEqual(differing, deliberateCases('cuda-host'));
});

test('the packed parameter buffer, the kernelParams pointers into it and the extra array, as bytes', () => {
  const out = 0x7f00_0000_1000n;
  const input = 0x7f00_0000_2000n;
  const mixed = cudaTarget.pack
    .packer(clPlan, 'mixed')
    .pack({ out: { address: out }, in: { address: input }, ...MIXED_ARGS }, { global: [1] });
  assert.deepEqual(mixed, mixedImage(out, input));
  const base = 0x5555_0000_0040n;
  assert.deepEqual(
    [...kernelParamsImage(clPlan.kernels[0], base)].map((p) => Number(p - base)),
    [0, 8, 16, 24, 32, 48],
  );
  assert.deepEqual(
    [...kernelParamsImage(clPlan.kernels[1], base)].map((p) => Number(p - base)),
    [0, 16, 48],
  );
  assert.deepEqual([...extraImage(base, 0x99n)], [1n, base, 2n, 0x99n, 0n]);
  // bank: 13 bytes of a, 3 bytes of padding, 32 bytes of b at 16, the pointer at 48.
  const bank = cudaTarget.pack
    .packer(clPlan, 'bank')
    .pack(
      { a: { b: [...Array(13).keys()].map((i) => i + 1) }, b: { x: [1, 2, 3, 4, 5, 6, 7, 8] }, out: { address: out } },
      { global: [1] },
    );
  const want = new Uint8Array(56);
  want.set(
    [...Array(13).keys()].map((i) => i + 1),
    0,
  );
  want.set(new Uint8Array(Int32Array.of(1, 2, 3, 4, 5, 6, 7, 8).buffer), 16);
  new DataView(want.buffer).setBigUint64(48, out, true);
  assert.deepEqual(bank, want);
});

test('grid and block from global and local sizes, and the launches CUDA cannot make', () => {
  const g = new Uint32Array(6);
  cudaGeometry('k', [256], [64], CUDA_BASE_LIMITS, g);
  assert.deepEqual([...g], [4, 1, 1, 64, 1, 1]);
  cudaGeometry('k', [96, 6], undefined, CUDA_BASE_LIMITS, g);
  assert.deepEqual([...g], [1, 6, 1, 96, 1, 1]);
  cudaGeometry('k', [1000], undefined, CUDA_BASE_LIMITS, g);
  assert.deepEqual([...g], [4, 1, 1, 250, 1, 1]);
  assert.throws(
    () => cudaGeometry('k', [100], [64], CUDA_BASE_LIMITS, g),
    (e) => e instanceof LaunchError && /global size x 100 is not a multiple of local size 64/.test(e.message),
  );
  assert.throws(
    () => cudaGeometry('k', [64, 64], [32, 64], CUDA_BASE_LIMITS, g),
    /a block of 2048 threads is more than the device's 1024/,
  );
  assert.throws(
    () => cudaGeometry('k', [128, 1, 128], [1, 1, 128], CUDA_BASE_LIMITS, g),
    /local size z 128 is more than the device's block limit 64/,
  );
});

/** Mock kernels that run as the .cl says, on the mock's memory. */
function kernels(): Record<string, MockKernel> {
  const u64 = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getBigUint64(0, true);
  return {
    mixed: {
      params: DRIVER.mixed,
      body: (p, mem, grid, block) => {
        const n = grid[0] * block[0];
        const out = new Float32Array(mem.at(u64(p[0]), 32 * n).slice().buffer);
        const input = new Int32Array(mem.at(u64(p[1]), 4 * n).slice().buffer);
        const c = new Int8Array(p[2].buffer, p[2].byteOffset, 1)[0];
        const d = new DataView(p[3].buffer, p[3].byteOffset).getFloat64(0, true);
        const v = new Float32Array(p[4].slice().buffer);
        const s = new DataView(p[5].slice().buffer);
        for (let i = 0; i < n; i++)
          out.set([input[i] + c, d * i, ...v, s.getInt8(0), s.getFloat64(8, true) + s.getInt32(16, true)], 8 * i);
        mem.at(u64(p[0]), 32 * n).set(new Uint8Array(out.buffer));
      },
    },
    bank: {
      params: DRIVER.bank,
      body: (p, mem, grid, block) => {
        const n = grid[0] * block[0];
        const a = new Int8Array(p[0].slice().buffer);
        const b = new Int32Array(p[1].slice().buffer);
        const out = new Int32Array(Array.from({ length: n }, (_, i) => (i < 13 ? a[i] : 0) + (i < 8 ? b[i] : 0)));
        mem.at(u64(p[2]), 4 * n).set(new Uint8Array(out.buffer));
      },
    },
    empty: { params: DRIVER.empty },
  };
}

test('the host through a driver: both parameter forms hand the driver the same bytes, and the kernels see their arguments', () => {
  const cu = mockCuda(kernels());
  const ctx = CudaContext.open(undefined, cu);
  assert.equal(ctx.device.name, 'Mock GPU');
  const m = ctx.module(PTX, 'launch-kernels.ptx');
  const n = 64;
  const input = Int32Array.from({ length: n }, (_, i) => 3 * i - 100);
  for (const form of ['params', 'extra'] as const) {
    const k = m.kernel('mixed', clPlan, { form });
    assert.deepEqual(k.driverParams, DRIVER.mixed);
    const outBuf = ctx.buffer<Float32Array>(32 * n);
    const inBuf = ctx.buffer(input);
    assert.equal(k.launchAndWait({ args: { out: outBuf, in: inBuf, ...MIXED_ARGS }, global: [n], local: [32] }), 0.5);
    const launch = cu.launches.at(-1)!;
    assert.equal(launch.form, form);
    assert.deepEqual(
      [launch.grid, launch.block],
      [
        [2, 1, 1],
        [32, 1, 1],
      ],
    );
    const image = mixedImage(outBuf.address, inBuf.address);
    if (form === 'extra') assert.deepEqual(launch.buffer, image);
    else assert.deepEqual(launch.pointerOffsets, [0, 8, 16, 24, 32, 48]);
    assert.deepEqual(
      launch.params,
      DRIVER.mixed.map((p) => image.slice(p.offset, p.offset + p.size)),
    );
    const got = outBuf.read(new Float32Array(8 * n));
    assert.deepEqual([...got.subarray(8 * 5, 8 * 6)], [15 - 100 - 7, 1.25, 1.5, -2, 3.25, 1e6, 65, 42.5]);
    k.dispose();
    outBuf.dispose();
    inBuf.dispose();
  }
  // The plan read from the PTX alone: the pointers are .ptr parameters, the vector and the struct byte arrays.
  const bank = m.kernel('bank', ptxPlan, { form: 'extra' });
  const out = ctx.buffer<Int32Array>(4 * 32);
  bank.enqueue({
    args: {
      bank_param_0: [...Array(13).keys()].map((i) => 240 + i),
      bank_param_1: new Array(32).fill(1),
      bank_param_2: out,
    },
    global: [32],
  });
  ctx.synchronize();
  const want = Int32Array.from(
    { length: 32 },
    (_, i) => (i < 13 ? ((240 + i) << 24) >> 24 : 0) + (i < 8 ? 0x01010101 : 0),
  );
  assert.deepEqual(out.read(new Int32Array(32)), want);
  // Disposed (twice), its parameter buffers and events are gone: every launch is refused by name, none reaches the
  // driver (a launchAndWait before makes the events it then must not record on).
  const args = { bank_param_0: new Array(13).fill(0), bank_param_1: new Array(32).fill(0), bank_param_2: out };
  assert.equal(bank.launchAndWait({ args, global: [32] }), 0.5);
  bank.dispose();
  bank.dispose();
  const launches = cu.launches.length;
  for (const call of [() => bank.enqueue({ args, global: [32] }), () => bank.launchAndWait({ args, global: [32] })])
    assert.throws(call, (e) => e instanceof RuntimeInputError && /kernel 'bank' has been disposed/.test(e.message));
  assert.equal(cu.launches.length, launches);
  m.dispose();
  ctx.dispose();
});

test('the host refuses a plan the driver contradicts, unless told not to, and trusts the plan where the driver cannot say', () => {
  const lying = mockCuda({
    ...kernels(),
    bank: {
      params: [
        { offset: 0, size: 13 },
        { offset: 32, size: 32 },
        { offset: 64, size: 8 },
      ],
    },
  });
  const m = CudaContext.open(undefined, lying).module(PTX);
  assert.throws(
    () => m.kernel('bank', clPlan),
    (e) =>
      e instanceof RuntimeInputError &&
      /the cuda plan, placed for sm_90, and the driver's cuFuncGetParamInfo disagree:\n {2}parameter 1 'b': the plan says offset 16, size 32; the driver says offset 32, size 32/.test(
        e.message,
      ),
  );
  assert.equal(m.kernel('bank', clPlan, { strict: false }).driverDifferences.length, 2);
  const old = mockCuda(kernels(), { withParamInfo: false });
  const k = CudaContext.open(undefined, old).module(PTX).kernel('bank', clPlan);
  assert.equal(k.driverParams, undefined);
  assert.deepEqual(k.driverDifferences, []);
});

test("the host's argument checks: names, values, another context's buffer, local arguments", () => {
  const cu = mockCuda(kernels());
  const ctx = CudaContext.open(undefined, cu);
  const m = ctx.module(PTX);
  const k = m.kernel('mixed', clPlan);
  const b = ctx.buffer(1024);
  const launch = (args: Record<string, unknown>) => k.enqueue({ args, global: [1] });
  assert.throws(
    () => launch({ out: b, in: b, ...MIXED_ARGS, extra: 1 }),
    (e) => e instanceof PackError && /has no argument 'extra'/.test(e.message),
  );
  assert.throws(
    () => launch({ out: b, in: b, ...MIXED_ARGS, c: 300 }),
    (e) => e instanceof PackError && e.arg === 'c',
  );
  const other = CudaContext.open(undefined, mockCuda(kernels())).buffer(64);
  assert.throws(() => launch({ out: other, in: b, ...MIXED_ARGS }), /belongs to another CUDA context/);
  assert.equal(cu.launches.length, 0, 'nothing reached the driver');
  const local = lower('l.cl', 'kernel void mixed(local float *l) {}', memoryHost({}), {
    target: 'cuda',
    format: 'json',
    cuda: { localMemory: 'pocl' },
  }).plan as CudaPlan;
  const lk = m.kernel('mixed', local, { strict: false });
  for (const bad of [undefined, 3, { local: 0 }, { local: -4 }, { local: 1.5 }]) {
    assert.throws(
      () => lk.enqueue({ args: { l: bad }, global: [1] }),
      (e) => e instanceof PackError && e.arg === 'l' && /\{local: <bytes>\}/.test(e.message),
      JSON.stringify(bad),
    );
  }
  assert.ok(b instanceof CudaBuffer);
});

test('--args for a cuda plan: buffers for .ptr parameters and for pointer-width integers of PTX without types', () => {
  const limits = { maxBytes: 1 << 20 };
  const fromPtx = readCudaArgs(
    {
      bank_param_0: new Array(13).fill(1),
      bank_param_1: new Array(32).fill(3),
      bank_param_2: { buffer: 'int', size: 4 },
    },
    ptxPlan.kernels[1],
    8,
    limits,
  );
  assert.equal(fromPtx.get('bank_param_2')?.kind, 'buffer');
  const nvccStyle = readPtx(
    new TextEncoder().encode(
      '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0, .param .u32 ' +
        'k_param_1)\n{ ret; }\n',
    ),
    'k.ptx',
  ).plan!;
  const args = readCudaArgs(
    { k_param_0: { buffer: 'float', data: [1, 2] }, k_param_1: 5 },
    nvccStyle.kernels[0],
    8,
    limits,
  );
  assert.deepEqual(
    [...args.values()].map((a) => a.kind),
    ['buffer', 'value'],
  );
  assert.throws(
    () => readCudaArgs({ k_param_0: 1, k_param_1: { buffer: 'int', size: 1 } }, nvccStyle.kernels[0], 8, limits),
    (e) => e instanceof PackError && e.arg === 'k_param_1',
  );
  assert.throws(
    () => readCudaArgs({ out: 3, in: { buffer: 'int', size: 1 }, ...MIXED_ARGS }, clPlan.kernels[0], 8, limits),
    (e) => e instanceof PackError && /a global pointer takes \{"buffer"/.test(e.message),
  );
  assert.throws(
    () =>
      readCudaArgs(
        { out: { buffer: 'float', size: 1 }, in: { buffer: 'int', size: 1 }, ...MIXED_ARGS, d: 'x' },
        clPlan.kernels[0],
        8,
        limits,
      ),
    (e) => e instanceof PackError && e.arg === 'd',
  );
});

test("the host places a plan for the device it runs on: sm_80 and sm_100 move the 32-aligned block, sm_86 keeps sm_80's offsets", () => {
  // ptxas 13.0's offsets for bank(B13 a, A32 b, global int *out) on each architecture (test/fixtures/cuda-param-bank).
  const bank = { 80: [0, 32, 64], 86: [0, 32, 64], 90: [0, 16, 48], 100: [0, 32, 64], 120: [0, 32, 64] } as const;
  for (const [sm, offsets] of Object.entries(bank)) {
    const cc = [Math.floor(Number(sm) / 10), Number(sm) % 10] as const;
    const cu = mockCuda(
      { ...kernels(), bank: { params: offsets.map((offset, i) => ({ offset, size: [13, 32, 8][i] })) } },
      { cc },
    );
    const ctx = CudaContext.open(undefined, cu);
    assert.equal(ctx.sm, Number(sm));
    const k = ctx.module(PTX).kernel('bank', clPlan, { form: 'extra' });
    assert.deepEqual(k.driverDifferences, [], `sm_${sm}`);
    assert.deepEqual(
      k.plan.args.map((a) => a.offset),
      [...offsets],
    );
    const out = ctx.buffer(64);
    k.enqueue({ args: { a: { b: [...Array(13).keys()] }, b: { x: [1, 2, 3, 4, 5, 6, 7, 8] }, out }, global: [1] });
    const buffer = cu.launches.at(-1)!.buffer!;
    assert.equal(buffer.length, offsets[2] + 8);
    const view = new DataView(buffer.buffer, buffer.byteOffset);
    assert.deepEqual(
      [
        view.getInt8(12),
        view.getInt32(offsets[1], true),
        view.getInt32(offsets[1] + 28, true),
        view.getBigUint64(offsets[2], true),
      ],
      [12, 1, 8, out.address],
      `sm_${sm}`,
    );
  }
});

test("on a GPU the table lacks, the driver's offsets are taken; without cuFuncGetParamInfo only a parameter aligned above 16 is refused", () => {
  const told = mockCuda(
    {
      ...kernels(),
      bank: {
        params: [
          { offset: 0, size: 13 },
          { offset: 64, size: 32 },
          { offset: 96, size: 8 },
        ],
      },
    },
    { cc: [13, 0] },
  );
  const k = CudaContext.open(undefined, told).module(PTX).kernel('bank', clPlan);
  assert.deepEqual([k.plan.args.map((a) => a.offset), k.plan.paramBytes], [[0, 64, 96], 104]);
  const silent = CudaContext.open(undefined, mockCuda(kernels(), { cc: [13, 0], withParamInfo: false })).module(PTX);
  assert.throws(
    () => silent.kernel('bank', clPlan),
    (e) =>
      e instanceof RuntimeInputError &&
      /parameter 'b' is aligned to 32, and where this GPU \(sm_130\) places such parameters/.test(e.message),
  );
  assert.deepEqual(
    silent.kernel('mixed', clPlan).plan.args.map((a) => a.offset),
    clPlan.kernels[0].args.map((a) => a.offset),
  );
});

test('a warm launch reuses the grid only for the same sizes: a size changed in place, or a wrong one after a right one, is still checked', () => {
  const cu = mockCuda(kernels());
  const ctx = CudaContext.open(undefined, cu);
  const k = ctx.module(PTX).kernel('mixed', clPlan);
  const b = ctx.buffer(4096);
  const global = [64];
  const local = [32];
  const launch = () => k.enqueue({ args: { out: b, in: b, ...MIXED_ARGS }, global, local });
  launch();
  launch();
  assert.deepEqual(
    cu.launches.map((l) => [l.grid[0], l.block[0]]),
    [
      [2, 32],
      [2, 32],
    ],
  );
  global[0] = 96;
  launch();
  assert.deepEqual([cu.launches.at(-1)!.grid[0], cu.launches.at(-1)!.block[0]], [3, 32]);
  global[0] = 100;
  assert.throws(launch, (e) => e instanceof LaunchError && /not a multiple of local size 32/.test(e.message));
  assert.throws(() => k.enqueue({ args: { out: b, in: b, ...MIXED_ARGS }, global: [96], local: [32, 1] }), LaunchError);
  // After a refused launch the next right one is computed afresh.
  assert.doesNotThrow(() => k.enqueue({ args: { out: b, in: b, ...MIXED_ARGS }, global: [96] }));
  assert.deepEqual([cu.launches.at(-1)!.grid[0], cu.launches.at(-1)!.block[0]], [1, 96]);
  // A name the kernel lacks is refused on a warm launch too.
  assert.throws(
    () => k.enqueue({ args: { out: b, in: b, ...MIXED_ARGS, extra: 1 }, global: [96] }),
    (e) => e instanceof PackError && /has no argument 'extra'/.test(e.message),
  );
});
