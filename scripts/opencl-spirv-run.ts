// Runs tinytc programs on an OpenCL device through kernarg's OpenCL SPIR-V (`--il spirv`) and through
// its OpenCL C, each against the JS reference: a copy, an elementwise kernel and GEMMs (f32, f64,
// transposed, atomic), then generated chained programs. Prints agreement counts, the route the
// device took the SPIR-V by (program-il.ts) and the build times of both paths side by side.
// Exits 1 on any disagreement. Not part of `npm test`: on Debian's PoCL (no SPIR-V IL) the route
// needs the Khronos translator (`apt-get install llvm-spirv-15`), which .ci/run does not install.
//
//   node --import tsx scripts/opencl-spirv-run.ts [--generated 40] [--seed 20261123]
// KERNARG_DEVICE picks the device (a substring of its name or platform).
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { Context } from '../src/runtime/opencl/host.js';
import { spirvRoute } from '../src/runtime/opencl/program-il.js';
import { chainSpec, renderChain } from '../test/support/gen-tinytc-bodies.js';
import { type ExecCase, randomFloats, runOnBoth, smallInts } from '../test/support/tinytc-exec.js';

const { values: o } = parseArgs({
  options: { generated: { type: 'string', default: '40' }, seed: { type: 'string', default: '20261123' } },
});

const f32 = (n: number, seed: number) => randomFloats(Float32Array, n, seed);
const f64 = (n: number, seed: number) => randomFloats(Float64Array, n, seed);

const CASES: (ExecCase & { what: string })[] = [
  {
    what: 'copy (axpby, beta 0)',
    ir: `func @copy(%A: memref<f32x?>, %B: memref<f32x?>) {
  axpby.n 1.0, %A, 0.0, %B : f32, memref<f32x?>, f32, memref<f32x?>
}`,
    fn: 'copy',
    args: () => ({ A: { data: f32(1000, 1), shape: [1000] }, B: { data: new Float32Array(1000), shape: [1000] } }),
  },
  {
    what: 'elementwise (foreach: c = a * b + 2, i32 rem)',
    ir: `func @ew(%a: memref<f32x?>, %b: memref<f32x?>, %c: memref<f32x?>, %k: memref<i32x?>) {
  %n = size %a[0] : memref<f32x?>
  foreach %i = 0, %n {
    %x = load %a[%i] : memref<f32x?>
    %y = load %b[%i] : memref<f32x?>
    %p = arith.mul %x, %y : f32
    %q = arith.add %p, 2.0 : f32
    store %q, %c[%i] : memref<f32x?>
    %m = load %k[%i] : memref<i32x?>
    %r = arith.rem %m, 3 : i32
    store %r, %k[%i] : memref<i32x?>
  }
}`,
    fn: 'ew',
    args: () => ({
      a: { data: f32(777, 2), shape: [777] },
      b: { data: f32(777, 3), shape: [777] },
      c: { data: new Float32Array(777), shape: [777] },
      k: { data: smallInts(Int32Array, 777, 4), shape: [777] },
    }),
  },
  {
    what: 'GEMM f32 64x48x32, C = A B',
    ir: `func @gemm(%A: memref<f32x64x32>, %B: memref<f32x32x48>, %C: memref<f32x64x48>) {
  gemm.n.n 1.0, %A, %B, 0.0, %C : f32, memref<f32x64x32>, memref<f32x32x48>, f32, memref<f32x64x48>
}`,
    fn: 'gemm',
    args: () => ({
      A: { data: f32(64 * 32, 5), shape: [64, 32] },
      B: { data: f32(32 * 48, 6), shape: [32, 48] },
      C: { data: new Float32Array(64 * 48), shape: [64, 48] },
    }),
    tol: 1e-5,
  },
  {
    what: 'GEMM f64 batched (group_id), C = 2 A^T B - C, dynamic sizes',
    ir: `func @gemm_batched(%A: memref<f64x?x?x?>, %B: memref<f64x?x?x?>, %C: memref<f64x?x?x?>) {
  %g = group_id
  %a = subview %A[:,:,%g] : memref<f64x?x?x?>
  %b = subview %B[:,:,%g] : memref<f64x?x?x?>
  %c = subview %C[:,:,%g] : memref<f64x?x?x?>
  gemm.t.n 2.0, %a, %b, -1.0, %c : f64, memref<f64x?x?>, memref<f64x?x?>, f64, memref<f64x?x?>
}`,
    fn: 'gemm_batched',
    howmany: 3,
    args: () => ({
      A: { data: f64(20 * 17 * 3, 7), shape: [20, 17, 3] },
      B: { data: f64(20 * 13 * 3, 8), shape: [20, 13, 3] },
      C: { data: f64(17 * 13 * 3, 9), shape: [17, 13, 3] },
    }),
    tol: 1e-12,
  },
  {
    what: 'GEMM f32 atomic (compare-and-swap on floats), C += A B',
    ir: `func @gemm_atomic(%A: memref<f32x16x8>, %B: memref<f32x8x12>, %C: memref<f32x16x12>) {
  gemm.n.n.atomic 1.0, %A, %B, 1.0, %C : f32, memref<f32x16x8>, memref<f32x8x12>, f32, memref<f32x16x12>
}`,
    fn: 'gemm_atomic',
    args: () => ({
      A: { data: smallInts(Float32Array, 128, 10), shape: [16, 8] },
      B: { data: smallInts(Float32Array, 96, 11), shape: [8, 12] },
      C: { data: smallInts(Float32Array, 192, 12), shape: [16, 12] },
    }),
    tol: 0,
  },
];

