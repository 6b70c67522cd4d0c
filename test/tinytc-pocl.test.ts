import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testDevice } from './support/device.js';
import { nvidiaComputeCapability, tinytcKernel } from '../src/runtime/tinytc.js';

// The IR's calling convention, with OpenCL C bodies written by hand (the tinytc code generator is another issue):
// they prove that memref and group arguments arrive expanded as the convention says.
const IR = `func @scale(%a: memref<f32x4x?>, %s: f32) work_group_size(1, 1) {}
func @gather(%g: group<memref<f32x?x2>, offset: ?>, %out: memref<f32x?>) {}`;
const SCALE_C = `kernel __attribute__((reqd_work_group_size(1, 1, 1))) void scale(global float* a, long a_shape1, float s) {
  long j = get_global_id(2);
  for (long i = 0; i < 4; ++i) if (j < a_shape1) a[i + j * 4] *= s;
}`;
const GATHER_C = `kernel void gather(global float*global* g, global long* g_shape0, global long* g_stride1, long g_offset, global float* out, long out_shape0) {
  long id = get_global_id(2);
  global float* m = *(g + id) + g_offset;
  float acc = 0;
  for (long i = 0; i < g_shape0[id]; ++i) acc += m[i] + 10 * m[i + g_stride1[id]];
  out[id] = acc;
}`;

test('PoCL: a memref expands into pointer, dynamic shape and stride; howmany sets the third dimension', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const k = tinytcKernel(ctx, IR, 'scale', { openclC: SCALE_C });
  const data = new Float32Array(4 * 3).map((_, i) => i);
  k.launch({ args: { a: { data, shape: [4, 3] }, s: 2 }, howmany: 3 });
  assert.deepEqual(
    [...data],
    Array.from({ length: 12 }, (_, i) => i * 2),
  );
  assert.throws(
    () => k.launch({ args: { a: { data, shape: [5, 3] }, s: 1 } }),
    /argument 'a.shape\[0\]': 5 differs from the declared static extent 4/,
  );
  assert.throws(
    () => k.launch({ args: { a: { data, shape: [4, 9] }, s: 1 } }),
    /argument 'a': data holds 48 bytes, the shape and stride need 144/,
  );
  ctx.dispose();
});

// NVIDIA's OpenCL compiler refuses pointer-to-pointer kernel parameters even with -cl-std=CL2.0;
// the same table then travels as `global ulong*` and is cast back inside (what the codegen must do there).
const GATHER_C_TABLE_AS_ULONG = GATHER_C.replace('global float*global* g,', 'global ulong* g_table,').replace(
  'long id = get_global_id(2);',
  'global float*global* g = (global float*global*)g_table;\n  long id = get_global_id(2);',
);

test('PoCL: a group becomes an SVM pointer table with per-member shape and stride tables and an offset', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const nvidia = /nvidia/i.test(ctx.device.platform);
  const k = tinytcKernel(ctx, IR, 'gather', { openclC: nvidia ? GATHER_C_TABLE_AS_ULONG : GATHER_C });
  // Member i: shape [n_i, 2], data starting at `offset` elements.
  const members = [2, 3, 1].map((n, i) => {
    const offset = 1;
    const data = new Float32Array(offset + 2 * n).map((_, j) => (j < offset ? 999 : i * 100 + (j - offset)));
    return { data, shape: [n, 2] };
  });
  const out = new Float32Array(3);
  k.launch({ args: { g: { group: members, offset: 1 }, out: { data: out, shape: [3] } }, howmany: 3 });
  const expect = members.map((m) => {
    const n = m.shape[0];
    let acc = 0;
    for (let i = 0; i < n; i++) acc += m.data[1 + i] + 10 * m.data[1 + i + n];
    return acc;
  });
  assert.deepEqual([...out], expect);
  ctx.dispose();
});

