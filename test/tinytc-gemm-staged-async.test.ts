// The staged and vector GEMMs under `async=S` (src/codegen/opencl-c/gemm.ts, cp-async.ts): the tiles filled by PTX's
// cp.async in S stages. What the OpenCL C holds; its runs on host threads, each work-item's copies a queue that lands
// at its wait (support/work-group-threads.ts), against the JS reference and under ThreadSanitizer (PoCL cannot build
// the inline PTX); and on an NVIDIA OpenCL device the pairs scripts/gpu-gemm-candidates.sh times, on the benchmark's
// GEMMs and odd, transposed and skewed ones (that script runs this file there first).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type BlasPolicy,
  GPU_BLAS_POLICY,
  type GemmVariantName,
  NVIDIA_CP_ASYNC_GEMM,
  gemmRule,
  portableGemmRule,
  withTensorCores,
} from '../src/codegen/blas-policy.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { emitTinytcOpenCLC } from '../src/codegen/opencl-c/index.js';
import { parseOpenclKnobs } from '../src/codegen/opencl-knobs.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { batchedGemmIr } from '../src/frontend/tinytc/batched-gemm-ir.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { type RaceCase, checkOnThreads, cpuOpenclC, oddGemm } from './support/gemm-on-threads.js';
import { testDevice } from './support/device.js';
import { pairFailures, runOnBoth } from './support/tinytc-exec.js';
import { batchedGemm, skewedGemm } from './support/tinytc-gemm-cases.js';
import { CLANG19, requireTool } from './support/tools.js';

/** The OpenCL C of `ir` with its GEMMs as `variant` under `knobs` (the tuned work-group policy). */
function openclC(ir: string, variant: GemmVariantName, knobs: string): string {
  const fe = compileTinytc(new SourceFile('x.ir', ir), { layout: SPIR64 });
  assert.ok(fe.compiled, 'the IR compiles');
  return emitTinytcOpenCLC(fe.compiled, { blas: { gemm: [{ variant }], opencl: parseOpenclKnobs(knobs) } });
}
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
const WIDE = /cp\.async\.cg\.shared\.global \[%0\], \[%1\], 16;/g;
const NARROW = /cp\.async\.ca\.shared\.global \[%0\], \[%1\], 4;/g;

