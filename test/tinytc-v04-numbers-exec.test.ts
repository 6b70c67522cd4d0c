// tinytc v0.4's number types run: f16, bf16, c32 and c64 values, memrefs and constants through cast,
// compare, arith, arith-unary and math-unary, compiled by kernarg (OpenCL C, and the OpenCL SPIR-V
// tinytc itself would emit) and run on the OpenCL test device (PoCL in CI), against the JS reference
// (test/support/tinytc-reference-numbers.ts). f16 and bf16 travel as their bits (Uint16Array),
// complex numbers interleaved (real, imaginary).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { halfBits } from '../src/layout/half.js';
import { bf16Bits } from '../src/layout/bfloat16.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';
import { runCliWith } from '../src/cli/main.js';
import { vulkanTinytcKernel } from '../src/runtime/vulkan/tinytc.js';
import { randomFloats, runOnBoth } from './support/tinytc-exec.js';

const halves = (n: number, seed: number) =>
  Uint16Array.from(randomFloats(Float64Array, n, seed), (x) => halfBits(4 * x));
const bf16s = (n: number, seed: number) =>
  Uint16Array.from(randomFloats(Float64Array, n, seed), (x) => bf16Bits(4 * x));

/**
 * f16 arithmetic and rem (correctly rounded whether a device computes in half or in float: compared bit for bit
 * in `out`), math functions (the device's precision: as f32 in `approx`), comparisons as 0/1 in `flags`.
 */
const F16 = `func @f16(%a: memref<f16x8>, %b: memref<f16x8>, %s: f16, %out: memref<f16x8x9>, %approx: memref<f32x8x3>,
  %flags: memref<i32x8x2>) {
  %c0 = constant 0 : index
  %c8 = constant 8 : index
  %c1 = constant 1 : index
  for %i = %c0, %c8 {
    %x = load %a[%i] : f16
    %y = load %b[%i] : f16
    %half = constant 0.5 : f16
    %r0 = add %x, %y : f16
    %r1 = sub %x, %s : f16
    %r2 = mul %x, %y : f16
    %r3 = div %x, %y : f16
    %r4 = neg %x : f16
    %r5 = abs %y : f16
    %r6 = mul %x, %half : f16
    %r7 = min %x, %y : f16
    %r8 = rem %x, %y : f16
    %m1 = exp %r6 : f16
    %m2 = native_cos %x : f16
    %ax = abs %x : f16
    %one = constant 1.0 : f16
    %lx = add %ax, %one : f16
    %m3 = log2 %lx : f16
    %j0 = constant 0 : index
    store %r0, %out[%i, %j0]
    %j1 = constant 1 : index
    store %r1, %out[%i, %j1]
    %j2 = constant 2 : index
    store %r2, %out[%i, %j2]
    %j3 = constant 3 : index
    store %r3, %out[%i, %j3]
    %j4 = constant 4 : index
    store %r4, %out[%i, %j4]
    %j5 = constant 5 : index
    store %r5, %out[%i, %j5]
    %j6 = constant 6 : index
    store %r6, %out[%i, %j6]
    %j7 = constant 7 : index
    store %r7, %out[%i, %j7]
    %j8 = constant 8 : index
    store %r8, %out[%i, %j8]
    %w1 = cast %m1 : f32
    store %w1, %approx[%i, %j0]
    %w2 = cast %m2 : f32
    store %w2, %approx[%i, %j1]
    %w3 = cast %m3 : f32
    store %w3, %approx[%i, %j2]
    %yes = constant 1 : i32
    %lt = less_than %x, %y : bool
    if %lt {
      store %yes, %flags[%i, %c0]
    }
    %ne = not_equal %x, %y : bool
    if %ne {
      store %yes, %flags[%i, %c1]
    }
  }
}
`;

test('f16: arithmetic, math, comparisons on the Vulkan device equal the reference', (t) => {
  const ctx = testVulkan(t, {
    features: ['shaderFloat16', 'storageBuffer16BitAccess', 'shaderInt16', 'shaderInt64'],
  });
  if (!ctx) return;
  try {
    runOnBoth(ctx, {
      ir: F16,
      fn: 'f16',
      tol: 2e-3,
      args: () => ({
        a: { data: halves(8, 3), shape: [8] },
        b: { data: halves(8, 5), shape: [8] },
        s: 0.375,
        out: { data: new Uint16Array(72), shape: [8, 9] },
        approx: { data: new Float32Array(24), shape: [8, 3] },
        flags: { data: new Int32Array(16), shape: [8, 2] },
      }),
    });
  } finally {
    ctx.dispose();
  }
});

