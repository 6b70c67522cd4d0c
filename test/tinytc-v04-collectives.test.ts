// tinytc v0.4's bool parameters, foreach_tile, barriers in parallel regions and subgroup reductions and scans,
// lowered by both code generators and run against the JS reference (test/support/tinytc-reference.ts, whose
// parallel regions run in lockstep: test/support/tinytc-reference-spmd.ts) on PoCL (OpenCL C and OpenCL
// SPIR-V) and lavapipe (Vulkan SPIR-V). PoCL has no subgroups, so the subgroup operations run on lavapipe only;
// spirv-val checks every module of both flavours.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { lower } from '../src/lower.js';
import { runCliWith } from '../src/cli/main.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { vulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { runReference } from './support/tinytc-reference.js';
import { SPIRV_VAL, spirvValComplaints } from './support/spirv-check.js';
import { requireTool } from './support/tools.js';
import { testDevice } from './support/device.js';
import { deviceString } from '../src/runtime/opencl/device-info.js';
import { testVulkan } from './support/vulkan-device.js';

const HOST = { readFile: () => undefined };

// Four stores, each under a condition built from the two bool parameters.
const FLAGS = `func @flags(%on: bool, %off: bool, %x: i32, %out: memref<i32x4>) attributes{work_group_size=[2,1]} {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %c3 = constant 3 : index
  %both = and %on, %off : bool
  %either = or %on, %off : bool
  %neither = not %either : bool
  if %on {
    store %x, %out[%c0]
  }
  if %both {
    store %x, %out[%c1]
  }
  if %either {
    store %x, %out[%c2]
  }
  if %neither {
    store %x, %out[%c3]
  }
}`;

// Every element of an n × m matrix gets its tile's extents (100 × rows + columns): tiles of 4 × 3 leave
// remainders of 2 and 1 for 10 × 7; a 1-D foreach_tile over i32 bounds counts its tiles' offsets.
const TILES = `func @tiles(%A: memref<i32x?x?>, %n: index, %m: index, %B: memref<i32x?>, %k: i32)
    attributes{work_group_size=[8,2]} {
  %c0 = constant 0 : index
  foreach_tile (%i, %j) = (%c0, %c0), (%n, %m) as (%ti, %tj) <= (4, 3) {
    %ta = cast %ti : i32
    %tb = cast %tj : i32
    %h = constant 100 : i32
    %x0 = mul %ta, %h : i32
    %x1 = add %x0, %tb : i32
    for %u = %c0, %ti {
      for %v = %c0, %tj {
        %p = add %i, %u : index
        %q = add %j, %v : index
        store %x1, %A[%p, %q]
      }
    }
  }
  %z = constant 0 : i32
  foreach_tile (%s) = (%z), (%k) as (%ts) <= (5) {
    %one = constant 1 : i32
    for %w = %z, %ts {
      %e = add %s, %w : i32
      %ei = cast %e : index
      %v = add %s, %one : i32
      store %v, %B[%ei]
    }
  }
}`;

// Every work-item counts itself in, waits at the barrier, then reads the count: each must see all 8 (without
// the barrier the first one would see 1). The bare barrier in an if exercises the no-fence form.
const BARRIER = `func @bar(%count: memref<i32x?>, %seen: memref<i32x?>, %again: bool)
    attributes{work_group_size=[4,2]} {
  %g = group_id.x : index
  parallel {
    %one = constant 1 : i32
    %zero = constant 0 : i32
    %p = atomic_add.device %one, %count[%g] : i32
    barrier.global
    %now = atomic_add.device %zero, %count[%g] : i32
    %m = atomic_min.device %now, %seen[%g] : i32
    if %again {
      barrier
    }
  }
}`;

