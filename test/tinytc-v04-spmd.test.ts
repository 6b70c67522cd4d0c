// tinytc v0.4's parallel regions, work-groups along x, y and z, a group's size, associated,
// atomics and foreach over two variables, run on PoCL (OpenCL C and kernarg's OpenCL SPIR-V) and
// lavapipe (Vulkan SPIR-V), each against the JS reference (test/support/tinytc-reference.ts) run on
// the v0.3 rewrite with the same launch: every work-item of every work-group runs the parallel
// body, so each counter ends at the work-group size and the extrema are those over all groups.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { lower } from '../src/lower.js';
import { runCliOnFiles } from './support/cli-in-memory.js';
import { SPIRV_VAL, spirvValComplaints } from './support/spirv-check.js';
import { requireTool } from './support/tools.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { LaunchError } from '../src/pack/errors.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { vulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { groupLaunch } from '../src/runtime/group-launch.js';
import { runReference } from './support/tinytc-reference.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';

const WG = [4, 2] as const;
const GROUPS = [2, 3, 2] as const;

const IR = `func @spmd(%g: group<memref<i32x4>x?>, %count: memref<i32x2x3x2>, %ext: memref<f32x2>,
                %wide: memref<i64x2>, %grid: memref<i32x5x3>, %info: memref<i64x4>) attributes{work_group_size=[${WG[0]},${WG[1]}]} {
  %x = group_id.x : index
  %y = group_id.y : index
  %z = group_id.z : i32
  %nx = num_groups.x : index
  %ny = num_groups.y : index
  %nz = num_groups.z : index
  %n = size %g[0] : index
  %there = associated %g : bool
  %m = load %g[%x] : memref<i32x4>
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %c3 = constant 3 : index
  %z64 = cast %z : index
  parallel {
    %one = constant 1 : i32
    %prev = atomic_add.device %one, %count[%x,%y,%z64] : i32
    %t0 = mul %y, %nx : index
    %t1 = add %t0, %x : index
    %t2 = mul %ny, %nx : index
    %t3 = mul %z64, %t2 : index
    %lin = add %t1, %t3 : index
    %lf = cast %lin : f32
    %hi = atomic_max.device %lf, %ext[%c0] : f32
    %neg = neg %lf : f32
    %lo = atomic_min.device.sequentially_consistent %neg, %ext[%c1] : f32
    %li = cast %lin : i64
    %w = atomic_max.device.acquire_release %li, %wide[%c0] : i64
    %v = load %m[%c2] : i32
    %vi = cast %v : i64
    %w2 = atomic_add.device %vi, %wide[%c1] : i64
  }
  %lo5 = constant 0 : index
  %hi5 = constant 5 : index
  %hi3 = constant 3 : index
  foreach (%i, %j) = (%lo5, %lo5), (%hi5, %hi3) {
    %a = cast %i : i32
    %b = cast %j : i32
    %ten = constant 10 : i32
    %b10 = mul %b, %ten : i32
    %s = add %a, %b10 : i32
    atomic_store.device.release %s, %grid[%i,%j]
  }
  if %there {
    %nxyz0 = mul %nx, %ny : index
    %nxyz1 = mul %nxyz0, %nz : index
    %n64 = cast %n : i64
    %nxyz = cast %nxyz1 : i64
    atomic_store %n64, %info[%c0]
    atomic_store %nxyz, %info[%c1]
    %seen = atomic_load.device.acquire %info[%c0] : i64
    atomic_store %seen, %info[%c2]
  }
}
`;

const PROGRAM = IR;
/**
 * PoCL's kernel library has no float atomic min or max (OpAtomicFMaxEXT/FMinEXT, as tinytc spells
 * them, fail to link: _Z10atomic_maxPU3AS1Vff), so its SPIR-V run leaves those two lines out.
 */
const WITHOUT_FLOAT_MIN_MAX = IR.split('\n')
  .filter((l) => !/atomic_(max|min)\.device[.a-z_]* %(lf|neg)/.test(l))
  .join('\n');

const i32 = (n: number, f: (k: number) => number) => Int32Array.from({ length: n }, (_, k) => f(k));

/** Fresh arguments: three members in the group (x reads member x), zeroed counters, extrema seeded outside the range. */
function args() {
  return {
    g: { group: [0, 1, 2].map((k) => ({ data: i32(4, (e) => 10 * k + e), shape: [4] })) },
    count: { data: new Int32Array(12), shape: [2, 3, 2] },
    ext: { data: Float32Array.from([-1, 1]), shape: [2] },
    wide: { data: BigInt64Array.from([-5n, 0n]), shape: [2] },
    grid: { data: new Int32Array(15), shape: [5, 3] },
    info: { data: new BigInt64Array(4), shape: [4] },
  };
}

type Args = ReturnType<typeof args>;

/** The reference's results on the v0.3 rewrite, launched as the device is. */
function expected(program = PROGRAM): Args {
  const compiled = compileTinytc(new SourceFile('spmd.ir', program), { layout: SPIR64 });
  assert.ok(compiled.compiled, compiled.diagnostics.items.map((d) => d.message).join('; '));
  const f = compiled.compiled.program.funcs[0];
  const a = args();
  runReference(f, a, GROUPS, { wg: WG, subgroupSize: 1 });
  return a;
}

const plain = (a: Args) => ({
  count: [...a.count.data],
  ext: [...a.ext.data],
  wide: [...a.wide.data].map(String),
  grid: [...a.grid.data],
  info: [...a.info.data].map(String),
});

test('the reference: every work-item adds 1, extrema over all 12 groups, the 2-D foreach covers its 5 × 3 range', () => {
  const e = plain(expected());
  assert.deepEqual(e.count, Array(12).fill(WG[0] * WG[1]));
  assert.deepEqual(e.ext, [11, -11]);
  // max(-5, linear ids) and the sum of member x's element 2 over groups and work-items.
  const sum = [0, 1].reduce((s, x) => s + (10 * x + 2) * 6 * WG[0] * WG[1], 0);
  assert.deepEqual(e.wide, ['11', String(sum)]);
  assert.deepEqual(
    e.grid,
    Array.from({ length: 15 }, (_, k) => (k % 5) + 10 * Math.floor(k / 5)),
  );
  assert.deepEqual(e.info, ['3', '12', '3', '0']);
});

test('PoCL: OpenCL C and OpenCL SPIR-V give the reference results for a 2 × 3 × 2 launch', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    assert.notEqual(WITHOUT_FLOAT_MIN_MAX, PROGRAM);
    for (const [il, program] of [
      ['opencl-c', PROGRAM],
      ['spirv', WITHOUT_FLOAT_MIN_MAX],
    ] as const) {
      const k = tinytcKernel(ctx, program, 'spmd', { il });
      const a = args();
      k.launch({ args: a, howmany: GROUPS });
      assert.deepEqual(plain(a), plain(expected(program)), il);
    }
  } finally {
    ctx.dispose();
  }
});