test('kernarg run with tinytc IR: memref and group JSON arguments, shape checks', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const { runCliWith } = await import('../src/cli/main.js');
  const files: Record<string, string> = {
    'f.ir': 'func @f(%a: memref<f32x2x?>, %g: group<memref<i32x?>, offset: ?>, %n: i64) {}',
    'ok.json': JSON.stringify({
      a: { memref: { type: 'f32', data: [1, 2, 3, 4, 5, 6], shape: [2, 3] } },
      g: {
        group: [
          { type: 'i32', data: [1] },
          { type: 'i32', data: [2, 3] },
        ].map((m, i) => ({ ...m, shape: [i + 1] })),
        offset: 0,
      },
      n: 5,
    }),
    'notmemref.json': JSON.stringify({ a: { memref: 5 }, g: { group: 3 }, n: 1 }),
    'notgroup.json': JSON.stringify({ a: { memref: { data: [1, 2], shape: [2, 1] } }, g: { group: 3 }, n: 1 }),
    'bad.json': JSON.stringify({
      a: { memref: { data: [1, 2, 3], shape: [3, 1] } },
      g: { group: [{ type: 'i32', data: [1], shape: [1] }] },
      n: 5,
    }),
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
        'f.ir',
        '--kernel',
        'f',
        '--args',
        'ok.json',
        '--howmany',
        '2',
        '--device',
        process.env.KERNARG_DEVICE ?? '',
      ],
      io,
    ),
    0,
    err,
  );
  const r = JSON.parse(out);
  assert.deepEqual(r.args.a, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(r.args.g, [[1], [2, 3]]);
  assert.equal(
    runCliWith(
      ['run', 'f.ir', '--kernel', 'f', '--args', 'bad.json', '--device', process.env.KERNARG_DEVICE ?? ''],
      io,
    ),
    1,
  );
  assert.match(err, /kernel 'f', argument 'a.shape\[0\]': 3 differs from the declared static extent 2/);
  const dev = ['--device', process.env.KERNARG_DEVICE ?? ''];
  assert.equal(runCliWith(['run', 'f.ir', '--kernel', 'f', '--args', 'notmemref.json', ...dev], io), 1);
  assert.match(err, /kernel 'f', argument 'a': a memref takes/);
  assert.equal(runCliWith(['run', 'f.ir', '--kernel', 'f', '--args', 'notgroup.json', ...dev], io), 1);
  assert.match(err, /kernel 'f', argument 'g': a group takes/);
  assert.equal(runCliWith(['run', 'f.ir', '--kernel', 'nope', '--args', 'notgroup.json', ...dev], io), 1);
  assert.match(err, /^f\.ir: error: no kernel named 'nope' in this file \(it has @f\) \[KA6013\]$/m);
});

test("groupTables 'ulong': the table travels as global ulong* and is cast back (NVIDIA's fallback), here on any device", (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const k = tinytcKernel(ctx, 'func @f(%g: group<memref<f32x?>>) {}', 'f', { groupTables: 'ulong' });
  k.launch({ args: { g: { group: [{ data: new Float32Array(2), shape: [2] }] } } });
  ctx.dispose();
});

test('OpenCL C with NVIDIA PTX (mma-f64 on f64, async=S) is refused on other devices, naming the kernel', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  const ir = `func @mm(%a: memref<f64x32x32>, %b: memref<f64x32x32>, %c: memref<f64x32x32>) {
  gemm.n.n 1.0, %a, %b, 0.0, %c : f64, memref<f64x32x32>, memref<f64x32x32>, f64, memref<f64x32x32>
}`;
  const capable = /nvidia/i.test(ctx.device.platform) && (nvidiaComputeCapability(ctx) ?? 0) >= 8;
  const cases: Parameters<typeof tinytcKernel>[3][] = [
    { blas: { gemm: [{ variant: 'mma-f64' }] } },
    { blas: { gemm: [{ variant: 'staged-k16', opencl: { async: 3 } }] } },
    { blas: { gemm: [{ variant: 'staged-all' }], opencl: { async: 2 } } },
  ];
  for (const options of cases) {
    if (capable) tinytcKernel(ctx, ir, 'mm', options);
    else
      assert.throws(
        () => tinytcKernel(ctx, ir, 'mm', options),
        /^RuntimeInputError: kernel 'mm': its blas rules \(mma-f64, async\) put NVIDIA PTX/,
      );
  }
  // The same rules without PTX, mma-f64 on an f32 GEMM (its portable fallback) and the PTX rules through SPIR-V
  // (which leaves them out) build.
  tinytcKernel(ctx, ir, 'mm', { blas: { gemm: [{ variant: 'staged-k16' }] } });
  tinytcKernel(ctx, ir.replaceAll('f64', 'f32'), 'mm', cases[0]);
  tinytcKernel(ctx, ir, 'mm', { ...cases[0], il: 'spirv' });
  ctx.dispose();
});
