// Local (shared-memory) pointer arguments on the CUDA host, both conventions, as bytes: what each
// local parameter receives in the parameter buffer and the sharedMemBytes cuLaunchKernel is given.
// pocl's rule is pocl-cuda.c's submit path (blocks from 0, each padded to its argument's alignment,
// 32-bit offsets); NVIDIA's `.ptr .shared` parameters receive shared-window addresses of the
// dynamic area, which starts after the kernel's static shared memory (the GPU check launches both).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { CudaContext } from '../src/runtime/cuda/host.js';
import { dynamicSharedWindow, sharedLayout } from '../src/runtime/cuda/shared-memory.js';
import type { CudaPlan } from '../src/targets/cuda/plan.js';
import { type MockKernel, mockCuda } from './support/mock-cuda.js';

const SRC = 'kernel void k(global int *out, local char *a, local double *b, int n, local float4 *c) {}';
const plan = (localMemory: 'nvidia' | 'pocl') => {
  const r = lower('k.cl', SRC, memoryHost({}), { target: 'cuda', format: 'json', cuda: { localMemory } });
  assert.ok(r.plan, r.diagnostics.map((d) => d.message).join('\n'));
  return r.plan as CudaPlan;
};

test('the layout: blocks in argument order, each at its pointee alignment; pocl passes offsets, nvidia window addresses', () => {
  for (const mode of ['pocl', 'nvidia'] as const) {
    const k = plan(mode).kernels[0];
    assert.deepEqual(k.dynamicShared, ['a', 'b', 'c']);
    // a: 5 chars at 0; b: 3 doubles at 8 (8-aligned); c: 2 float4 at 32 (16-aligned); 64 bytes.
    const window = mode === 'nvidia' ? 0x410 : 0;
    const l = sharedLayout(k, mode, [5, 24, 32], window);
    assert.deepEqual(l, { values: [0, 8, 32].map((v) => v + window), sharedMemBytes: 64 });
  }
  assert.equal(dynamicSharedWindow(0x400, 0), 0x400);
  assert.equal(dynamicSharedWindow(0x400, 20), 0x420);
  assert.equal(dynamicSharedWindow(0, 32), 32);
});

/** A mock kernel `k` whose parameters sit where the plan says, and the shared-window probe answering `start`. */
function driverFor(p: CudaPlan, start: number, staticShared = 0) {
  const k = p.kernels[0];
  const kernels: Record<string, MockKernel> = {
    k: { params: k.args.map((a) => ({ offset: a.offset, size: a.size })) },
    __kernarg_shared_window: {
      params: [{ offset: 0, size: 8 }],
      body: (params, memory) =>
        new DataView(
          memory.at(new DataView(params[0].buffer, params[0].byteOffset).getBigUint64(0, true), 8).buffer,
        ).setBigUint64(0, BigInt(start), true),
    },
  };
  return mockCuda(kernels, { staticShared });
}

test('pocl: the host passes 32-bit offsets into one dynamic area and asks for its size', () => {
  const p = plan('pocl');
  const cu = driverFor(p, 0x400);
  const ctx = CudaContext.open(undefined, cu);
  const out = ctx.buffer(16);
  const k = ctx.module('.version 8.0').kernel('k', p, { form: 'extra' });
  k.enqueue({ args: { out, a: { local: 5 }, b: { local: 24 }, n: 7, c: { local: 32 } }, global: [4], local: [2] });
  const launch = cu.launches.at(-1)!;
  assert.equal(launch.shared, 64);
  const v = new DataView(launch.buffer!.buffer, launch.buffer!.byteOffset);
  const at = (n: string) => p.kernels[0].args.find((a) => a.name === n)!.offset;
  assert.deepEqual(
    [v.getUint32(at('a'), true), v.getUint32(at('b'), true), v.getUint32(at('c'), true), v.getInt32(at('n'), true)],
    [0, 8, 32, 7],
  );
  // pocl needs no probe: its kernel adds its extern array's address itself.
  assert.equal(cu.launches.filter((l) => l.kernel === '__kernarg_shared_window').length, 0);
  // Other sizes on the next launch: the layout follows them, nothing else changes.
  k.enqueue({ args: { out, a: { local: 1 }, b: { local: 8 }, n: 1, c: { local: 16 } }, global: [4] });
  const again = cu.launches.at(-1)!;
  assert.equal(again.shared, 32);
  const w = new DataView(again.buffer!.buffer, again.buffer!.byteOffset);
  assert.deepEqual([w.getUint32(at('a'), true), w.getUint32(at('b'), true), w.getUint32(at('c'), true)], [0, 8, 16]);
});

test('nvidia: .ptr .shared parameters receive the window addresses after the static shared memory (probed once per context)', () => {
  const p = plan('nvidia');
  const cu = driverFor(p, 0x400, 20);
  const ctx = CudaContext.open(undefined, cu);
  const out = ctx.buffer(16);
  const k = ctx.module('.version 8.0').kernel('k', p);
  for (let i = 0; i < 2; i++)
    k.enqueue({ args: { out, a: { local: 5 }, b: { local: 24 }, n: 7, c: { local: 32 } }, global: [4] });
  assert.equal(cu.launches.filter((l) => l.kernel === '__kernarg_shared_window').length, 1);
  const launch = cu.launches.at(-1)!;
  assert.equal(launch.form, 'params');
  assert.equal(launch.shared, 64);
  const args = p.kernels[0].args;
  const param = (n: string) => launch.params[args.findIndex((a) => a.name === n)];
  const u64 = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getBigUint64(0, true);
  // The area starts at 0x400 + 20 rounded up to 16 = 0x420.
  assert.deepEqual([u64(param('a')), u64(param('b')), u64(param('c'))], [0x420n, 0x428n, 0x440n]);
  assert.equal(u64(param('out')), out.address);
});
