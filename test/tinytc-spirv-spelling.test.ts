// The SPIR-V spelling a GEMM rule carries (GemmRule.spirv in blas-policy.ts): Vulkan's GPU rule
// spells the benchmarked shapes with 32-bit indices, hoisted fills and loops written out; a caller's
// knobs override the rule's one by one; `unroll=full` writes loops out only in the 32-bit spelling
// (with 64-bit indices, the written-out spelling NVIDIA's Vulkan compiler got wrong, gemm.ts, it marks them Unroll).
// The shipped GPU rule also runs on the Vulkan test device (lavapipe in CI) against the reference,
// so its spelling is checked where CI can run it, not only on the GPU it was measured on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API_POLICIES } from '../src/codegen/api-policies.js';
import { type BlasPolicy, gemmRule } from '../src/codegen/blas-policy.js';
import { UNROLL_PRODUCTS } from '../src/codegen/spirv-knobs.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { batchedGemmIr } from '../src/frontend/tinytc/batched-gemm-ir.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { disassemble } from '../src/emit/spirv/disassemble.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { testVulkan } from './support/vulkan-device.js';
import { randomFloats, runOnBoth } from './support/tinytc-exec.js';

const GPU = API_POLICIES.vulkan.gpu.blas;

/** The disassembled module of `ir` printed under `blas`. */
function spirvText(ir: string, blas: Partial<BlasPolicy>): string {
  const fe = compileTinytc(new SourceFile('x.ir', ir), { layout: SPIR64 });
  assert.ok(fe.compiled, 'the IR compiles');
  const plan = withAddressTables(lowerVulkan(fe.compiled.module, {}, new DiagnosticBag()))!;
  return disassemble(emitTinytcSpirv(fe.compiled, plan, { blas }));
}

const count = (text: string, re: RegExp) => text.match(new RegExp(re.source, 'gm'))?.length ?? 0;

/** A GEMM of dynamic shape: no static trip counts, so 32-bit indices cannot apply. */
const dynamicIr = `func @dgemm(%A: memref<f32x?x?>, %B: memref<f32x?x?>, %C: memref<f32x?x?>) {
  gemm.n.n 1.0, %A, %B, 0.0, %C : f32, memref<f32x?x?>, memref<f32x?x?>, f32, memref<f32x?x?>
}`;

test("Vulkan's GPU rule carries its SPIR-V spelling: vector reads, loops written out, up to 64; direct beyond", () => {
  const spelt = { index32: true, fill: 'hoisted', unroll: 'full' } as const;
  const small = gemmRule(GPU, 'f64', 64, 64);
  assert.equal(small?.variant, 'staged-k16');
  // B's tile unpadded (pad=0) for f32 and f64 up to 64; f64 up to 32 staged-k8 with the K-tile loop kept (on one warp:
  // api-policies.ts's VULKAN_GPU_WORK_GROUPS).
  assert.deepEqual(small?.spirv, { ...spelt, vload: 2, pad: 0 });
  assert.deepEqual(gemmRule(GPU, 'f32', 64, 64)?.spirv, { ...spelt, vload: 4, pad: 0 });
  const f32 = gemmRule(GPU, 'f32', 32, 32);
  assert.equal(f32?.variant, 'staged-k16');
  assert.deepEqual(f32?.spirv, { ...spelt, vload: 4, pad: 0 });
  assert.equal(gemmRule(GPU, 'f64', 32, 32)?.variant, 'staged-k8');
  assert.deepEqual(gemmRule(GPU, 'f64', 32, 32)?.spirv, { ...spelt, vload: 2, pad: 0, kloop: true });
  // Other element types up to 32 keep staged-k16 with B padded.
  assert.equal(gemmRule(GPU, 'c64', 32, 32)?.variant, 'staged-k16');
  assert.deepEqual(gemmRule(GPU, 'c64', 32, 32)?.spirv, { ...spelt, vload: 2 });
  // Other element types keep the padded spelling up to 64.
  assert.deepEqual(gemmRule(GPU, 'c32', 64, 64)?.spirv, { ...spelt, vload: 2 });
  const large = gemmRule(GPU, 'f32', 128, 128);
  assert.equal(large?.variant, 'direct');
  assert.equal(large?.spirv, undefined);
  // OpenCL's rules carry no spelling: the OpenCL C printer has none to read.
  for (const r of API_POLICIES.opencl.gpu.blas.gemm) assert.equal(r.spirv, undefined);
});