/** Complex arithmetic, constants, casts, conj/im/re/abs, exp and comparisons, in c32 and c64. */
const complexProgram = (
  c: 'c32' | 'c64',
  f: 'f32' | 'f64',
) => `func @cplx(%a: memref<${c}x8>, %b: memref<${c}x8>, %s: ${c}, %out: memref<${c}x8x8>,
  %re: memref<${f}x8x3>, %flags: memref<i32x8x2>) {
  %c0 = constant 0 : index
  %c8 = constant 8 : index
  %c1 = constant 1 : index
  %k = constant [0.5, -1.25] : ${c}
  for %i = %c0, %c8 {
    %x = load %a[%i] : ${c}
    %y = load %b[%i] : ${c}
    %r0 = add %x, %y : ${c}
    %r1 = sub %x, %s : ${c}
    %r2 = mul %x, %y : ${c}
    %r3 = div %x, %y : ${c}
    %r4 = neg %x : ${c}
    %r5 = conj %y : ${c}
    %r6 = mul %x, %k : ${c}
    %ix = im %x : ${f}
    %r7 = cast %ix : ${c}
    %j0 = constant 0 : index
    store %r0, %out[%i, %j0]
    %j1 = constant 1 : index
    store %r1, %out[%i, %j1]
    %j2 = constant 2 : index
    store %r2, %out[%i, %j2]
    %j3 = constant 3 : index
    store %r3, %out[%i, %j3]
    %j4 = constant 4 : index
    store %r4, %out[%i, %j4]
    %j5 = constant 5 : index
    store %r5, %out[%i, %j5]
    %j6 = constant 6 : index
    store %r6, %out[%i, %j6]
    %j7 = constant 7 : index
    %e = exp %x : ${c}
    store %e, %out[%i, %j7]
    %ab = abs %y : ${f}
    store %ab, %re[%i, %j0]
    %rx = re %x : ${f}
    store %rx, %re[%i, %j1]
    store %ix, %re[%i, %j2]
    %yes = constant 1 : i32
    %eq = equal %x, %x : bool
    if %eq {
      store %yes, %flags[%i, %c0]
    }
    %ne = not_equal %x, %r7 : bool
    if %ne {
      store %yes, %flags[%i, %c1]
    }
  }
}
`;

test('c32 and c64: arithmetic, conj/im/re/abs, exp, casts, comparisons on the OpenCL device equal the reference', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    // One build each (PoCL takes seconds a build): c32 through OpenCL C, c64 through kernarg's OpenCL SPIR-V.
    for (const [c, f, Arr, il] of [
      ['c32', 'f32', Float32Array, undefined],
      ['c64', 'f64', Float64Array, 'spirv'],
    ] as const)
      runOnBoth(ctx, {
        ir: complexProgram(c, f),
        fn: 'cplx',
        tol: 1e-5,
        ...(il ? { il } : {}),
        args: () => ({
          a: { data: Arr.from(randomFloats(Float64Array, 16, 3)), shape: [8] },
          b: { data: Arr.from(randomFloats(Float64Array, 16, 7)), shape: [8] },
          s: [0.25, -0.5],
          out: { data: new Arr(128), shape: [8, 8] },
          re: { data: new Arr(24), shape: [8, 3] },
          flags: { data: new Int32Array(16), shape: [8, 2] },
        }),
      });
  } finally {
    ctx.dispose();
  }
});