const ctx = Context.open(process.env.KERNARG_DEVICE);
const route = spirvRoute(ctx);
console.log(`device: ${ctx.device.platform} / ${ctx.device.name}`);
console.log(
  `SPIR-V route: ${'refused' in route ? `refused: ${route.refused}` : route.route === 'il' ? 'clCreateProgramWithIL' : `${route.translator} -r, then clCreateProgramWithBinary (cl_khr_spir)`}`,
);
if ('refused' in route) process.exit(1);

let failed = 0;
const time = (f: () => void) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const ms = { spirv: 0, c: 0 };
for (const c of CASES) {
  try {
    ms.spirv += time(() => runOnBoth(ctx, { ...c, il: 'spirv' }));
    ms.c += time(() => runOnBoth(ctx, c));
    console.log(`agree   ${c.what}`);
  } catch (e) {
    failed++;
    console.log(`DIFFER  ${c.what}: ${(e as Error).message.split('\n').slice(0, 6).join('\n')}`);
  }
}
console.log(
  `named kernels: ${CASES.length - failed} of ${CASES.length} agree with the reference through SPIR-V and OpenCL C`,
);
console.log(
  `build + launch + reference, all named kernels: SPIR-V ${ms.spirv.toFixed(0)} ms, OpenCL C ${ms.c.toFixed(0)} ms ` +
    `(ratio ${(ms.spirv / ms.c).toFixed(2)}; the OpenCL C build cache ` +
    `is ${process.env.KERNARG_CACHE === '0' ? 'off' : 'as configured'})`,
);

const n = Number(o.generated);
const specs = fc.sample(chainSpec, { numRuns: n, seed: Number(o.seed) });
let genFailed = 0;
specs.forEach((spec, i) => {
  const g = renderChain(spec);
  try {
    runOnBoth(ctx, { ir: g.ir, fn: g.fn, args: g.args, howmany: g.howmany, tol: g.tol, il: 'spirv' });
  } catch (e) {
    genFailed++;
    console.log(`DIFFER  generated #${i}: ${(e as Error).message.split('\n').slice(0, 4).join('\n')}\n${g.ir}`);
  }
});
console.log(
  `generated chained programs through SPIR-V: ${n - genFailed} of ${n} agree with the reference (seed ${o.seed})`,
);
ctx.dispose();
process.exit(failed + genFailed ? 1 : 0);