test("the rule's spelling reaches the module: loops written out in 32-bit arithmetic; a caller's knob overrides the rule's", () => {
  const ir = batchedGemmIr('f32', 64);
  const ruled = spirvText(ir, GPU);
  assert.equal(count(ruled, /OpLoopMerge/), 0, 'every loop of the batched 64³ GEMM is written out');
  // Unspelled (the same variant, the printer's default spelling): the K loop and the fills are loops.
  const plain = spirvText(ir, { ...GPU, gemm: [{ maxSize: 64, variant: 'staged-k16' }] });
  assert.ok(count(plain, /OpLoopMerge/) > 0, "without the rule's knobs the GEMM keeps its loops");
  // A caller's unroll=none overrides the rule's unroll=full and leaves its other knobs: 32-bit loop counters.
  const caller = spirvText(ir, { ...GPU, spirv: { unroll: 'none' } });
  assert.ok(count(caller, /OpLoopMerge/) > 0, "the caller's unroll=none wins");
  assert.ok(
    count(caller, /OpVariable %_ptr_Function_uint Function/) > 0,
    "the rule's index32 stays: 32-bit loop counters",
  );
  assert.equal(count(caller, /OpVariable %_ptr_Function_ulong Function/), 0);
  assert.equal(count(plain, /OpVariable %_ptr_Function_uint Function/), 0, 'unspelled, the loop counters are 64-bit');
});

test('unroll=full writes loops out only with 32-bit indices; with 64-bit ones it marks them Unroll', () => {
  const full64 = spirvText(dynamicIr, { gemm: [{ variant: 'staged-k16' }], spirv: { unroll: 'full' } });
  const hint64 = spirvText(dynamicIr, { gemm: [{ variant: 'staged-k16' }], spirv: { unroll: 'hint' } });
  assert.equal(full64, hint64, 'a dynamic GEMM under unroll=full is spelled exactly as under unroll=hint');
  assert.ok(count(full64, /OpLoopMerge %\w+ %\w+ Unroll$/) > 0);
  // Static shapes without index32 are 64-bit too: the same fallback.
  const ir = batchedGemmIr('f64', 32);
  assert.equal(
    spirvText(ir, { gemm: [{ variant: 'vector-all' }], spirv: { unroll: 'full' } }),
    spirvText(ir, { gemm: [{ variant: 'vector-all' }], spirv: { unroll: 'hint' } }),
  );
  assert.equal(
    count(
      spirvText(ir, { gemm: [{ variant: 'vector-all' }], spirv: { index32: true, unroll: 'full' } }),
      /OpLoopMerge/,
    ),
    0,
  );
});

test('unroll=full writes out at most UNROLL_PRODUCTS products per work-item: a 64³ GEMM on 8 work-items keeps its loops', () => {
  const ir = (wg: string) => batchedGemmIr('f32', 64, wg === '16, 8' ? [16, 8] : [8, 1]);
  const spelling = { gemm: [{ variant: 'staged-k16' as const }], spirv: { index32: true, unroll: 'full' as const } };
  // 16 × 8 work-items: 4 × 8 accumulators × 64 k = 2,048 products, written out.
  assert.equal(count(spirvText(ir('16, 8'), spelling), /OpLoopMerge/), 0);
  // 8 work-items: a register tile 8 times larger, far beyond the bound: loops marked Unroll, as under hint.
  const small = spirvText(ir('8, 1'), spelling);
  assert.ok(count(small, /OpLoopMerge %\w+ %\w+ Unroll$/) > 0);
  assert.equal(small, spirvText(ir('8, 1'), { ...spelling, spirv: { index32: true, unroll: 'hint' } }));
  assert.ok(UNROLL_PRODUCTS >= 2048, 'the benchmarked GEMMs (at most 2,048 products) stay written out');
});

test("Vulkan's GPU rule, spelled as shipped, against the reference on the Vulkan test device [vulkan]", (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    for (const [ty, n] of [
      ['f32', 32],
      ['f64', 32],
      ['f32', 64],
      ['f64', 64],
    ] as const) {
      const floats = (n: number, seed: number) =>
        ty === 'f32' ? randomFloats(Float32Array, n, seed) : randomFloats(Float64Array, n, seed);
      const howmany = 3;
      runOnBoth(ctx, {
        ir: batchedGemmIr(ty, n),
        fn: 'bgemm',
        howmany,
        tol: 1e-5,
        blas: GPU,
        args: () =>
          Object.fromEntries(
            ['A', 'B', 'C'].map((x, i) => [x, { data: floats(n * n * howmany, 11 + i), shape: [n, n, howmany] }]),
          ),
      });
    }
    // A GEMM the tiles do not divide, transposed on both sides, with beta: the rule's first entry (≤ 64) still applies.
    const A = 'memref<f64x29x37>';
    const B = 'memref<f64x45x29>';
    const C = 'memref<f64x37x45>';
    runOnBoth(ctx, {
      ir: `func @tt(%A: ${A}, %B: ${B}, %C: ${C}) {\n  gemm.t.t 1.5, %A, %B, -0.5, %C : f64, ${A}, ${B}, f64, ${C}\n}`,
      fn: 'tt',
      tol: 1e-5,
      blas: GPU,
      args: () => ({
        A: { data: randomFloats(Float64Array, 29 * 37, 3), shape: [29, 37] },
        B: { data: randomFloats(Float64Array, 45 * 29, 4), shape: [45, 29] },
        C: { data: randomFloats(Float64Array, 37 * 45, 5), shape: [37, 45] },
      }),
    });
  } finally {
    ctx.dispose();
  }
});