// Each work-item writes, at the row its subgroup and lane name, every reduction and scan of values that vary
// over the lanes (negative ones too), and the subgroup size the reference is then run with.
const SUBGROUP = `func @sg(%out: memref<i32x32x8>, %wide: memref<i64x32x3>, %f: memref<f32x32x3>, %c: memref<c32x32>)
    attributes{work_group_size=[16,2]} {
  parallel {
    %lin = subgroup_linear_id : i32
    %loc = subgroup_local_id : i32
    %s = subgroup_size : i32
    %t = mul %lin, %s : i32
    %k32 = add %t, %loc : i32
    %k = cast %k32 : index
    %seven = constant 7 : i32
    %five = constant 5 : i32
    %two = constant 2 : i32
    %a0 = mul %loc, %seven : i32
    %a1 = rem %a0, %five : i32
    %a2 = sub %a1, %two : i32
    %a = add %a2, %lin : i32
    %r0 = subgroup_reduce_add %a : i32
    %r1 = subgroup_reduce_max %a : i32
    %r2 = subgroup_reduce_min %a : i32
    %r3 = subgroup_inclusive_scan_add %a : i32
    %r4 = subgroup_inclusive_scan_max %a : i32
    %r5 = subgroup_exclusive_scan_add %a : i32
    %r6 = subgroup_exclusive_scan_min %a : i32
    %c0 = constant 0 : index
    %c1 = constant 1 : index
    %c2 = constant 2 : index
    %c3 = constant 3 : index
    %c4 = constant 4 : index
    %c5 = constant 5 : index
    %c6 = constant 6 : index
    %c7 = constant 7 : index
    store %r0, %out[%k,%c0]
    store %r1, %out[%k,%c1]
    store %r2, %out[%k,%c2]
    store %r3, %out[%k,%c3]
    store %r4, %out[%k,%c4]
    store %r5, %out[%k,%c5]
    store %r6, %out[%k,%c6]
    store %s, %out[%k,%c7]
    %big = constant 4294967296 : i64
    %a64 = cast %a : i64
    %w = mul %a64, %big : i64
    %w0 = subgroup_reduce_add %w : i64
    %w1 = subgroup_inclusive_scan_min %w : i64
    %w2 = subgroup_exclusive_scan_max %w : i64
    store %w0, %wide[%k,%c0]
    store %w1, %wide[%k,%c1]
    store %w2, %wide[%k,%c2]
    %x = cast %a : f32
    %f0 = subgroup_reduce_max %x : f32
    %f1 = subgroup_inclusive_scan_add %x : f32
    %f2 = subgroup_exclusive_scan_min %x : f32
    store %f0, %f[%k,%c0]
    store %f1, %f[%k,%c1]
    store %f2, %f[%k,%c2]
    %cx = cast %x : c32
    %ci = constant [0.0, 1.0] : c32
    %im = mul %ci, %cx : c32
    %z = add %cx, %im : c32
    %zs = subgroup_exclusive_scan_add %z : c32
    store %zs, %c[%k]
  }
}`;

// A foreach_tile whose body uses subgroup instructions: each subgroup takes whole tiles, its lanes splitting a
// tile's elements (every subgroup-size-th from the lane's id) and agreeing on the count of lanes; lane 0 writes the
// tile's summary (100 × the subgroup size + its extent). 70 elements in tiles of 16 leave a remainder of 6.
const TILE_SUBGROUPS = `func @tsg(%A: memref<i32x?>, %n: index, %B: memref<i32x8>) attributes{work_group_size=[16,2]} {
  %c0 = constant 0 : index
  foreach_tile (%i) = (%c0), (%n) as (%ti) <= (16) {
    %loc = subgroup_local_id : i32
    %l = cast %loc : index
    %s = subgroup_size : i32
    %st = cast %s : index
    for %e = %l, %ti, %st {
      %p = add %i, %e : index
      %v = cast %p : i32
      %sq = mul %v, %v : i32
      store %sq, %A[%p]
    }
    %one = constant 1 : i32
    %cnt = subgroup_reduce_add %one : i32
    %hundred = constant 100 : i32
    %c = mul %cnt, %hundred : i32
    %t32 = cast %ti : i32
    %val = add %c, %t32 : i32
    %zero = constant 0 : i32
    %first = equal %loc, %zero : bool
    %sixteen = constant 16 : index
    %tile = div %i, %sixteen : index
    if %first {
      store %val, %B[%tile]
    }
  }
}`;

/** The reference's results on the v0.3 rewrite, on fresh arguments, launched as the device is. */
function reference<A extends Record<string, unknown>>(
  ir: string,
  args: A,
  howmany: readonly [number, number, number],
  wg: readonly [number, number],
  subgroupSize = 1,
): A {
  const compiled = compileTinytc(new SourceFile('k.ir', ir), { layout: SPIR64 });
  assert.ok(compiled.compiled, compiled.diagnostics.items.map((d) => d.message).join('; '));
  runReference(compiled.compiled.program.funcs[0], args, howmany, { wg, subgroupSize });
  return args;
}

