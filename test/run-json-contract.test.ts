import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliWith } from '../src/cli/main.js';
import { checkGeometry } from '../src/runtime/checks/limits.js';
import type { OpenCLKernelPlan, OpenCLPlan } from '../src/abi/plan.js';
import { memoryHost } from '../src/frontend/opencl-c/index.js';
import { lower } from '../src/lower.js';
import { openclTarget } from '../src/targets/opencl/index.js';
import { testDevice } from './support/device.js';

// The `kernarg run --args` contract of the README and `--help`, one argument kind at a time,
// run on the test device and read back.

const files: Record<string, string> = {};
function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const dev = process.env.KERNARG_DEVICE ? ['--device', process.env.KERNARG_DEVICE] : [];
  const code = runCliWith(['run', ...argv, ...dev], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (p) => files[p],
    color: false,
  });
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout) as { device: string; args: Record<string, unknown>; timeMs: number };
}
const json = (name: string, v: unknown) => ((files[name] = JSON.stringify(v)), name);

function hasDevice(t: { skip: (m: string) => void }): boolean {
  const ctx = testDevice(t);
  ctx?.dispose();
  return ctx !== undefined;
}

files['all.cl'] = `typedef struct { char tag; float3 pos; long id; int pair[2]; } P;
typedef union { int i; float f; } U;
kernel void scalars(global long *out, char c, uchar uc, short s, ushort us, int i, uint ui, long l, ulong ul, float f, double d) {
  out[0] = c; out[1] = uc; out[2] = s; out[3] = us; out[4] = i; out[5] = ui; out[6] = l; out[7] = (long)(ul >> 1); out[8] = (long)(f * 4); out[9] = (long)(d * 8);
}
kernel void vectors(global float *out, float4 v, int2 w, long2 big, float3 t) {
  out[0] = v.x + v.y + v.z + v.w; out[1] = w.x * w.y; out[2] = (float)(big.y - big.x); out[3] = t.x + t.y + t.z;
}
kernel void structs(global long *out, P p, U u) { out[0] = p.tag; out[1] = (long)(p.pos.z * 2); out[2] = p.id; out[3] = p.pair[1]; out[4] = u.i; }
kernel void buffers(global int *io, constant float *c, global ulong *wide, global float4 *v4) {
  size_t i = get_global_id(0); io[i] = io[i] * 2 + (int)c[i]; wide[i] = wide[i] + 1; v4[i] = v4[i] * 2;
}
kernel void locals(global int *out, local int *scratch) { size_t l = get_local_id(0); scratch[l] = (int)l * 3; barrier(CLK_LOCAL_MEM_FENCE); out[get_global_id(0)] = scratch[get_local_size(0) - 1 - l]; }
kernel void images(read_only image2d_t src, sampler_t s, write_only image2d_t dst, read_only image1d_t line, read_only image3d_t vol, global float *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, s, p) * 2);
  if (p.x == 0 && p.y == 0) { out[0] = read_imagef(line, s, 1).x; out[1] = read_imagef(vol, s, (int4)(1, 0, 1, 0)).x; }
}
kernel void ints(read_only image2d_t src, sampler_t s, global uint *out) { out[0] = read_imageui(src, s, (int2)(1, 0)).y; }
`;

test('contract: every scalar type, 64-bit integers past 2^53 as digit strings in and out', (t) => {
  if (!hasDevice(t)) return;
  const r = run([
    'all.cl',
    '--kernel',
    'scalars',
    '--args',
    json('s.json', {
      out: { buffer: 'long', size: 10 },
      c: -5,
      uc: 250,
      s: -30000,
      us: 65000,
      i: -2e9,
      ui: 4e9,
      l: '-9223372036854775807',
      ul: '18446744073709551614',
      f: 1.25,
      d: 0.125,
    }),
    '--global',
    '1',
  ]);
  assert.deepEqual(r.args.out, [
    -5,
    250,
    -30000,
    65000,
    -2e9,
    4e9,
    '-9223372036854775807',
    '9223372036854775807',
    5,
    1,
  ]);
  assert.equal(r.args.l, '-9223372036854775807', 'arguments that are not buffers print back as given');
});

test('contract: vectors (3-vectors take 3 values, long vectors digit strings)', (t) => {
  if (!hasDevice(t)) return;
  const r = run([
    'all.cl',
    '--kernel',
    'vectors',
    '--args',
    json('v.json', {
      out: { buffer: 'float', size: 4 },
      v: [1, 2, 3, 4],
      w: [3, -4],
      big: ['9007199254740993', '9007199254741000'],
      t: [0.5, 0.25, 0.25],
    }),
    '--global',
    '1',
  ]);
  assert.deepEqual(r.args.out, [10, -12, 7, 1]);
});

