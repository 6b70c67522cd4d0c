// tinytc v0.4's atomics on complex numbers, one part at a time (tinytc's split_re_im) in every printer: OpenCL
// SPIR-V (OpAtomicF*EXT per part), Vulkan SPIR-V (each part through its integer bits: Vulkan declares no atomic on
// a vector) and OpenCL C (a compare-and-swap loop per part). Run on PoCL (OpenCL C and SPIR-V) and lavapipe against
// the JS reference over generated values; every module valid for spirv-val.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { lower } from '../src/lower.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { vulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { runReference } from './support/tinytc-reference.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';
import { SPIRV_VAL, spirvValComplaints } from './support/spirv-check.js';
import { requireTool } from './support/tools.js';

/** Every one of the 4 work-items of each of 2 work-groups runs the body: adds, per-part extrema, a load and a store. */
const PROGRAM = `func @cx(%a: memref<c64x5>, %b: memref<c32x?>, %v: c32, %w: c64, %out: memref<c64x2>)
    attributes{work_group_size=[4,1]} {
  parallel {
    %c0 = constant 0 : index
    %c1 = constant 1 : index
    %c2 = constant 2 : index
    %c3 = constant 3 : index
    %c4 = constant 4 : index
    %o0 = atomic_add.device %w, %a[%c0] : c64
    %o1 = atomic_max.device.acquire_release %w, %a[%c1] : c64
    %o2 = atomic_min.device %w, %a[%c2] : c64
    %o3 = atomic_add %v, %b[%c0] : c32
    %o4 = atomic_max.device %v, %b[%c1] : c32
    %o5 = atomic_min.device %v, %b[%c2] : c32
    %seen = atomic_load.device.acquire %a[%c3] : c64
    atomic_store.device.release %seen, %out[%c0]
    %part = atomic_load %b[%c3] : c32
    %wide = cast %part : c64
    atomic_store %wide, %a[%c4]
  }
}
`;
const GROUPS = 2;
const ITEMS = 4 * GROUPS;

/**
 * PoCL's kernel library has no float atomic min or max: its SPIR-V run leaves those lines out (as
 * test/tinytc-v04-spmd.test.ts does for real floats).
 */
const WITHOUT_MIN_MAX = PROGRAM.split('\n')
  .filter((l) => !/atomic_(max|min)/.test(l))
  .join('\n');

/** Halves in a small range: every sum of them is exact in f32, whatever order the work-items add in. */
const half = fc.integer({ min: -64, max: 64 }).map((n) => n / 2);
const complex = fc.tuple(half, half);
const inputs = fc.record({
  a: fc.array(half, { minLength: 10, maxLength: 10 }),
  b: fc.array(half, { minLength: 8, maxLength: 8 }),
  v: complex,
  w: complex,
});
interface Inputs {
  readonly a: number[];
  readonly b: number[];
  readonly v: [number, number];
  readonly w: [number, number];
}

function args(i: Inputs) {
  return {
    a: { data: Float64Array.from(i.a), shape: [5] },
    b: { data: Float32Array.from(i.b), shape: [4] },
    v: [...i.v],
    w: [...i.w],
    out: { data: new Float64Array(4), shape: [2] },
  };
}
const plain = (x: ReturnType<typeof args>) => ({ a: [...x.a.data], b: [...x.b.data], out: [...x.out.data] });

function expected(i: Inputs, program = PROGRAM) {
  const compiled = compileTinytc(new SourceFile('cx.ir', program), { layout: SPIR64 });
  assert.ok(compiled.compiled, compiled.diagnostics.items.map((d) => d.message).join('; '));
  const x = args(i);
  runReference(compiled.compiled.program.funcs[0], x, [GROUPS, 1, 1], { wg: [4, 1], subgroupSize: 1 });
  return plain(x);
}

const RUNS = { numRuns: Number(process.env.KERNARG_FC_RUNS ?? 6), seed: Number(process.env.KERNARG_FC_SEED ?? 31) };

test('the reference: complex atomics act per part (sums, each part its own maximum and minimum)', () => {
  const i: Inputs = {
    a: [1, 2, 5, -5, -1, 1, 7, 8, 9, 10],
    b: [1, 1, 3, -3, 0, 0, 2.5, -0.5],
    v: [2, -2],
    w: [1, 0.5],
  };
  const e = expected(i);
  // a[0] += w by each of the 8 work-items; a[1], a[2]: each part its own max, min with w; a[4] = b[3] widened.
  assert.deepEqual(e.a, [1 + ITEMS, 2 + ITEMS * 0.5, 5, 0.5, -1, 0.5, 7, 8, 2.5, -0.5]);
  assert.deepEqual(e.b, [1 + ITEMS * 2, 1 - ITEMS * 2, 3, -2, 0, -2, 2.5, -0.5]);
  assert.deepEqual(e.out, [7, 8, 0, 0]);
});