const plain = (a: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(a).map(([k, v]) => [
      k,
      v && typeof v === 'object' && 'data' in v ? [...(v.data as Iterable<unknown>)].map(String) : v,
    ]),
  );

const flagArgs = (on: number, off: number) => ({
  on,
  off,
  x: 7,
  out: { data: new Int32Array(4).fill(-1), shape: [4] },
});
const tileArgs = () => ({
  A: { data: new Int32Array(70).fill(-1), shape: [10, 7] },
  n: 10,
  m: 7,
  B: { data: new Int32Array(13).fill(-1), shape: [13] },
  k: 12,
});
const barrierArgs = () => ({
  count: { data: new Int32Array(3), shape: [3] },
  seen: { data: new Int32Array(3).fill(1000), shape: [3] },
  again: 1,
});

/** Each program, the kernel, fresh arguments, the launch and the work-group size. */
const RUNS = [
  ...[
    [1, 0],
    [0, 1],
    [1, 1],
    [0, 0],
  ].map(([on, off]) => ({
    what: `bool parameters ${on}, ${off}`,
    ir: FLAGS,
    name: 'flags',
    args: () => flagArgs(on, off),
    howmany: [1, 1, 1] as const,
    wg: [2, 1] as const,
  })),
  { what: 'foreach_tile', ir: TILES, name: 'tiles', args: tileArgs, howmany: [1, 1, 1] as const, wg: [8, 2] as const },
  { what: 'barrier', ir: BARRIER, name: 'bar', args: barrierArgs, howmany: [3, 1, 1] as const, wg: [4, 2] as const },
];

test('the reference: bool conditions, tile extents with remainders, the counts seen after the barrier', () => {
  assert.deepEqual(plain(reference(FLAGS, flagArgs(1, 0), [1, 1, 1], [2, 1])).out, ['7', '-1', '7', '-1']);
  assert.deepEqual(plain(reference(FLAGS, flagArgs(0, 0), [1, 1, 1], [2, 1])).out, ['-1', '-1', '-1', '7']);
  const t = reference(TILES, tileArgs(), [1, 1, 1], [8, 2]);
  const extent = (x: number, tile: number, n: number) => Math.min(tile, n - Math.floor(x / tile) * tile);
  const a = Array.from({ length: 70 }, (_, e) => 100 * extent(e % 10, 4, 10) + extent(Math.floor(e / 10), 3, 7));
  assert.deepEqual([...t.A.data], a);
  assert.deepEqual([...t.B.data], [...Array.from({ length: 12 }, (_, e) => e - (e % 5) + 1), -1]);
  const b = reference(BARRIER, barrierArgs(), [3, 1, 1], [4, 2]);
  assert.deepEqual([...b.seen.data], [8, 8, 8]);
  // Without the barrier the first work-item reads the count it made alone: the reference waits where the barrier is.
  const none = reference(BARRIER.replace('barrier.global\n', ''), barrierArgs(), [3, 1, 1], [4, 2]);
  assert.deepEqual([...none.seen.data], [1, 1, 1]);
});

test('PoCL: OpenCL C and OpenCL SPIR-V give the reference results (bool parameters, foreach_tile, barrier)', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    for (const r of RUNS)
      for (const il of ['opencl-c', 'spirv'] as const) {
        const k = tinytcKernel(ctx, r.ir, r.name, { il });
        const a = r.args();
        k.launch({ args: a, howmany: r.howmany });
        assert.deepEqual(plain(a), plain(reference(r.ir, r.args(), r.howmany, r.wg)), `${r.what} (${il})`);
      }
  } finally {
    ctx.dispose();
  }
});

test('lavapipe: Vulkan SPIR-V gives the reference results (bool parameters, foreach_tile, barrier)', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    for (const r of RUNS) {
      const k = vulkanTinytcKernel(ctx, r.ir, r.name);
      const a = r.args();
      k.launch({ args: a, howmany: r.howmany });
      assert.deepEqual(plain(a), plain(reference(r.ir, r.args(), r.howmany, r.wg)), r.what);
    }
  } finally {
    ctx.dispose();
  }
});

