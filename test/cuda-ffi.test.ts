import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { runCliWith, nodeIO } from '../src/cli/main.js';
import { openCuda } from '../src/runtime/cuda/driver.js';
import { CudaContext } from '../src/runtime/cuda/host.js';
import { RuntimeInputError } from '../src/pack/errors.js';
import type { CudaPlan } from '../src/targets/cuda/plan.js';
import { findTool, requireTool } from './support/tools.js';

// The CUDA host through koffi for real, against test/support/mock-libcuda.c built here: the
// bindings' C signatures, out-parameters, native pointer arrays and both parameter forms, on a
// machine without NVIDIA's driver. (The GPU machine's script runs the same against the real one.)
const GPU = join(import.meta.dirname, '..', 'scripts', 'gpu-cuda');
const PTX = readFileSync(join(GPU, 'launch-kernels.ptx'), 'utf8');

let built: string | undefined;
function mockLibrary(t: TestContext): string | undefined {
  if (built) return built;
  const cc = requireTool(t, ['cc', 'gcc', 'clang-16']);
  if (!cc) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-mock-cuda-'));
  built = join(dir, 'libcuda-mock.so');
  execFileSync(cc, ['-shared', '-fPIC', '-O1', '-o', built, join(import.meta.dirname, 'support', 'mock-libcuda.c')]);
  return built;
}

test('through koffi: context, buffers, a PTX module, cuFuncGetParamInfo, and both launch forms give the kernel its arguments', (t) => {
  const lib = mockLibrary(t);
  if (!lib) return;
  const cu = openCuda(lib);
  assert.ok(cu.FuncGetParamInfo, 'the mock exports cuFuncGetParamInfo');
  assert.equal(cu.errorName(218), 'CUDA_ERROR_INVALID_PTX');
  const ctx = CudaContext.open(undefined, cu);
  assert.equal(ctx.device.name, 'kernarg mock libcuda');
  assert.equal(ctx.device.driverVersion, 12040);
  assert.deepEqual(ctx.limits, {
    maxThreadsPerBlock: 1024,
    maxBlockDim: [1024, 1024, 64],
    maxGridDim: [2147483647, 65535, 65535],
  });
  const plan = lower('launch-kernels.cl', readFileSync(join(GPU, 'launch-kernels.cl'), 'utf8'), memoryHost({}), {
    target: 'cuda',
    format: 'json',
  }).plan as CudaPlan;
  const m = ctx.module(PTX, 'launch-kernels.ptx');
  const n = 128;
  const input = Int32Array.from({ length: n }, (_, i) => 5 * i - 300);
  for (const form of ['params', 'extra'] as const) {
    const k = m.kernel('mixed', plan, { form });
    assert.deepEqual(
      k.driverParams?.map((p) => [p.offset, p.size]),
      [
        [0, 8],
        [8, 8],
        [16, 1],
        [24, 8],
        [32, 16],
        [48, 24],
      ],
    );
    const out = ctx.buffer<Float32Array>(32 * n);
    const inBuf = ctx.buffer(input);
    const ms = k.launchAndWait({
      args: { out, in: inBuf, c: -7, d: 0.25, v: [1.5, -2, 3.25, 1e6], s: { c: 65, d: 2.5, i: 40 } },
      global: [n],
      local: [64],
    });
    assert.equal(ms, Math.fround(0.001));
    const got = out.read(new Float32Array(8 * n));
    for (const i of [0, 1, 77, n - 1])
      assert.deepEqual(
        [...got.subarray(8 * i, 8 * i + 8)],
        [input[i] - 7, Math.fround(0.25 * i), 1.5, -2, 3.25, 1e6, 65, 42.5],
        `${form}, item ${i}`,
      );
    k.dispose();
    out.dispose();
    inBuf.dispose();
  }
  const bank = m.kernel('bank', plan);
  const out = ctx.buffer<Int32Array>(4 * 32);
  bank.enqueue({
    args: { a: { b: [...Array(13).keys()].map((i) => -i) }, b: { x: [10, 20, 30, 40, 50, 60, 70, 80] }, out },
    global: [32],
    form: 'extra',
  });
  ctx.synchronize();
  assert.deepEqual(
    [...out.read(new Int32Array(32))],
    Array.from({ length: 32 }, (_, i) => (i < 13 ? -i : 0) + (i < 8 ? 10 * (i + 1) : 0)),
  );
  // The JIT's error log comes back with a module the driver refuses.
  assert.throws(
    () => ctx.module('not ptx at all', 'bad.ptx'),
    /cuModuleLoadData\(bad\.ptx\) failed: CUDA_ERROR_INVALID_PTX\nptxas fatal {3}: mock: no \.version directive/,
  );
  assert.throws(() => m.kernel('absent', plan), /no kernel named 'absent' in the plan/);
  bank.dispose();
  m.dispose();
  ctx.dispose();
});

