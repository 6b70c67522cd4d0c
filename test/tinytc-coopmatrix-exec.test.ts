// tinytc v0.4's cooperative matrices run: constant, construct, insert, extract, arithmetic (add, mul, max,
// neg), scale, casts into packed matrix_a types (i8 four to an i32, 16-bit types two, three components so one
// channel is padding), complex components, a matrix carried through `for … init(…)` and chosen by an `if`, compiled
// by kernarg (OpenCL C and OpenCL SPIR-V on the OpenCL test device, PoCL in CI; Vulkan SPIR-V on lavapipe)
// against the JS reference. None of these instructions reads another work-item, so no subgroup is needed.
import { test } from 'node:test';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';
import { runOnBoth, smallInts } from './support/tinytc-exec.js';

const F32 = 'coopmatrix<f32x16x3,matrix_acc>';
/**
 * The program; `h` is the 16-bit type of the packed matrix_a: PoCL has no cl_khr_fp16 (bf16 in its OpenCL C) and
 * no SPV_INTEL_bfloat16_conversion (i16 in its SPIR-V); f16 on Vulkan.
 */
const coop = (
  h: 'f16' | 'bf16' | 'i16',
) => `func @coop(%x: memref<f32x16>, %out: memref<f32x16x6>, %iout: memref<i32x16x6>, %cout: memref<c32x16x2>,
  %n: index) attributes{subgroup_size=16} {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %c2 = constant 2 : index
  %c3 = constant 3 : index
  %c4 = constant 4 : index
  %c5 = constant 5 : index
  %c16 = constant 16 : index
  %k = constant 1.5 : ${F32}
  %z = constant [1.0, -2.0] : coopmatrix<c32x16x2,matrix_acc>
  foreach (%i) = (%c0), (%c16) {
    %v = load %x[%i] : f32
    %a = cooperative_matrix_construct %v : ${F32}
    %two = constant 2.0 : f32
    %b = cooperative_matrix_insert %two, %a[1] : ${F32}
    %s = mul %b, %k : ${F32}
    %m = max %s, %a : ${F32}
    %sc = cooperative_matrix_scale %v, %m : ${F32}
    %ng = neg %sc : ${F32}
    %acc = for %j = %c0, %n init(%t = %ng) -> (${F32}) {
      %t2 = add %t, %b : ${F32}
      yield (%t2)
    }
    %zero = constant 0.0 : f32
    %pos = greater_than %v, %zero : bool
    %sel = if %pos -> (${F32}) {
      yield (%acc)
    } else {
      yield (%s)
    }
    %e0 = cooperative_matrix_extract %sel[0] : f32
    %e1 = cooperative_matrix_extract %sel[1] : f32
    %e2 = cooperative_matrix_extract %sel[2] : f32
    store %e0, %out[%i, %c0]
    store %e1, %out[%i, %c1]
    store %e2, %out[%i, %c2]
    %ci = cast %sel : coopmatrix<i32x16x3,matrix_acc>
    %i0 = cooperative_matrix_extract %ci[0] : i32
    %i1 = cooperative_matrix_extract %ci[1] : i32
    %i2 = cooperative_matrix_extract %ci[2] : i32
    store %i0, %iout[%i, %c0]
    store %i1, %iout[%i, %c1]
    store %i2, %iout[%i, %c2]
    %q = cast %a : coopmatrix<i8x16x3,matrix_a>
    %q2 = add %q, %q : coopmatrix<i8x16x3,matrix_a>
    %seven = constant 7 : i8
    %q3 = cooperative_matrix_insert %seven, %q2[2] : coopmatrix<i8x16x3,matrix_a>
    %b0 = cooperative_matrix_extract %q3[0] : i8
    %b2 = cooperative_matrix_extract %q3[2] : i8
    %w0 = cast %b0 : i32
    %w2 = cast %b2 : i32
    store %w0, %iout[%i, %c3]
    store %w2, %iout[%i, %c4]
    %h = cast %b : coopmatrix<${h}x16x3,matrix_a>
    %h2 = mul %h, %h : coopmatrix<${h}x16x3,matrix_a>
    %hk = constant ${h === 'i16' ? '-3' : '-0.5'} : coopmatrix<${h}x16x3,matrix_a>
    %h3 = add %h2, %hk : coopmatrix<${h}x16x3,matrix_a>
    %g0 = cooperative_matrix_extract %h3[0] : ${h}
    %g1 = cooperative_matrix_extract %h3[1] : ${h}
    %g2 = cooperative_matrix_extract %h3[2] : ${h}
    %f0 = cast %g0 : f32
    %f1 = cast %g1 : f32
    %f2 = cast %g2 : f32
    store %f0, %out[%i, %c3]
    store %f1, %out[%i, %c4]
    store %f2, %out[%i, %c5]
    %vc = cast %v : c32
    %zc = cooperative_matrix_construct %vc : coopmatrix<c32x16x2,matrix_acc>
    %zp = mul %z, %zc : coopmatrix<c32x16x2,matrix_acc>
    %zs = sub %zp, %z : coopmatrix<c32x16x2,matrix_acc>
    %y0 = cooperative_matrix_extract %zs[0] : c32
    %y1 = cooperative_matrix_extract %zp[1] : c32
    store %y0, %cout[%i, %c0]
    store %y1, %cout[%i, %c1]
    %l = constant 5 : i32
    store %l, %iout[%i, %c5]
  }
}
`;

const args = (n: number) => () => ({
  x: { data: Float32Array.from(smallInts(Int32Array, 16, 11), (v) => v / 2), shape: [16] },
  out: { data: new Float32Array(96), shape: [16, 6] },
  iout: { data: new Int32Array(96), shape: [16, 6] },
  cout: { data: new Float32Array(64), shape: [16, 2] },
  n,
});

test('coopmatrix construct/insert/extract/arith/cast/scale, for and if: OpenCL C and OpenCL SPIR-V equal the reference', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    runOnBoth(ctx, { ir: coop('bf16'), fn: 'coop', args: args(3), tol: 1e-6 });
    runOnBoth(ctx, { ir: coop('i16'), fn: 'coop', args: args(0), tol: 1e-6, il: 'spirv' });
  } finally {
    ctx.dispose();
  }
});

test('coopmatrix construct/insert/extract/arith/cast/scale, for and if: Vulkan SPIR-V equals the reference', (t) => {
  const ctx = testVulkan(t, { features: ['shaderFloat16', 'shaderInt8', 'shaderInt16', 'shaderInt64'] });
  if (!ctx) return;
  try {
    runOnBoth(ctx, { ir: coop('f16'), fn: 'coop', args: args(2), tol: 1e-6 });
  } finally {
    ctx.dispose();
  }
});