test('contract: structs field by field (nested vector, array, 64-bit field) and unions with one member', (t) => {
  if (!hasDevice(t)) return;
  const r = run([
    'all.cl',
    '--kernel',
    'structs',
    '--args',
    json('st.json', {
      out: { buffer: 'long', size: 5 },
      p: { tag: 7, pos: [0, 0, 1.5], id: '-9007199254740993', pair: [5, 6] },
      u: { i: 42 },
    }),
    '--global',
    '1',
  ]);
  assert.deepEqual(r.args.out, [7, 3, '-9007199254740993', 6, 42]);
});

test('contract: buffers with data or size, constant and vector pointees, floats as "NaN"/"Infinity"', (t) => {
  if (!hasDevice(t)) return;
  const r = run([
    'all.cl',
    '--kernel',
    'buffers',
    '--args',
    json('b.json', {
      io: { buffer: 'int', data: [1, 2] },
      c: { buffer: 'float', data: [10, 20] },
      wide: { buffer: 'ulong', data: ['18446744073709551614', 0] },
      v4: { buffer: 'float', data: [1, 'NaN', 'Infinity', '-Infinity', 0, 0, 0, 0.5] },
    }),
    '--global',
    '2',
  ]);
  assert.deepEqual(r.args.io, [12, 24]);
  assert.deepEqual(r.args.wide, ['18446744073709551615', 1]);
  assert.deepEqual(r.args.v4, [2, 'NaN', 'Infinity', '-Infinity', 0, 0, 0, 1]);
  const sized = run([
    'all.cl',
    '--kernel',
    'buffers',
    '--args',
    json('b2.json', {
      io: { buffer: 'int', size: 2 },
      c: { buffer: 'float', size: 2 },
      wide: { buffer: 'ulong', size: 2 },
      v4: { buffer: 'float', size: 8 },
    }),
    '--global',
    '2',
  ]);
  assert.deepEqual(sized.args.wide, [1, 1]);
});

test('contract: local memory as {"local": bytes}', (t) => {
  if (!hasDevice(t)) return;
  const r = run([
    'all.cl',
    '--kernel',
    'locals',
    '--args',
    json('l.json', { out: { buffer: 'int', size: 8 }, scratch: { local: 16 } }),
    '--global',
    '8',
    '--local',
    '4',
  ]);
  assert.deepEqual(r.args.out, [9, 6, 3, 0, 9, 6, 3, 0]);
});

test('contract: images (1-D, 2-D, 3-D; float and integer channels) and samplers', (t) => {
  if (!hasDevice(t)) return;
  const src = Array.from({ length: 3 * 2 * 4 }, (_, i) => i / 4);
  const r = run([
    'all.cl',
    '--kernel',
    'images',
    '--args',
    json('im.json', {
      src: { image: { width: 3, height: 2, channelOrder: 'RGBA', channelType: 'FLOAT', data: src } },
      s: { sampler: { normalized: false, addressing: 'clamp_to_edge', filter: 'nearest' } },
      dst: { image: { width: 3, height: 2, channelOrder: 'RGBA', channelType: 'FLOAT' } },
      line: { image: { width: 2, channelOrder: 'R', channelType: 'FLOAT', data: [5, 6] } },
      vol: { image: { width: 2, height: 1, depth: 2, channelOrder: 'R', channelType: 'FLOAT', data: [1, 2, 3, 4] } },
      out: { buffer: 'float', size: 2 },
    }),
    '--global',
    '3,2',
  ]);
  assert.deepEqual(
    r.args.dst,
    src.map((x) => x * 2),
  );
  assert.deepEqual(r.args.out, [6, 4]);
  const u = run([
    'all.cl',
    '--kernel',
    'ints',
    '--args',
    json('iu.json', {
      src: {
        image: {
          width: 2,
          height: 1,
          channelOrder: 'RGBA',
          channelType: 'UNSIGNED_INT8',
          data: [1, 2, 3, 4, 5, 250, 7, 8],
        },
      },
      s: { sampler: {} },
      out: { buffer: 'uint', size: 1 },
    }),
    '--global',
    '1',
  ]);
  assert.deepEqual(u.args.out, [250]);
});

test('contract: tinytc memrefs (strided, types inferred), groups with offsets, i64/index digit strings', (t) => {
  if (!hasDevice(t)) return;
  files['m.ir'] =
    `func @copy(%a: memref<f64x2x?,strided<1,?>>, %b: memref<f64x2x?>, %g: group<memref<i32x?>, offset: ?>, %h: memref<i32x?>, %n: index) {
  axpby.n 1.0, %a, 0.0, %b : f64, memref<f64x2x?,strided<1,?>>, f64, memref<f64x2x?>
  %id = group_id
  %m = load %g[%id] : group<memref<i32x?>, offset: ?>
  axpby.n 1, %m, 1, %h : i32, memref<i32x?>, i32, memref<i32x?>
}`;
  const r = run([
    'm.ir',
    '--kernel',
    'copy',
    '--howmany',
    '1',
    '--args',
    json('m.json', {
      a: { memref: { data: [1, 2, 0, 3, 4, 0], shape: [2, 2], stride: [1, 3] } },
      b: { memref: { size: 4, shape: [2, 2] } },
      g: { group: [{ data: [9, 10, 20], shape: [2] }], offset: 1 },
      h: { memref: { type: 'i32', data: [1, 1], shape: [2] } },
      n: '9223372036854775807',
    }),
  ]);
  assert.deepEqual(r.args.b, [1, 2, 3, 4]);
  assert.deepEqual(r.args.g, [[9, 10, 20]]);
  assert.deepEqual(r.args.h, [11, 21]);
  assert.equal(r.args.n, '9223372036854775807');
});