test('staged-k16 async=4 at 64³ f32: four stages of K 16, 16-byte copies behind an alignment test, one barrier a tile', () => {
  const ir = batchedGemmIr('f32', 64);
  const cl = openclC(ir, 'staged-k16', 'async=4');
  // Four stages of A's 64 × 16 and B's 16 × 64 (B's column stride 16: copies of 4 floats stay aligned), 32 KiB.
  assert.match(cl, /local float kernarg_a_tile\[4096\] __attribute__\(\(aligned\(16\)\)\);/);
  assert.match(cl, /local float kernarg_b_tile\[4096\] __attribute__\(\(aligned\(16\)\)\);/);
  // A stage: 64 × 16 floats of each operand over 128 work-items, 2 copies of 16 bytes a work-item each (else 8 of
  // one float); three stages before the loop, one in it.
  assert.equal(count(cl, WIDE), 4 * 4);
  assert.equal(count(cl, NARROW), 4 * 16);
  assert.equal(count(cl, /% sizeof\(float4\) == 0\) \{/g), 4 * 2);
  assert.equal(count(cl, /cp\.async\.commit_group/g), 4);
  assert.equal(count(cl, /cp\.async\.wait_group 2;/g), 1);
  assert.equal(count(cl, /isspacep\.shared/g), 2);
  // One barrier a trip (64³ is one block: none after the loop); the products read the stage kernarg_p.
  assert.equal(count(cl, /barrier\(CLK_LOCAL_MEM_FENCE\);/g), 1);
  assert.equal(count(cl, /_tile\[kernarg_p \* 1024 \+ /g), 4 + 8);
  // No register copies of the tiles: the knobs that spell them change nothing.
  assert.equal(count(cl, /vload4\(|vstore4\(/g), 0);
  assert.equal(openclC(ir, 'staged-k16', 'async=4,aligned,batch'), cl);
  // The products and the write-back are the plain variant's, from the stage.
  const tail = (text: string) => text.slice(text.indexOf('c[((kernarg_ib'));
  assert.equal(tail(cl), tail(openclC(ir, 'staged-k16', 'default')));
});

test('async: the K tile halves until S stages fit; B stride T + 4 where 32 divides T; the knob needs one type of 4 or 8 bytes', () => {
  const ir64 = batchedGemmIr('f32', 64);
  // staged-all: K 32 for two stages (B's stride 36), 8 for nine (36 KiB).
  const all2 = openclC(ir64, 'staged-all', 'async=2');
  assert.match(all2, /kernarg_a_tile\[4096\]/);
  assert.match(all2, /kernarg_b_tile\[4608\]/);
  assert.match(all2, /kernarg_b_tile\[kernarg_p \* 2304 \+ kernarg_k \+ \(kernarg_lid1\) \* 36\]/);
  assert.match(openclC(ir64, 'staged-all', 'async=9'), /kernarg_a_tile\[4608\][^]*kernarg_kb \+= 8\)/);
  // staged-k16 with five stages: 40 KiB exactly, every K tile of 64³ issued before the loop (no copy in it).
  const five = openclC(ir64, 'staged-k16', 'async=5');
  assert.match(five, /kernarg_a_tile\[5120\]/);
  assert.equal(count(five, WIDE), 4 * 4);
  // f64 copies 16 bytes as two doubles.
  assert.match(openclC(batchedGemmIr('f64', 32), 'staged-k16', 'async=2'), /double2\) == 0\) \{/);
  // The vector variant at 32³: A copied 16 bytes at a time, B (its tile row by row, B column-major) element by element.
  const vec = openclC(batchedGemmIr('f32', 32), 'vector-all', 'async=2');
  assert.equal(count(vec, /% sizeof\(float4\) == 0\) \{/g), 1);
  assert.ok(count(vec, /\*\(local float4\*\)&kernarg_b_tile\[kernarg_p \* \d+ \+ /g) === 1);
  // Where A, B and C differ in type, and for the other variants, the knob changes nothing.
  const mixed = `func @m(%A: memref<f32x32x32>, %B: memref<f32x32x32>, %C: memref<f64x32x32>) {
  gemm.n.n 1.0, %A, %B, 0.0, %C : f64, memref<f32x32x32>, memref<f32x32x32>, f64, memref<f64x32x32>
}`;
  assert.equal(openclC(mixed, 'staged-k16', 'async=3'), openclC(mixed, 'staged-k16', 'default'));
  for (const v of ['overlap-k16', 'direct'] as const)
    assert.equal(openclC(ir64, v, 'async=3'), openclC(ir64, v, 'default'));
});

const CLEAN = { races: 0, wrong: null };
const asRace = (c: ReturnType<typeof batchedGemm>) => c as unknown as RaceCase;
/** Cases the threads run: partial blocks and K tiles, transposed and dynamic, batched, and skewed operands. */
const THREAD_CASES: [string, RaceCase][] = [
  ['65 × 63 × 61 n.n', oddGemm('f32', 65, 63, 61, 'n', 'n', false)],
  ['37 × 23 × 19 t.t dynamic', oddGemm('f32', 37, 23, 19, 't', 't', true)],
  ['32³ × 2 batched', asRace(batchedGemm('f32', 32, 2))],
  ['37 × 16 × 16 n.t skewed × 2', asRace(skewedGemm('f32', 'n', 't', 37, 16, 16, 1030, { howmany: 2 }))],
];
/** [variant, knobs, cases]: each family and K tile, both copy widths, the fallback of one float, and f64. */
const THREAD_RUNS: [GemmVariantName, string, number[]][] = [
  ['staged-k16', 'async=3', [0, 1, 2, 3]],
  ['staged-k16', 'async=4,index32', [0, 2]],
  ['staged-all', 'async=2', [0, 2]],
  ['staged-k8', 'async=6,vload=2', [0, 3]],
  ['vector-k16', 'async=3', [0, 1]],
  ['vector-all', 'async=2,unroll', [2, 3]],
];

test('staged and vector GEMMs under async on host threads (cp.async a queue landing at its wait): the reference C, no race', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  for (const [variant, knobs, which] of THREAD_RUNS)
    for (const i of which) {
      const [what, c] = THREAD_CASES[i];
      const cl = cpuOpenclC(c.ir, variant, parseOpenclKnobs(knobs));
      assert.ok(count(cl, /cp\.async\.c[ag]\.shared/g) > 0, `${variant} ${knobs} ${what}: copies by cp.async`);
      assert.deepEqual(
        checkOnThreads(clang, c, cl, `${variant} ${knobs} ${what}`),
        CLEAN,
        `${variant} ${knobs} ${what}`,
      );
    }
  const f64 = oddGemm('f64', 64, 24, 32, 'n', 'n', false);
  const cl = cpuOpenclC(f64.ir, 'staged-k16', parseOpenclKnobs('async=2'));
  assert.ok(count(cl, /cp\.async\.cg\.shared\.global \[%0\], \[%1\], 16;/g) > 0, 'f64 in copies of two');
  assert.deepEqual(checkOnThreads(clang, f64, cl, 'f64 staged-k16 async=2'), CLEAN);
});

test('the threads catch a staged cp.async tile read before it landed: async=3 waiting for one group too few', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  const [, c] = THREAD_CASES[0];
  const cl = cpuOpenclC(c.ir, 'staged-k16', parseOpenclKnobs('async=3'));
  const early = cl.replace(/cp\.async\.wait_group 1;/, 'cp.async.wait_group 2;');
  assert.notEqual(early, cl, 'the wait was found');
  assert.deepEqual(checkOnThreads(clang, c, cl, 'async=3'), CLEAN);
  assert.notEqual(checkOnThreads(clang, c, early, 'async=3 early').wrong, null);
});