test('kernarg run --api cuda through the driver library: PTX and OpenCL C (compiled by clang-16 where it is installed)', (t) => {
  const lib = mockLibrary(t);
  if (!lib) return;
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-cuda-run-'));
  const saved = process.env.KERNARG_LIBCUDA;
  process.env.KERNARG_LIBCUDA = lib;
  try {
    const run = (argv: string[]) => {
      let out = '';
      let err = '';
      const code = runCliWith(argv, {
        ...nodeIO(),
        stdout: (s: string) => (out += s),
        stderr: (s: string) => (err += s),
        color: false,
      });
      return { code, out, err };
    };
    writeFileSync(
      join(dir, 'bank.json'),
      JSON.stringify({
        bank_param_0: [...Array(13).keys()],
        bank_param_1: new Array(32).fill(0).map((_, i) => (i % 4 === 0 ? i / 4 : 0)),
        bank_param_2: { buffer: 'int', size: 16 },
      }),
    );
    const r = run([
      'run',
      join(GPU, 'launch-kernels.ptx'),
      '--api',
      'cuda',
      '--kernel',
      'bank',
      '--args',
      join(dir, 'bank.json'),
      '--global',
      '16',
    ]);
    assert.equal(r.code, 0, r.err);
    const printed = JSON.parse(r.out) as { device: string; args: Record<string, unknown>; timeMs: number };
    assert.equal(printed.device, 'CUDA / kernarg mock libcuda');
    assert.deepEqual(
      printed.args.bank_param_2,
      Array.from({ length: 16 }, (_, i) => i * (i < 8 ? 2 : 1) - (i >= 13 ? i : 0)),
    );
    // A mistake in the arguments is placed in the arguments file, before any launch.
    writeFileSync(join(dir, 'bad.json'), '{"bank_param_0": [1], "bank_param_1": [], "bank_param_2": 5}');
    const bad = run([
      'run',
      join(GPU, 'launch-kernels.ptx'),
      '--api',
      'cuda',
      '--kernel',
      'bank',
      '--args',
      join(dir, 'bad.json'),
      '--global',
      '16',
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /bad\.json:1:\d+: error: kernel 'bank', argument 'bank_param_0': expected 13 elements/);
    if (!findTool(['clang-16', 'clang-19', 'clang-22'], ['--version'])) {
      if (process.env.CI === 'true') throw new Error('no clang (CI=true: .ci/run installs clang-16)');
      return;
    }
    writeFileSync(
      join(dir, 'mixed.json'),
      JSON.stringify({
        out: { buffer: 'float', size: 16 },
        in: { buffer: 'int', data: [10, 20] },
        c: 1,
        d: 2,
        v: [1, 2, 3, 4],
        s: { c: 3, d: 0.5, i: 1 },
      }),
    );
    const cl = run([
      'run',
      join(GPU, 'launch-kernels.cl'),
      '--api',
      'cuda',
      '--kernel',
      'mixed',
      '--args',
      join(dir, 'mixed.json'),
      '--global',
      '2',
    ]);
    assert.equal(cl.code, 0, cl.err);
    assert.deepEqual(
      (JSON.parse(cl.out) as { args: { out: number[] } }).args.out,
      [11, 0, 1, 2, 3, 4, 3, 1.5, 21, 2, 1, 2, 3, 4, 3, 1.5],
    );
  } finally {
    if (saved === undefined) delete process.env.KERNARG_LIBCUDA;
    else process.env.KERNARG_LIBCUDA = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a library without the driver entry points is refused by name', (t) => {
  const lib = mockLibrary(t);
  if (!lib) return;
  // libc is a shared library with none of them.
  assert.throws(
    () => openCuda('libc.so.6'),
    (e) =>
      e instanceof RuntimeInputError &&
      /the CUDA driver library libc\.so\.6 lacks an entry point kernarg needs \(int cuInit/.test(e.message),
  );
});

test('a warm CUDA launch allocates nothing: no scavenge over 400,000 enqueues in either form with a 1 MiB young generation; the control allocating per launch is seen', (t) => {
  const lib = mockLibrary(t);
  if (!lib) return;
  const run = (mode: string) => {
    const r = spawnSync(
      process.execPath,
      [
        '--max-semi-space-size=1',
        '--no-allocation-site-pretenuring',
        '--import',
        'tsx',
        'test/support/cuda-alloc-probe.ts',
        mode,
      ],
      { encoding: 'utf8', env: { ...process.env, KERNARG_LIBCUDA: lib } },
    );
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as { calls: number; gcs: number; heapGrowth: number };
  };
  for (const mode of ['enqueue', 'extra']) {
    const free = run(mode);
    assert.ok(free.gcs <= 1 && free.heapGrowth < 256 * 1024, `${mode}: ${JSON.stringify(free)}`);
  }
  const fresh = run('fresh');
  assert.ok(fresh.gcs > 10, `fresh: ${JSON.stringify(fresh)}`);
  // launchAndWait returns the run time, a heap number per call (16 bytes): far less than the control's objects.
  const waited = run('wait');
  assert.ok(waited.gcs * 4 < fresh.gcs, `wait: ${JSON.stringify(waited)}, fresh: ${JSON.stringify(fresh)}`);
});