test('lavapipe: Vulkan SPIR-V gives the reference results for a 2 × 3 × 2 launch', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const k = vulkanTinytcKernel(ctx, PROGRAM, 'spmd');
    const a = args();
    k.launch({ args: a, howmany: GROUPS });
    assert.deepEqual(plain(a), plain(expected()));
  } finally {
    ctx.dispose();
  }
});

test('howmany: v0.3 takes a count along the third axis, v0.4 up to three counts; anything else is refused', () => {
  const local = [4, 2, 1] as const;
  assert.deepEqual(groupLaunch('k', local, 3, 'batch'), { global: [4, 2, 3], count: 3 });
  assert.deepEqual(groupLaunch('k', local, 3, 'axes'), { global: [12, 2, 1], count: 3 });
  assert.deepEqual(groupLaunch('k', local, [2, 3, 2], 'axes'), { global: [8, 6, 2], count: 2 });
  assert.throws(() => groupLaunch('k', local, [2, 3], 'batch'), LaunchError);
  assert.throws(() => groupLaunch('k', local, [2, 0], 'axes'), /up to three/);
  assert.throws(() => groupLaunch('k', local, [1, 1, 1, 1], 'axes'), /up to three/);
});

// Subgroup built-ins and subgroup_broadcast. Each work-item writes its built-ins to the row its subgroup and lane
// name (subgroup_linear_id × subgroup_size + subgroup_local_id), so a device whose subgroups do not tile the
// work-group's first axis as tinytc's (and these expectations) say leaves rows unwritten or writes them twice.
const SUBGROUPS = `func @sg(%out: memref<i32x32x8>) attributes{work_group_size=[16,2]} {
  parallel {
    %s = subgroup_size : i32
    %lin = subgroup_linear_id : i32
    %lx = subgroup_id.x : i32
    %ly = subgroup_id.y : i32
    %loc = subgroup_local_id : i32
    %nx = num_subgroups.x : i32
    %ny = num_subgroups.y : i32
    %h = constant 100 : i32
    %t0 = mul %lin, %h : i32
    %tag = add %t0, %loc : i32
    %one = constant 1 : i32
    %bc = subgroup_broadcast %tag, %one : i32
    %t = mul %lin, %s : i32
    %k32 = add %t, %loc : i32
    %k = cast %k32 : index
    %c0 = constant 0 : index
    %c1 = constant 1 : index
    %c2 = constant 2 : index
    %c3 = constant 3 : index
    %c4 = constant 4 : index
    %c5 = constant 5 : index
    %c6 = constant 6 : index
    %c7 = constant 7 : index
    store %s, %out[%k,%c0]
    store %lin, %out[%k,%c1]
    store %lx, %out[%k,%c2]
    store %ly, %out[%k,%c3]
    store %loc, %out[%k,%c4]
    store %nx, %out[%k,%c5]
    store %ny, %out[%k,%c6]
    store %bc, %out[%k,%c7]
  }
}`;