test('PoCL: OpenCL C and OpenCL SPIR-V give the reference results for generated values', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const kernels = [
      { il: 'opencl-c', program: PROGRAM },
      { il: 'spirv', program: WITHOUT_MIN_MAX },
    ] as const;
    const compiled = kernels.map((k) => ({ ...k, kernel: tinytcKernel(ctx, k.program, 'cx', { il: k.il }) }));
    fc.assert(
      fc.property(inputs, (i) => {
        for (const { il, program, kernel } of compiled) {
          const x = args(i);
          kernel.launch({ args: x, howmany: [GROUPS, 1, 1] });
          assert.deepEqual(plain(x), expected(i, program), il);
        }
      }),
      RUNS,
    );
  } finally {
    ctx.dispose();
  }
});

test('lavapipe: Vulkan SPIR-V gives the reference results for generated values', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const kernel = vulkanTinytcKernel(ctx, PROGRAM, 'cx');
    fc.assert(
      fc.property(inputs, (i) => {
        const x = args(i);
        kernel.launch({ args: x, howmany: [GROUPS, 1, 1] });
        assert.deepEqual(plain(x), expected(i));
      }),
      RUNS,
    );
  } finally {
    ctx.dispose();
  }
});

test('spirv-val: the Vulkan module (vulkan1.3) and the OpenCL one (spv1.2) are valid; Vulkan has no vector atomic', (t) => {
  const val = requireTool(t, SPIRV_VAL, ['--version']);
  if (!val) return;
  const vk = lower('cx.ir', PROGRAM, { readFile: () => undefined }, { target: 'vulkan', format: 'spirv' });
  assert.ok(vk.binary, vk.diagnostics.map((d) => d.message).join('; '));
  assert.equal(spirvValComplaints(val, vk.binary, 'vulkan1.3'), '');
  const asm = lower('cx.ir', PROGRAM, { readFile: () => undefined }, { target: 'vulkan', format: 'spirv-asm' }).output!;
  // Every atomic names a 32- or 64-bit integer: the parts' bits, never a 2-vector, never a float.
  const atomics = asm.split('\n').filter((l) => /OpAtomic/.test(l));
  assert.ok(atomics.length >= 20, asm);
  for (const l of atomics) assert.doesNotMatch(l, /%v2|%float|%double|FAddEXT|FMaxEXT|FMinEXT/, l);
  assert.doesNotMatch(asm, /AtomicFloat|SPV_EXT_shader_atomic_float/);
  // OpenCL 2.2's profile lists Int64Atomics only with cl_khr_int64_base_atomics: the module is valid SPIR-V 1.2.
  const cl = lower('cx.ir', PROGRAM, { readFile: () => undefined }, { target: 'opencl', format: 'spirv' });
  assert.ok(cl.binary, cl.diagnostics.map((d) => d.message).join('; '));
  assert.equal(spirvValComplaints(val, cl.binary, 'spv1.2'), '');
});

/** A complex atomic on local memory (Vulkan: a Workgroup array of integer pairs), summed by the 4 work-items. */
const LOCAL = `func @loc(%out: memref<c32x2>, %v: c32) attributes{work_group_size=[4,1]} {
  %t = alloca : memref<c32x2,local>
  %c0 = constant 0 : index
  %z = constant [0.0, 0.0] : c32
  store %z, %t[%c0]
  barrier.local
  parallel {
    %o = atomic_add.work_group %v, %t[%c0] : c32
    barrier.local
    %r = atomic_load %t[%c0] : c32
    atomic_store %r, %out[%c0]
  }
}
`;

test('local memory: PoCL (OpenCL C, SPIR-V) and lavapipe sum a complex atomic as the reference does', (t) => {
  const localArgs = () => ({ out: { data: new Float32Array(4).fill(-1), shape: [2] }, v: [1.5, -0.25] });
  const compiled = compileTinytc(new SourceFile('loc.ir', LOCAL), { layout: SPIR64 });
  assert.ok(compiled.compiled);
  const e = localArgs();
  runReference(compiled.compiled.program.funcs[0], e, [1, 1, 1], { wg: [4, 1], subgroupSize: 1 });
  assert.deepEqual([...e.out.data], [6, -1, -1, -1]);
  const ctx = testDevice(t);
  if (ctx)
    try {
      for (const il of ['opencl-c', 'spirv'] as const) {
        const a = localArgs();
        tinytcKernel(ctx, LOCAL, 'loc', { il }).launch({ args: a, howmany: [1, 1, 1] });
        assert.deepEqual([...a.out.data], [...e.out.data], il);
      }
    } finally {
      ctx.dispose();
    }
  const vk = testVulkan(t);
  if (!vk) return;
  try {
    const a = localArgs();
    vulkanTinytcKernel(vk, LOCAL, 'loc').launch({ args: a, howmany: [1, 1, 1] });
    assert.deepEqual([...a.out.data], [...e.out.data]);
  } finally {
    vk.dispose();
  }
});
