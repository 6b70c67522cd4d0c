// A kernel disposed is refused by name at its next launch, on both runtimes' tinytc kernels and OpenCL's own (a
// released cl_kernel handed to clSetKernelArg is undefined behaviour in the driver); dispose twice is harmless.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuntimeInputError } from '../src/pack/errors.js';
import { kernel } from '../src/runtime/opencl/compile-kernel.js';
import { tinytcKernel } from '../src/runtime/tinytc.js';
import { vulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';

const STORE = `func @store(%x: i32, %out: memref<i32x1>) {
  %c0 = constant 0 : index
  store %x, %out[%c0]
}`;

/** The refusal: a RuntimeInputError naming the kernel. */
const disposed = (name: string) => (e: unknown) =>
  e instanceof RuntimeInputError && /has been disposed/.test(e.message) && e.message.includes(name);

/** A tinytc kernel of either runtime: launched, disposed twice, and its next launch refused with `out` untouched. */
function launchDisposeRelaunch(k: { launch(o: { args: Record<string, unknown> }): unknown; dispose(): void }): void {
  const out = { data: new Int32Array(1), shape: [1] };
  k.launch({ args: { x: 7, out } });
  assert.equal(out.data[0], 7);
  k.dispose();
  k.dispose();
  assert.throws(() => k.launch({ args: { x: 8, out } }), disposed('store'));
  assert.equal(out.data[0], 7);
}

test('PoCL: a tinytc kernel launches, is disposed (twice), and its next launch is refused by name', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    launchDisposeRelaunch(tinytcKernel(ctx, STORE, 'store'));
  } finally {
    ctx.dispose();
  }
});

test('PoCL: an OpenCL C kernel disposed (twice) is refused at its next launch, as RuntimeInputError naming it', async (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const k = await kernel('kernel void twice(global int *p) { p[0] *= 2; }', 'twice', { context: ctx });
    const buf = ctx.buffer(new Int32Array([21]));
    k.launch({ args: { p: buf }, global: [1] });
    assert.equal(buf.read(new Int32Array(1))[0], 42);
    k.dispose();
    k.dispose();
    assert.throws(() => k.launch({ args: { p: buf }, global: [1] }), disposed('twice'));
    assert.equal(buf.read(new Int32Array(1))[0], 42);
    buf.dispose();
  } finally {
    ctx.dispose();
  }
});

test('lavapipe: a tinytc kernel launches, is disposed (twice), and its next launch is refused by name', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    launchDisposeRelaunch(vulkanTinytcKernel(ctx, STORE, 'store'));
  } finally {
    ctx.dispose();
  }
});