const subgroupArgs = () => ({
  out: { data: new Int32Array(256).fill(-1), shape: [32, 8] },
  wide: { data: new BigInt64Array(96).fill(-1n), shape: [32, 3] },
  f: { data: new Float32Array(96).fill(-1), shape: [32, 3] },
  c: { data: new Float32Array(64).fill(-1), shape: [32] },
});

test("lavapipe: subgroup reductions and scans give the reference's results for the device's subgroup size", (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const k = vulkanTinytcKernel(ctx, SUBGROUP, 'sg');
    const a = subgroupArgs();
    k.launch({ args: a, howmany: 1 });
    const s = a.out.data[7 * 32];
    // Several lanes, tiling the 16 work-items of a row, or the reductions would show nothing.
    assert.ok(s > 1 && 16 % s === 0, `subgroup size ${s}`);
    const e = reference(SUBGROUP, subgroupArgs(), [1, 1, 1], [16, 2], s);
    // The first lane's exclusive scans start at the identities: 0, the largest i32, the smallest i64, +infinity.
    assert.deepEqual([e.out.data[5 * 32], e.out.data[6 * 32]], [0, 2147483647]);
    assert.deepEqual([e.wide.data[2 * 32], e.f.data[2 * 32]], [-(2n ** 63n), Infinity]);
    assert.deepEqual(plain(a), plain(e));
  } finally {
    ctx.dispose();
  }
});

test('lavapipe: a foreach_tile with subgroup instructions gives each subgroup whole tiles, as the reference', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const args = () => ({
      A: { data: new Int32Array(72).fill(-1), shape: [72] },
      n: 70,
      B: { data: new Int32Array(8).fill(-1), shape: [8] },
    });
    const k = vulkanTinytcKernel(ctx, TILE_SUBGROUPS, 'tsg');
    const a = args();
    k.launch({ args: a, howmany: 1 });
    const s = Math.floor(a.B.data[0] / 100);
    assert.ok(s > 1 && 16 % s === 0, `subgroup size ${s}`);
    const e = reference(TILE_SUBGROUPS, args(), [1, 1, 1], [16, 2], s);
    assert.deepEqual([...e.B.data], [...[16, 16, 16, 16, 6].map((x) => 100 * s + x), -1, -1, -1]);
    assert.deepEqual([...e.A.data], [...Array.from({ length: 70 }, (_, x) => x * x), -1, -1]);
    assert.deepEqual(plain(a), plain(e));
  } finally {
    ctx.dispose();
  }
});

test('PoCL: a program with subgroup instructions is refused (KA3140) at the instruction, both ways in', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const extensions = deviceString(ctx.cl, ctx.device.handle, 'extensions').split(/\s+/);
    for (const il of ['opencl-c', 'spirv'] as const) {
      const build = () => tinytcKernel(ctx, SUBGROUP, 'sg', { il, path: 'sg.ir' });
      // A device with subgroups builds it; PoCL has none.
      if (extensions.includes('cl_khr_subgroups')) assert.ok(build());
      else assert.throws(build, /sg\.ir:\d+:\d+: error: 'subgroup_linear_id' needs subgroups, .*\[KA3140\]/);
    }
  } finally {
    ctx.dispose();
  }
});

