import assert from 'node:assert/strict';
import { test } from 'node:test';
import { kernel } from '../src/runtime/opencl/compile-kernel.js';
import { testDevice } from './support/device.js';

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
  const ctx = testDevice(t);
  if (!ctx) return;
  const k = await kernel(SOURCE, 'every_kind', { context: ctx });
  const n = 64;
  const out = ctx.buffer(n * 4);
  const wide = ctx.buffer(n * 8);
  const p = { tag: 7, pos: [1.5, 2, -3], id: -5_000_000_000n };
  const big = 0xfffffffffffffffen;
  const r = k.launch({
    args: { out, p, tmp: { local: 16 * 4 }, v: [1, 2, 3, 4], big, wide, s: [0.5, 10] },
    global: [n],
    local: [16],
  });
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
  const ctx = testDevice(t);
  if (!ctx) return;
  await assert.rejects(
    kernel('kernel void k(global int *a) { a[0] = undefined_thing; }', 'k', { context: ctx }),
    /clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE[\s\S]*undefined_thing/,
  );
  const k = await kernel('kernel void k(global int *a, char c) { a[0] = c; }', 'k', { context: ctx });
  const a = ctx.buffer(4);
  assert.throws(
    () => k.launch({ args: { a, c: 200 }, global: [1] }),
    /kernel 'k', argument 'c': 200 is out of range for char/,
  );
  assert.throws(
    () => k.launch({ args: { a: new Float32Array(1), c: 1 }, global: [1] }),
    /kernel 'k', argument 'a': expected a device buffer/,
  );
  k.launch({ args: { a, c: -3 }, global: [1] });
  assert.equal(a.read(new Int32Array(1))[0], -3);
  k.dispose();
  ctx.dispose();
});

test('kernarg run: JSON arguments in, the arguments after the run out', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const { runCliWith } = await import('../src/cli/main.js');
  const files: Record<string, string> = {
    'k.cl':
      'typedef struct { float a; int b; } P;\nkernel void axpy(global float *y, global const float *x, P p, long ' +
      'big) { size_t i = get_global_id(0); y[i] = p.a * x[i] + y[i] + p.b + (float)(big % 10); }',
    'a.json':
      '{"y": {"buffer": "float", "data": [1, 2, 3, 4]}, "x": {"buffer": "float", "data": [10, 20, 30, 40]}, "p": ' +
      '{"a": 2, "b": 1}, "big": "9007199254740993"}',
    'bad.json':
      '{"y": {"buffer": "float", "data": [1]}, "x": {"buffer": "float", "data": [1]}, "p": {"a": 2, "b": 1e20}, ' +
      '"big": 1}',
  };
  let out = '';
  let err = '';
  const io = {
    stdout: (s: string) => (out += s),
    stderr: (s: string) => (err += s),
    readFile: (p: string) => files[p],
    color: false,
  };
  assert.equal(
    runCliWith(
      [
        'run',
        'k.cl',
        '--kernel',
        'axpy',
        '--args',
        'a.json',
        '--global',
        '4',
        '--device',
        process.env.KERNARG_DEVICE ?? '',
      ],
      io,
    ),
    0,
    err,
  );
  const r = JSON.parse(out);
  assert.deepEqual(r.args.y, [25, 46, 67, 88]);
  assert.equal(r.args.big, '9007199254740993');
  assert.equal(typeof r.timeMs, 'number');
  out = '';
  assert.equal(runCliWith(['run', 'k.cl', '--kernel', 'axpy', '--args', 'bad.json', '--global', '1'], io), 1);
  assert.match(err, /kernel 'axpy', argument 'p\.b': 100000000000000000000 is out of range for int/);
  assert.equal(runCliWith(['run', 'k.cl', '--kernel', 'axpy', '--args', 'a.json'], io), 2);
});

test('PoCL: an image with a sampler (read_imagef) and a write_only image', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const k = await kernel(
    `kernel void blit(read_only image2d_t src, sampler_t s, write_only image2d_t dst, float gain) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, s, p) * gain);
  }`,
    'blit',
    { context: ctx },
  );
  const w = 4;
  const h = 3;
  const data = new Float32Array(w * h * 4).map((_, i) => i / 8);
  const src = ctx.image({ width: w, height: h, channelOrder: 0x10b5, channelType: 0x10de, data });
  const dst = ctx.image({ width: w, height: h, channelOrder: 0x10b5, channelType: 0x10de });
  const s = ctx.sampler({ addressing: 0x1131, filter: 0x1140 });
  k.launch({ args: { src, s, dst, gain: 2 }, global: [w, h] });
  const out = dst.read(new Float32Array(w * h * 4));
  assert.deepEqual(
    [...out],
    [...data].map((x) => x * 2),
  );
  for (const x of [k, src, dst, s]) x.dispose();
  ctx.dispose();
});