test('run --help documents the whole JSON contract', () => {
  let out = '';
  assert.equal(
    runCliWith(['run', '--help'], {
      stdout: (t) => (out += t),
      stderr: () => {},
      readFile: () => undefined,
      color: false,
    }),
    0,
  );
  for (const kind of [
    'scalar',
    'vector',
    'struct / union',
    'buffer',
    'local pointer',
    'image',
    'sampler',
    'tinytc memref',
    'tinytc group',
    'digit strings',
    '"NaN"',
  ])
    assert.ok(out.includes(kind), kind);
});

// Library-level checks that need no device.

const plan = (src: string) =>
  lower('k.cl', src, memoryHost({}), { target: 'opencl', format: 'json' }).plan as OpenCLPlan;

test('packers: only own keys supply arguments and fields (compiled and interpreted)', () => {
  const p = plan('typedef struct { int toString; int b; } T;\nkernel void k(T t, int n) {}');
  for (const interpreted of [false, true]) {
    const packer = openclTarget.pack.packer(p, 'k', { interpreted });
    const inherited = Object.create({ n: 1 }) as Record<string, unknown>;
    inherited.t = { toString: 1, b: 2 };
    assert.throws(() => packer.pack(inherited), /kernel 'k', argument 'n': missing/);
    assert.throws(
      () => packer.pack({ t: { b: 2 }, n: 1 }),
      /kernel 'k', argument 't\.toString': missing field 'toString'/,
    );
    const out = packer.pack({ t: { toString: 3, b: 4 }, n: 5 });
    assert.equal(Buffer.from((out[0] as { bytes: Uint8Array }).bytes).toString('hex'), '0300000004000000');
    // Even with keys planted on Object.prototype, nothing inherited supplies an argument or a field.
    const proto = Object.prototype as Record<string, unknown>;
    try {
      proto.n = 5;
      proto.b = 9;
      assert.throws(() => packer.pack({ t: { toString: 1, b: 2 } }), /argument 'n': missing/);
      assert.throws(() => packer.pack({ t: { toString: 1 }, n: 3 }), /argument 't\.b': missing field 'b'/);
    } finally {
      delete proto.n;
      delete proto.b;
    }
  }
});

test('launch geometry: reqd_work_group_size, divisibility, non-uniform work-groups where the device takes them', () => {
  const k = (reqd?: [number, number, number]): OpenCLKernelPlan => ({
    name: 'k',
    args: [],
    ...(reqd ? { reqdWorkGroupSize: reqd } : {}),
  });
  const dev = {
    maxMemAllocSize: 1 << 30,
    localMemSize: 1 << 16,
    maxParameterSize: 1024,
    maxWorkGroupSize: 256,
    maxWorkItemSizes: [256, 256, 64],
    addressBits: 64,
    nonUniformWorkGroups: true,
  };
  const kl = { workGroupSize: 128, staticLocalMemSize: 0 };
  assert.deepEqual(checkGeometry(k([8, 2, 1]), [16, 4], undefined, dev, kl, true), [8, 2]);
  assert.throws(
    () => checkGeometry(k([8, 2, 1]), [16], undefined, dev, kl, true),
    /reqd_work_group_size\(8, 2, 1\) needs a 2-dimensional launch/,
  );
  assert.throws(
    () => checkGeometry(k([8, 2, 1]), [12, 4], undefined, dev, kl, true),
    /global size 12 along x is not a multiple of the local size 8 \(its reqd_work_group_size makes work-groups uniform\)/,
  );
  assert.deepEqual(checkGeometry(k(), [10], [4], dev, kl, true), [4], 'non-uniform where allowed');
  assert.throws(
    () => checkGeometry(k(), [10], [4], dev, kl, false),
    /not a multiple .*non-uniform work-groups need an OpenCL C 2\.0/,
  );
  assert.throws(
    () => checkGeometry(k(), [256], [256], dev, kl, true),
    /more than this kernel allows on the device \(CL_KERNEL_WORK_GROUP_SIZE 128\)/,
  );
  assert.throws(
    () => checkGeometry(k(), [1, 1, 128], [1, 1, 128], dev, kl, true),
    /local size 128 along z is more than the device allows/,
  );
  assert.throws(
    () => checkGeometry(k(), [4], [2, 2], dev, kl, true),
    /the local size has 2 dimensions, the global size 1/,
  );
  assert.throws(
    () => checkGeometry(k(), [0], undefined, dev, kl, true),
    /global size must be 1 to 3 positive integers/,
  );
});