/** bf16 arithmetic in f32, rounded to nearest even after each operation; conversions to and from f32 and i32. */
const BF16 = `func @bf(%a: memref<bf16x8>, %b: memref<bf16x8>, %out: memref<bf16x8x6>, %wide: memref<f32x8x2>) {
  %c0 = constant 0 : index
  %c8 = constant 8 : index
  %k = constant 1.5 : bf16
  for %i = %c0, %c8 {
    %x = load %a[%i] : bf16
    %y = load %b[%i] : bf16
    %r0 = add %x, %y : bf16
    %r1 = mul %x, %k : bf16
    %r2 = div %x, %y : bf16
    %r3 = neg %y : bf16
    %r4 = abs %x : bf16
    %n = cast %x : i32
    %r5 = cast %n : bf16
    %j0 = constant 0 : index
    store %r0, %out[%i, %j0]
    %j1 = constant 1 : index
    store %r1, %out[%i, %j1]
    %j2 = constant 2 : index
    store %r2, %out[%i, %j2]
    %j3 = constant 3 : index
    store %r3, %out[%i, %j3]
    %j4 = constant 4 : index
    store %r4, %out[%i, %j4]
    %j5 = constant 5 : index
    store %r5, %out[%i, %j5]
    %w0 = cast %x : f32
    store %w0, %wide[%i, %j0]
    %e = exp %x : bf16
    %w1 = cast %e : f32
    store %w1, %wide[%i, %j1]
  }
}
`;

const bf16Args = () => ({
  a: { data: bf16s(8, 11), shape: [8] },
  b: { data: bf16s(8, 13), shape: [8] },
  out: { data: new Uint16Array(48), shape: [8, 6] },
  wide: { data: new Float32Array(16), shape: [8, 2] },
});

test('bf16: arithmetic and conversions bit for bit on the OpenCL device (OpenCL C) and the Vulkan device', (t) => {
  const cl = testDevice(t);
  if (!cl) return;
  try {
    runOnBoth(cl, { ir: BF16, fn: 'bf', tol: 1e-2, args: bf16Args });
  } finally {
    cl.dispose();
  }
  const vk = testVulkan(t, { features: ['storageBuffer16BitAccess', 'shaderInt16', 'shaderInt64'] });
  if (!vk) return;
  try {
    runOnBoth(vk, { ir: BF16, fn: 'bf', tol: 1e-2, args: bf16Args });
  } finally {
    vk.dispose();
  }
});

/** `kernarg lower` of a v0.4 program: its exit code and stderr. */
function lowerIr(ir: string, args: readonly string[]): { code: number; err: string; out: string } {
  let out = '';
  let err = '';
  const code = runCliWith(['lower', 'n.ir', ...args], {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    readFile: (p) => (p === 'n.ir' ? ir : undefined),
    color: false,
  });
  return { code, err, out };
}

test('what the number types cannot be generated as says so: KA2430 (Vulkan f64/c64 math), KA2420 (complex cos, BLAS)', () => {
  const wide =
    'func @w(%m: memref<f64x4>) {\n  %i = constant 1 : index\n  %x = load %m[%i] : f64\n  %y = exp %x : f64\n  store %y, %m[%i]\n}\n';
  const vk = lowerIr(wide, ['--target', 'vulkan', '--format', 'spirv-asm']);
  assert.equal(vk.code, 1);
  assert.match(vk.err, /n\.ir:4:3: error: 'exp' of f64 has no Vulkan SPIR-V instruction .*\[KA2430\]/);
  const cl = lowerIr(wide, ['--target', 'opencl', '--format', 'spirv-asm']);
  assert.equal(cl.code, 0, cl.err);
  assert.match(cl.out, /OpExtInst %\d+ %\d+ exp %\d+/);
  const cos = lowerIr('func @c(%a: c32) {\n  %b = cos %a : c32\n}\n', ['--target', 'opencl', '--format', 'opencl-c']);
  assert.match(cos.err, /n\.ir:2:3: error: 'cos of a complex number' is not lowered .*\[KA2420\]/);
  const blas = lowerIr(
    'func @s(%a: memref<f16x8>, %b: memref<f16x8>) {\n  %one = constant 1.0 : f16\n  axpby.n %one, %a, %one, %b\n}\n',
    ['--target', 'opencl', '--format', 'opencl-c'],
  );
  assert.match(blas.err, /'axpby on f16' is not lowered .*\[KA2420\]/);
});

test('the Vulkan runtime refuses f64 math as lower does (KA2430 with its position), not inside the printer', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const wide =
      'func @w(%m: memref<f64x4>) {\n  %i = constant 1 : index\n  %x = load %m[%i] : f64\n  %y = exp %x : f64\n  store %y, %m[%i]\n}\n';
    assert.throws(
      () => vulkanTinytcKernel(ctx, wide, 'w', { path: 'n.ir' }),
      /n\.ir:4:3: error: 'exp' of f64 has no Vulkan SPIR-V instruction .*\[KA2430\]/,
    );
  } finally {
    ctx.dispose();
  }
});
