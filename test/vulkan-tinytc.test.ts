// tinytc on Vulkan beyond the shared execution suite: the PODs of a tinytc function (scalars,
// dynamic shapes and strides) in each placement the plan allows, checked against the JS reference;
// a group on a device without buffer device addresses refused by name with nothing left allocated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR } from '../src/layout/data-layout.js';
import { tinytcKernel } from '../src/runtime/api.js';
import { assertSameArrays, cloneArgs, smallInts } from './support/tinytc-exec.js';
import { runReference } from './support/tinytc-reference.js';
import type { VulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { testVulkan } from './support/vulkan-device.js';

const GEMM = `func @g(%alpha: f32, %A: memref<f32x?x?,strided<1,?>>, %B: memref<f32x?x?>, %beta: f32, %C: memref<f32x?x?>, %k: i64) {
  gemm.n.n %alpha, %A, %B, %beta, %C : f32, memref<f32x?x?,strided<1,?>>, memref<f32x?x?>, f32, memref<f32x?x?>
}`;

test('tinytc PODs in a storage buffer, a uniform buffer and push constants (buffer addresses among them too), against the reference', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const f = compileTinytc(new SourceFile('g.ir', GEMM), { layout: SPIR }).program!.funcs[0];
    for (const [vulkan, placement] of [
      [{}, 'ssbo'],
      [{ podUbo: true }, 'ubo'],
      [{ podPushConstant: true }, 'pushconstant'],
      [{ podArgs: 'auto' as const }, 'pushconstant'],
      // Today's clspv -physical-storage-buffers: the memrefs' buffer addresses travel among the PODs.
      [{ physicalStorageBuffers: true, arch: 'spir64' as const }, 'pushconstant'],
      [{ physicalStorageBuffers: true, arch: 'spir64' as const, podUbo: true }, 'ubo'],
    ] as const) {
      const k: VulkanTinytcKernel = tinytcKernel(ctx, GEMM, 'g', { vulkan });
      assert.equal(k.plan.kernels[0].podPlacement, placement);
      if ('physicalStorageBuffers' in vulkan)
        assert.ok(k.plan.kernels[0].args.some((a) => a.argKind.startsWith('pointer_')));
      const args = {
        alpha: 1.5,
        A: { data: smallInts(Float32Array, 9 * 7, 1), shape: [5, 7], stride: [1, 9] },
        B: { data: smallInts(Float32Array, 7 * 6, 2), shape: [7, 6] },
        beta: -2,
        C: { data: smallInts(Float32Array, 30, 3), shape: [5, 6] },
        k: 3n,
      };
      const ref = cloneArgs(args);
      k.launch({ args });
      runReference(f, ref, 1);
      assertSameArrays(args, ref, 1e-6, `@g with PODs in ${placement}`);
      k.dispose();
    }
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
  } finally {
    ctx.dispose();
  }
});

test('a group argument on a device without buffer device addresses: refused naming kernel and argument, nothing allocated', (t) => {
  const ctx = testVulkan(t, { withoutFeatures: ['bufferDeviceAddress'] });
  if (!ctx) return;
  try {
    const ir = 'func @grp(%g: group<memref<f32x4>>, %out: memref<f32x4>) {}';
    assert.throws(
      () => tinytcKernel(ctx, ir, 'grp'),
      /^PackError: kernel 'grp', argument 'g': a group's pointer table holds buffer device addresses, and .* lacks the Vulkan feature bufferDeviceAddress$/,
    );
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
    // The same device runs functions without groups.
    const k = tinytcKernel(ctx, 'func @f(%out: memref<f32x4>) {\n  store 2.5, %out[1] : memref<f32x4>\n}', 'f');
    const out = new Float32Array(4);
    k.launch({ args: { out: { data: out, shape: [4] } } });
    assert.deepEqual([...out], [0, 2.5, 0, 0]);
    k.dispose();
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
  } finally {
    ctx.dispose();
  }
});

test("groups with -physical-storage-buffers: the table's own address among the PODs, members by address, against the reference", (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const ir = `func @grp(%g: group<memref<f32x?x3>, offset: ?>, %out: memref<f32x8x?>) {
  %id = group_id
  %a = load %g[%id] : group<memref<f32x?x3>>
  %n = size %a[0] : memref<f32x?x3>
  %o = subview %out[0:%n, %id] : memref<f32x8x?>
  sum.n 1.0, %a, 0.0, %o : f32, memref<f32x?x3,strided<1,?>>, f32, memref<f32x?>
}`;
    const f = compileTinytc(new SourceFile('grp.ir', ir), { layout: SPIR }).program!.funcs[0];
    const sizes = [2, 5, 1];
    for (const vulkan of [
      { physicalStorageBuffers: true, arch: 'spir64' as const },
      { physicalStorageBuffers: true, arch: 'spir64' as const, podUbo: true },
    ]) {
      const k: VulkanTinytcKernel = tinytcKernel(ctx, ir, 'grp', { vulkan });
      const args = {
        g: {
          group: sizes.map((n, i) => ({
            data: smallInts(Float32Array, 2 + (n + 1) * 3, i + 1),
            shape: [n, 3],
            stride: [1, n + 1],
          })),
          offset: 2,
        },
        out: { data: new Float32Array(8 * sizes.length), shape: [8, sizes.length] },
      };
      const ref = cloneArgs(args);
      k.launch({ args, howmany: sizes.length });
      runReference(f, ref, sizes.length);
      assertSameArrays(args, ref, 1e-6, `@grp ${JSON.stringify(vulkan)}`);
      k.dispose();
    }
    assert.equal(ctx.liveObjects(), ctx.stagingBuffers());
  } finally {
    ctx.dispose();
  }
});

test('memref data of the wrong element width, or too short, is refused on Vulkan as on OpenCL (the shared memref checks)', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const k = tinytcKernel(ctx, 'func @f(%out: memref<f32x4>) {\n  store 2.5, %out[1] : memref<f32x4>\n}', 'f');
    assert.throws(
      () => k.launch({ args: { out: { data: new Float64Array(4), shape: [4] } } }),
      /kernel 'f', argument 'out\.data': a Float64Array for a memref of f32: elements of 8 bytes, not 4/,
    );
    assert.throws(
      () => k.launch({ args: { out: { data: new Float32Array(3), shape: [4] } } }),
      /kernel 'f', argument 'out': data holds 12 bytes, the shape and stride need 16/,
    );
    assert.throws(
      () => k.launch({ args: { out: { data: new Float32Array(4), shape: [4], stride: 1 } } }),
      /argument 'out\.stride': expected a list of strides/,
    );
    k.dispose();
  } finally {
    ctx.dispose();
  }
});