/**
 * The pairs scripts/gpu-gemm-candidates.sh times with `async` (CL_PAIRS), each checked on NVIDIA before it is timed;
 * elsewhere (PoCL cannot build the PTX) the same variants without the knob, the controls.
 */
export const ASYNC_PAIRS: [GemmVariantName, string][] = [
  ['staged-k16', 'async=2'],
  ['staged-k16', 'async=3'],
  ['staged-k16', 'async=4'],
  ['staged-k16', 'async=5'],
  ['staged-k16', 'async=4,index32'],
  ['staged-k16', 'async=4,unroll'],
  ['staged-k8', 'async=4'],
  ['staged-k8', 'async=8'],
  ['staged-k32', 'async=2'],
  ['staged-all', 'async=2'],
  ['vector-k16', 'async=3'],
  ['vector-all', 'async=2'],
];

test('staged and vector GEMMs under async compute what the reference does on NVIDIA [opencl]', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const nvidia = /nvidia/i.test(`${ctx.device.platform} ${ctx.device.name}`);
    const cases = [
      batchedGemm('f32', 32, 3),
      batchedGemm('f32', 64, 3),
      { ...oddGemm('f32', 65, 63, 61, 'n', 'n', false), tol: 1e-4 },
      { ...oddGemm('f32', 37, 23, 19, 't', 't', true), tol: 1e-4 },
      skewedGemm('f32', 'n', 't', 40, 24, 36, 2603, { howmany: 2 }),
      skewedGemm('f32', 'n', 'n', 64, 64, 64, 4099, { howmany: 2 }),
      ...(nvidia ? [batchedGemm('f64', 64, 2), skewedGemm('f64', 't', 'n', 64, 64, 64, 4099, { howmany: 2 })] : []),
    ];
    // Elsewhere: each variant once, unknobbed, on the odd and skewed cases.
    const controls = [...new Set(ASYNC_PAIRS.map(([v]) => v))].map((v) => [v, 'default'] as const);
    const runs = (nvidia ? ASYNC_PAIRS : controls).map(
      ([variant, knobs]) => [variant, knobs, nvidia ? cases : cases.slice(2)] as const,
    );
    assert.deepEqual(
      pairFailures(ctx, runs, (variant, knobs) => ({ gemm: [{ variant }], opencl: parseOpenclKnobs(knobs) })),
      [],
    );
  } finally {
    ctx.dispose();
  }
});

test("NVIDIA's cp.async rules: f32 GEMMs up to 64 × 64 on compute capability 8.0 or later; SPIR-V keeps the GPU rule", () => {
  const nvidia: BlasPolicy = { ...GPU_BLAS_POLICY, gemm: withTensorCores(GPU_BLAS_POLICY.gemm, 9) };
  assert.deepEqual(gemmRule(nvidia, 'f32', 32, 32), NVIDIA_CP_ASYNC_GEMM[0]);
  assert.deepEqual(gemmRule(nvidia, 'f32', 64, 64), NVIDIA_CP_ASYNC_GEMM[1]);
  assert.ok(NVIDIA_CP_ASYNC_GEMM.every((r) => r.element === 'f32' && r.opencl?.async !== undefined));
  // Printers and devices without cp.async take the rule after them.
  for (const n of [32, 64])
    assert.deepEqual(portableGemmRule(nvidia, 'f32', n, n), gemmRule(GPU_BLAS_POLICY, 'f32', n, n));
  const ir = batchedGemmIr('f32', 64);
  const fe = compileTinytc(new SourceFile('x.ir', ir), { layout: SPIR64 });
  // The OpenCL C: four stages of K 16 by cp.async, as timed.
  assert.equal(emitTinytcOpenCLC(fe.compiled!, { blas: nvidia }), openclC(ir, 'staged-k16', 'async=5'));
  const vk = compileTinytc(new SourceFile('x.ir', ir), { layout: SPIR64, api: 'vulkan' });
  const spirv = (blas: BlasPolicy) => {
    const plan = withAddressTables(lowerVulkan(vk.compiled!.module, {}, new DiagnosticBag()))!;
    return Buffer.from(emitTinytcSpirv(vk.compiled!, plan, { blas }).buffer).toString('hex');
  };
  assert.equal(spirv(nvidia), spirv(GPU_BLAS_POLICY), 'SPIR-V has no cp.async: the rule after them');
});

test('the rule as the runtime builds it (on NVIDIA: cp.async for f32) computes what the reference does [opencl]', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    for (const c of [
      batchedGemm('f32', 32, 3),
      batchedGemm('f32', 64, 3),
      skewedGemm('f32', 'n', 'n', 32, 32, 32, 1027, { howmany: 2 }),
      skewedGemm('f32', 'n', 'n', 64, 64, 64, 4099, { howmany: 2 }),
    ])
      runOnBoth(ctx, c);
  } finally {
    ctx.dispose();
  }
});