/** tinytc's lit programs kernarg generates for this part (test/tinytc-lit/spv), beside this file's own. */
const LIT = ['builtin', 'size', 'associated', 'subgroup_broadcast', 'load'].map((n) => ({
  name: `${n}.ir`,
  ir: readFileSync(join(import.meta.dirname, 'tinytc-lit', 'spv', `${n}.ir`), 'utf8'),
}));

test('spirv-val accepts every OpenCL (opencl2.2) and Vulkan (vulkan1.3) module of these programs', (t) => {
  const val = requireTool(t, SPIRV_VAL, ['--version']);
  if (!val) return;
  for (const { name, ir } of [{ name: 'spmd.ir', ir: PROGRAM }, { name: 'sg.ir', ir: SUBGROUPS }, ...LIT]) {
    for (const target of ['opencl', 'vulkan'] as const) {
      const r = lower(name, ir, { readFile: () => undefined }, { target, format: 'spirv' });
      assert.ok(r.binary, `${name} ${target}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
      const complaint = spirvValComplaints(val, r.binary, target === 'opencl' ? 'opencl2.2' : 'vulkan1.3');
      // 64-bit atomics need Int64Atomics, which OpenCL 2.2's profile lists only with cl_khr_int64_base_atomics:
      // that is the one complaint allowed, and the module must then be valid SPIR-V 1.2.
      if (target === 'opencl' && /Capability Int64Atomics is not allowed by OpenCL 2\.2/.test(complaint)) {
        assert.equal(complaint.split('\n').filter((l) => l.startsWith('error')).length, 1, complaint);
        assert.equal(spirvValComplaints(val, r.binary, 'spv1.2'), '', `${name} (spv1.2)`);
      } else assert.equal(complaint, '', `${name} ${target}`);
    }
  }
});

/** What each of the 32 work-items writes with subgroups of size s tiling a 16 × 2 work-group (column-major rows). */
function subgroupTable(s: number): number[] {
  const across = 16 / s;
  const out: number[] = [];
  const columns = (k: number) => {
    const lin = Math.floor(k / s);
    return [s, lin, lin % across, Math.floor(lin / across), k % s, across, 2, lin * 100 + 1];
  };
  for (let c = 0; c < 8; c++) for (let k = 0; k < 32; k++) out.push(columns(k)[c]);
  return out;
}

test("lavapipe: subgroup built-ins and subgroup_broadcast agree with the device's subgroup size and tinytc's tiling", (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const k = vulkanTinytcKernel(ctx, SUBGROUPS, 'sg');
    const out = { data: new Int32Array(256).fill(-1), shape: [32, 8] };
    k.launch({ args: { out }, howmany: 1 });
    const s = out.data[0];
    // Lane 1 must exist for the broadcast, and the subgroups must tile the 16 work-items of a row.
    assert.ok(s > 1 && 16 % s === 0, `subgroup size ${s}`);
    assert.deepEqual([...out.data], subgroupTable(s));
  } finally {
    ctx.dispose();
  }
});

test('kernarg run --howmany x,y,z launches a v0.4 function along three axes; a v0.3 one takes one count', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  ctx.dispose();
  const files: Record<string, string> = {
    'n.ir': `func @n(%out: memref<i64x3>) attributes{work_group_size=[1,1]} {
  %x = num_groups.x : i64
  %y = num_groups.y : i64
  %z = num_groups.z : i64
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  store %x, %out[%c0]
  store %y, %out[%c1]
  store %z, %out[%c2]
}`,
    'v3.ir': 'func @v3(%a: memref<f32x1>) {\n  %g = group_id\n}\n',
    'n.json': JSON.stringify({ out: { memref: { type: 'i64', data: [0, 0, 0], shape: [3] } } }),
    'v3.json': JSON.stringify({ a: { memref: { type: 'f32', data: [0], shape: [1] } } }),
  };
  const run = (argv: string[]) => runCliOnFiles([...argv, '--device', process.env.KERNARG_DEVICE ?? ''], files);
  const r = run(['run', 'n.ir', '--kernel', 'n', '--args', 'n.json', '--howmany', '2,3,4']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).args.out.map(Number), [2, 3, 4]);
  const v3 = run(['run', 'v3.ir', '--kernel', 'v3', '--args', 'v3.json', '--howmany', '2,3']);
  assert.equal(v3.code, 1);
  assert.match(v3.stderr, /howmany must be a positive integer/);
  assert.equal(run(['run', 'n.ir', '--kernel', 'n', '--args', 'n.json', '--howmany', '2,0']).code, 2);
});

test('clang-16 compiles the OpenCL C of the subgroup program for a device with cl_khr_subgroups (PoCL has none)', (t) => {
  const clang = requireTool(t, ['clang-16'], ['--version']);
  if (!clang) return;
  const r = lower('sg.ir', SUBGROUPS, { readFile: () => undefined }, { target: 'opencl', format: 'opencl-c' });
  assert.ok(r.output, r.diagnostics.map((d) => d.message).join('; '));
  const source: string = r.output;
  assert.match(source, /get_sub_group_local_id\(\)/);
  assert.match(source, /sub_group_broadcast\(/);
  for (const std of ['CL1.2', 'CL2.0', 'CL3.0']) {
    const c: { status: number | null; stderr: string } = spawnSync(
      clang,
      [
        ...['-x', 'cl', `-cl-std=${std}`, '-Xclang', '-finclude-default-header', '-target', 'spir64'],
        ...['-cl-ext=+cl_khr_subgroups', '-c', '-emit-llvm', '-o', '/dev/null', '-'],
      ],
      { input: source, encoding: 'utf8' },
    );
    assert.equal(c.status, 0, `${std}: ${c.stderr}`);
  }
});

test('atomics on i8 and i16 are refused with KA2420 (tinytc refuses them too); their interface still lowers', () => {
  for (const t of ['i8', 'i16']) {
    const ir = `func @a(%m: memref<${t}x4>) {\n  parallel {\n    %c0 = constant 0 : index\n    %one = constant 1 : ${t}\n    %o = atomic_add %one, %m[%c0] : ${t}\n  }\n}\n`;
    const host = { readFile: () => undefined };
    const r = lower('a.ir', ir, host, { target: 'opencl', format: 'opencl-c' });
    assert.equal(r.output, undefined);
    const d = r.diagnostics.find((x) => x.code === 'KA2420');
    assert.ok(d, r.diagnostics.map((x) => `${x.code} ${x.message}`).join('; '));
    assert.match(d.message, new RegExp(`'atomic_add of ${t}'`));
    assert.ok(lower('a.ir', ir, host, { target: 'opencl', format: 'signatures' }).output);
  }
});
