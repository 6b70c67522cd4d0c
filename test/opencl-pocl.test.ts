import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Context, kernel, listDevices } from '../src/runtime/opencl/host.js';

/** Under CI=true the OpenCL tests must run (PoCL is installed by .ci/run); elsewhere they skip without a device. */
function device(t: { skip: (m: string) => void }): Context | undefined {
  let devices: ReturnType<typeof listDevices> = [];
  try {
    devices = listDevices();
  } catch (e) {
    if (process.env.CI === 'true') throw e;
  }
  if (!devices.length) {
    if (process.env.CI === 'true') throw new Error('no OpenCL device: .ci/run installs pocl-opencl-icd');
    t.skip('no OpenCL device');
    return undefined;
  }
  return Context.open(process.env.KERNARG_DEVICE);
}

const SOURCE = `
typedef struct { char tag; float3 pos; long id; } Particle;
kernel void every_kind(global float *out, Particle p, local float *tmp, int4 v, ulong big, global long *wide, float2 s) {
  size_t i = get_global_id(0);
  tmp[get_local_id(0)] = (float)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[i] = p.tag + p.pos.x * p.pos.y + p.pos.z + v.x + v.y * v.z - v.w + tmp[get_local_id(0)] * s.x + s.y;
  wide[i] = p.id * 3 + (long)(big >> 1) + (long)i;
}`;

test('PoCL: a kernel with a struct by value (float3, padding), local memory, vectors and 64-bit integers', async (t) => {
  const ctx = device(t);
  if (!ctx) return;
  const k = await kernel(SOURCE, 'every_kind', { context: ctx });
  const n = 64;
  const out = ctx.buffer(n * 4);
  const wide = ctx.buffer(n * 8);
  const p = { tag: 7, pos: [1.5, 2, -3], id: -5_000_000_000n };
  const big = 0xfffffffffffffffen;
  const r = k.launch({ args: { out, p, tmp: { local: 16 * 4 }, v: [1, 2, 3, 4], big, wide, s: [0.5, 10] }, global: [n], local: [16] });
  assert.ok(r.timeMs >= 0);
  const got = out.read(new Float32Array(n));
  const gotWide = wide.read(new BigInt64Array(n));
  for (let i = 0; i < n; i++) {
    const expect = Math.fround(7 + 1.5 * 2 + -3 + 1 + 2 * 3 - 4 + i * 0.5 + 10);
    assert.equal(got[i], expect, `out[${i}]`);
    assert.equal(gotWide[i], -5_000_000_000n * 3n + BigInt.asIntN(64, big >> 1n) + BigInt(i), `wide[${i}]`);
  }
  k.dispose();
  out.dispose();
  wide.dispose();
  ctx.dispose();
});

test('PoCL: a build error carries the build log; a bad value is refused before any OpenCL call', async (t) => {
  const ctx = device(t);
  if (!ctx) return;
  await assert.rejects(kernel('kernel void k(global int *a) { a[0] = undefined_thing; }', 'k', { context: ctx }), /clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE[\s\S]*undefined_thing/);
  const k = await kernel('kernel void k(global int *a, char c) { a[0] = c; }', 'k', { context: ctx });
  const a = ctx.buffer(4);
  assert.throws(() => k.launch({ args: { a, c: 200 }, global: [1] }), /kernel 'k', argument 'c': 200 is out of range for char/);
  assert.throws(() => k.launch({ args: { a: new Float32Array(1), c: 1 }, global: [1] }), /kernel 'k', argument 'a': expected a device buffer/);
  k.launch({ args: { a, c: -3 }, global: [1] });
  assert.equal(a.read(new Int32Array(1))[0], -3);
  k.dispose();
  ctx.dispose();
});