test('spirv-val accepts the OpenCL (opencl2.2) and Vulkan (vulkan1.3) modules of these programs', (t) => {
  const val = requireTool(t, SPIRV_VAL, ['--version']);
  if (!val) return;
  for (const [name, ir] of Object.entries({ FLAGS, TILES, BARRIER, SUBGROUP, TILE_SUBGROUPS }))
    for (const target of ['opencl', 'vulkan'] as const) {
      const r = lower(`${name}.ir`, ir, HOST, { target, format: 'spirv' });
      assert.ok(r.binary, `${name} ${target}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
      assert.equal(
        spirvValComplaints(val, r.binary, target === 'opencl' ? 'opencl2.2' : 'vulkan1.3'),
        '',
        `${name} ${target}`,
      );
    }
});

test('printed as OpGroup* (OpenCL, as tinytc), OpGroupNonUniform* (Vulkan), sub_group_* (C) and barrier()', () => {
  const asm = (target: 'opencl' | 'vulkan') => lower('sg.ir', SUBGROUP, HOST, { target, format: 'spirv-asm' }).output!;
  assert.match(asm('opencl'), /OpGroupIAdd %\w+ %\w+ Reduce /);
  assert.match(asm('opencl'), /OpGroupFMin %\w+ %\w+ ExclusiveScan /);
  assert.match(asm('opencl'), /OpCapability Groups/);
  assert.match(asm('vulkan'), /OpGroupNonUniformSMax %\w+ %\w+ InclusiveScan /);
  assert.match(asm('vulkan'), /OpCapability GroupNonUniformArithmetic/);
  const c = lower('sg.ir', SUBGROUP, HOST, { target: 'opencl', format: 'opencl-c' }).output!;
  assert.match(c, /sub_group_scan_exclusive_min\(/);
  assert.match(
    c,
    /\(float2\)\(sub_group_scan_exclusive_add\(\(\w+\)\.x\), sub_group_scan_exclusive_add\(\(\w+\)\.y\)\)/,
  );
  const b = lower('bar.ir', BARRIER, HOST, { target: 'opencl', format: 'opencl-c' }).output!;
  assert.match(b, /barrier\(CLK_GLOBAL_MEM_FENCE\);[\s\S]*barrier\(0\);/);
});

test('a bool parameter is a uchar (1 byte) in every format that shows parameters, for every target', () => {
  let bindings = '';
  const io = { stdout: (x: string) => (bindings += x), stderr: () => undefined, readFile: () => FLAGS, color: false };
  assert.equal(runCliWith(['gen-ts', 'f.ir'], io as never), 0);
  // gen-ts: the typed bindings take true or false (or 0 or 1) for each bool; the runtimes pack 0 or 1.
  assert.match(bindings, /readonly on: boolean \| 0 \| 1;\s+readonly off: boolean \| 0 \| 1;/);
  const sig = lower('f.ir', FLAGS, HOST, { target: 'opencl', format: 'signatures' }).output!;
  assert.match(sig, /void flags\(uchar on, uchar off, int x, global int\* out\)/);
  for (const target of ['opencl', 'vulkan', 'amdhsa', 'cuda', 'zebin'] as const) {
    const json = JSON.parse(lower('f.ir', FLAGS, HOST, { target, format: 'json' }).output!);
    const on = json.kernels[0].args.find((a: { name: string }) => a.name === 'on');
    assert.ok(on, target);
    assert.equal(on.param, 0, target);
    assert.match(JSON.stringify(on), /uchar/, target);
  }
});

test('what kernarg does not lower is refused with its code and position', () => {
  const refused = (ir: string, code: string, text: RegExp) => {
    const r = lower('r.ir', ir, HOST, { target: 'opencl', format: 'opencl-c' });
    assert.equal(r.output, undefined);
    const d = r.diagnostics.find((x) => x.code === code);
    assert.ok(d, r.diagnostics.map((x) => `${x.code} ${x.message}`).join('; '));
    assert.match(d.message, text);
  };
  const tile = (shape: string, body: string, attrs = '') =>
    `func @t(%a: memref<f32x?>, %n: index)${attrs} {\n  %c0 = constant 0 : index\n` +
    `  foreach_tile (%i) = (%c0), (%n) as (%ti) <= (${shape}) {\n${body}  }\n}\n`;
  refused(tile('16', '    barrier.local\n'), 'KA2420', /'barrier inside foreach_tile'/);
  refused(
    'func @f(%a: memref<f32x?>, %n: index) {\n  %c0 = constant 0 : index\n  foreach (%i) = (%c0), (%n) {\n' +
      '    %x = load %a[%i] : f32\n    %r = subgroup_reduce_add %x : f32\n  }\n}\n',
    'KA2420',
    /'subgroup_reduce_add inside foreach'/,
  );
  refused(tile('0', ''), 'KA2470', /must be positive, not 0/);
  refused(
    tile('6', '', ' attributes{subgroup_size=16}'),
    'KA2471',
    /\(6\) must be a multiple of the subgroup size \(16\)/,
  );
  refused(
    'func @f(%n: index) {\n  %c0 = constant 0 : index\n  foreach (%i) = (%c0), (%n) {\n    barrier\n  }\n}\n',
    'KA2420',
    /'barrier inside foreach'/,
  );
  refused(
    'func @s(%a: memref<i16x4>) {\n  parallel {\n    %c0 = constant 0 : index\n    %x = load %a[%c0] : i16\n' +
      '    %r = subgroup_reduce_add %x : i16\n  }\n}\n',
    'KA2420',
    /'subgroup_reduce_add of i16'/,
  );
});
