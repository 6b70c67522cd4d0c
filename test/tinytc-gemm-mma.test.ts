// `mma-f64` (src/codegen/opencl-c/gemm-mma.ts): the f64 GEMM on NVIDIA's FP64 tensor cores through inline PTX. What
// its OpenCL C holds and where it falls back (every device and printer); its products run on host threads, PTX's
// fragment layout played by a warp of 32 threads (support/work-group-threads.ts), against the JS reference and
// under ThreadSanitizer (CI); and on an NVIDIA OpenCL device, the cases below against the reference
// (scripts/gpu-gemm-candidates.sh runs this file there before it times the variant).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  type BlasPolicy,
  CPU_BLAS_POLICY,
  GEMM_VARIANTS,
  GPU_BLAS_POLICY,
  VULKAN_GPU_GEMM,
  NVIDIA_CP_ASYNC_GEMM,
  NVIDIA_TENSOR_GEMM,
  gemmRule,
  isGemmVariant,
  portableGemmRule,
  withTensorCores,
} from '../src/codegen/blas-policy.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { mmaLayout } from '../src/codegen/opencl-c/gemm-mma.js';
import { emitTinytcOpenCLC } from '../src/codegen/opencl-c/index.js';
import { parseOpenclKnobs } from '../src/codegen/opencl-knobs.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { batchedGemmIr } from '../src/frontend/tinytc/batched-gemm-ir.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { type RaceCase, checkOnThreads, cpuOpenclC, oddGemm } from './support/gemm-on-threads.js';
import { testDevice } from './support/device.js';
import { runOnBoth } from './support/tinytc-exec.js';
import { batchedGemm, skewedGemm } from './support/tinytc-gemm-cases.js';
import { CLANG19, requireTool } from './support/tools.js';

/** One f64 m8n8k4 product as gemm-mma.ts spells it: two accumulators in and out, one element of A and of B in. */
const MMA = new RegExp(
  String.raw`__asm__\("mma\.sync\.aligned\.m8n8k4\.row\.col\.f64\.f64\.f64\.f64 [^"]*" ` +
    String.raw`: "\+d"\(\w+\), "\+d"\(\w+\) : "d"\(\w+\), "d"\(\w+\)\);`,
  'g',
);
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;
const MMA_FIRST: BlasPolicy = { ...GPU_BLAS_POLICY, gemm: [{ variant: 'mma-f64' }, ...GPU_BLAS_POLICY.gemm] };

/** The OpenCL C of `ir` under `blas` (the tuned work-group policy, as the GPU runtime builds it). */
function openclC(ir: string, blas: Partial<BlasPolicy>): string {
  const fe = compileTinytc(new SourceFile('x.ir', ir), { layout: SPIR64 });
  assert.ok(fe.compiled, 'the IR compiles');
  return emitTinytcOpenCLC(fe.compiled, { blas });
}

test('mma-f64 is NVIDIA-only: in no shipped policy nor GEMM_VARIANTS, a variant the benchmark takes', () => {
  assert.ok(!(GEMM_VARIANTS as readonly string[]).includes('mma-f64'));
  assert.ok(isGemmVariant('mma-f64'));
  for (const rules of [GPU_BLAS_POLICY.gemm, CPU_BLAS_POLICY.gemm, VULKAN_GPU_GEMM])
    assert.ok(rules.every((r) => r.variant !== 'mma-f64'));
  assert.equal(portableGemmRule(MMA_FIRST, 'f64', 64, 64)?.variant, 'overlap-all');
});

test('NVIDIA devices of compute capability 8.0 or later take mma-f64 for f64 GEMMs up to 64 × 64, no other', () => {
  const gemm = GPU_BLAS_POLICY.gemm;
  for (const cc of [null, 6, 7]) assert.equal(withTensorCores(gemm, cc), gemm);
  for (const cc of [8, 9, 10]) {
    const policy = { ...GPU_BLAS_POLICY, gemm: withTensorCores(gemm, cc) };
    // cp.async fills: one K tile of 32 staged for 32³ (async=2), three stages of 8 for 64³ (async=3).
    assert.deepEqual(gemmRule(policy, 'f64', 64, 64), NVIDIA_TENSOR_GEMM[1]);
    assert.deepEqual(gemmRule(policy, 'f64', 64, 64)?.opencl, { async: 3 });
    assert.deepEqual(gemmRule(policy, 'f64', 32, 32), NVIDIA_TENSOR_GEMM[0]);
    assert.deepEqual(gemmRule(policy, 'f64', 32, 32)?.opencl, { async: 2 });
    assert.equal(gemmRule(policy, 'f64', 65, 64)?.variant, 'direct');
    assert.equal(gemmRule(policy, 'f64', null, null)?.variant, 'direct');
    // f32 up to 64 × 64: the staged tiles filled by cp.async (tinytc-gemm-staged-async.test.ts); larger, the GPU rule.
    assert.deepEqual(gemmRule(policy, 'f32', 32, 32), NVIDIA_CP_ASYNC_GEMM[0]);
    assert.deepEqual(gemmRule(policy, 'f32', 64, 64), NVIDIA_CP_ASYNC_GEMM[1]);
    assert.deepEqual(gemmRule(policy, 'f32', 100, 100), gemmRule(GPU_BLAS_POLICY, 'f32', 100, 100));
  }
});

test('64³ f64 batched: 16 products a step of 4 in K per work-item, from two padded tiles of each operand', () => {
  const cl = openclC(batchedGemmIr('f64', 64), { gemm: [{ variant: 'mma-f64', opencl: parseOpenclKnobs('vload=2') }] });
  assert.match(cl, /reqd_work_group_size\(16, 8, 1\)/);
  // 4 warps as 2 × 2, each 4 × 4 blocks of 8 × 8; K tiles of 16 (two of 72 × 16 and 64 × 20 doubles: 38,912 B).
  assert.equal(count(cl, MMA), 16);
  assert.match(cl, /local double kernarg_a_tile\[2304\];/);
  assert.match(cl, /local double kernarg_b_tile\[2560\];/);
  assert.match(cl, /for \(long kernarg_k = 0; kernarg_k < 16; kernarg_k \+= 4\) \{/);
  // 32 accumulators a work-item, each written back once; no work-item products in C.
  assert.equal(count(cl, /^\s*double kernarg_acc\d_\d_\d = 0;$/gm), 32);
  assert.equal(count(cl, / \+= kernarg_a\d \* kernarg_b\d;/g), 0);
  assert.equal(count(cl, /barrier\(CLK_LOCAL_MEM_FENCE\);/g), 2);
  // The fills read as the knob says: 64 × 16 doubles of each operand, 4 vload2 a work-item, now and ahead.
  assert.equal(count(cl, /vload2\(/g), 16);
});

test('async=3 at 64³ f64: three stages of K 8 filled by cp.async, one wait and one barrier a K tile', () => {
  const ir = batchedGemmIr('f64', 64);
  const with_ = (knobs: string) => openclC(ir, { gemm: [{ variant: 'mma-f64', opencl: parseOpenclKnobs(knobs) }] });
  const cl = with_('async=3');
  assert.deepEqual(parseOpenclKnobs('async=3'), { async: 3 });
  assert.throws(() => parseOpenclKnobs('async=1'), /async=2\.\.9/);
  // Three stages of A's 72 × 8 and B's 64 × 12 (≡ 12 modulo 16: two wavefronts a fragment): 32,256 B.
  assert.match(cl, /local double kernarg_a_tile\[1728\];/);
  assert.match(cl, /local double kernarg_b_tile\[2304\];/);
  assert.equal(count(cl, MMA), 16);
  // 8 copies a work-item a stage (64 × 8 of each operand over 128 work-items): two stages before the loop, one in it.
  assert.equal(count(cl, /cp\.async\.ca\.shared\.global/g), 3 * 8);
  assert.equal(count(cl, /cp\.async\.commit_group/g), 3);
  assert.equal(count(cl, /cp\.async\.wait_group 1;/g), 1);
  assert.equal(count(cl, /isspacep\.shared/g), 2);
  // No register copies of the tiles, and one barrier a trip (64³ is one block: none after the loop).
  assert.equal(count(cl, /vload2\(/g), 0);
  assert.equal(count(cl, /barrier\(CLK_LOCAL_MEM_FENCE\);/g), 1);
  // The products and the write-back are the plain variant's.
  const tail = (text: string) => text.slice(text.indexOf('c[((kernarg_ib'));
  assert.equal(tail(cl), tail(with_('vload=2')));
  // Stages fit localBytes: 9 at K 4 (39,168 B), and none past it.
  assert.equal(mmaLayout([16, 8], 64, 64, 64, 40 * 1024, 9)?.kt, 4);
  assert.equal(mmaLayout([16, 8], 64, 64, 64, 40 * 1024, 4)?.kt, 4);
  assert.equal(mmaLayout([16, 8], 64, 64, 64, 40 * 1024, 2)?.kt, 16);
  assert.equal(mmaLayout([32, 8], 96, 64, 64, 40 * 1024, 9), null);
});

test('cstage: C staged through the A tile in two passes of 64 × 32, written back column by column', () => {
  const ir = batchedGemmIr('f64', 64);
  const with_ = (knobs: string) => openclC(ir, { gemm: [{ variant: 'mma-f64', opencl: parseOpenclKnobs(knobs) }] });
  const cl = with_('vload=2,cstage');
  const plain = with_('vload=2');
  // The K loop is the same; only the write-back differs.
  const kLoop = (text: string) => text.slice(0, text.lastIndexOf('kernarg_p = 1 - kernarg_p;'));
  assert.equal(kLoop(cl), kLoop(plain));
  assert.equal(count(cl, MMA), 16);
  // Stride 68 (≡ 4 modulo 16 doubles): a warp's fragment stores take two wavefronts. 64 rows × 32 columns a pass.
  assert.equal(count(cl, /^\s*kernarg_a_tile\[kernarg_c_row[^\]]*\* 68\] = kernarg_acc\d_\d_\d;$/gm), 32);
  assert.equal(count(cl, /kernarg_e < 2048; kernarg_e \+= 128\)/g), 2);
  // Every element of C written once a pass, consecutive work-items on consecutive rows; no fragment store into C.
  assert.equal(count(cl, /^\s*c\[\(\(kernarg_ib \+ kernarg_e_row\) \+ /gm), 2);
  assert.equal(count(cl, /^\s*c\[.*kernarg_acc/gm), 0);
  assert.equal(count(plain, /^\s*c\[.*kernarg_acc/gm), 32);
  // The K loop's barriers, and two a pass (the staged stores before the reads, the reads before the next stores).
  assert.equal(count(cl, /barrier\(CLK_LOCAL_MEM_FENCE\);/g), 2 + 4);
  assert.deepEqual(parseOpenclKnobs('vload=2,cstage'), { vload: 2, cstage: true });
  // Only mma-f64 reads the knob.
  const overlap = (knobs: string) =>
    openclC(ir, { gemm: [{ variant: 'overlap-all', opencl: parseOpenclKnobs(knobs) }] });
  assert.equal(overlap('vload=2,cstage'), overlap('vload=2'));
});

test('mma-f64 falls back to the next rule: f32, a work-group that is no whole number of warps, and SPIR-V', () => {
  const f32 = batchedGemmIr('f32', 64);
  assert.equal(openclC(f32, MMA_FIRST), openclC(f32, GPU_BLAS_POLICY));
  const small = `func @s(%A: memref<f64x16x16>, %B: memref<f64x16x16>, %C: memref<f64x16x16>) work_group_size(4, 4) {
  gemm.n.n 1.0, %A, %B, 0.0, %C : f64, memref<f64x16x16>, memref<f64x16x16>, f64, memref<f64x16x16>
}`;
  assert.equal(openclC(small, MMA_FIRST), openclC(small, GPU_BLAS_POLICY));
  assert.equal(count(openclC(small, MMA_FIRST), MMA), 0);
  const f64 = batchedGemmIr('f64', 64);
  assert.ok(count(openclC(f64, MMA_FIRST), MMA) > 0);
  const spirv = (blas: BlasPolicy) => {
    const fe = compileTinytc(new SourceFile('x.ir', f64), { layout: SPIR64, api: 'vulkan' });
    const plan = withAddressTables(lowerVulkan(fe.compiled!.module, {}, new DiagnosticBag()))!;
    return Buffer.from(emitTinytcSpirv(fe.compiled!, plan, { blas }).buffer).toString('hex');
  };
  assert.equal(spirv(MMA_FIRST), spirv(GPU_BLAS_POLICY), 'SPIR-V has no inline PTX: the rule after it');
});

test("mmaLayout: blocks of C cover the work-group's warps, tiles fit their stages, fragment reads take two wavefronts", () => {
  fc.assert(
    fc.property(
      fc.tuple(fc.constantFrom(1, 2, 3, 4, 8, 16, 32), fc.constantFrom(1, 2, 4, 8, 16, 32)),
      fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constant('?')),
      fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constant('?')),
      fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constant('?')),
      fc.constantFrom(null, 2, 3, 4, 6, 9),
      ([warps, wg0], M, N, K, stages) => {
        const wg: [number, number] = [wg0, (32 * warps) / wg0];
        if (!Number.isInteger(wg[1])) return;
        const l = mmaLayout(wg, M, N, K, 40 * 1024, stages);
        if (!l) return;
        assert.equal(l.wr * l.wc, warps);
        assert.equal(l.mb, 8 * l.pm * l.wr);
        assert.equal(l.nb, 8 * l.pn * l.wc);
        assert.ok(l.pm <= 4 && l.pn <= 4 && l.kt % 4 === 0);
        assert.ok((stages ?? 2) * (l.aStride * l.kt + l.nb * l.bStride) * 8 <= 40 * 1024);
        if (typeof M === 'number')
          assert.ok(l.pm === 4 || l.mb >= M, 'a block of fewer than 4 × 8 rows a warp covers M');
        // A warp's 32 reads of one fragment, in 16 banks of 8 bytes: each bank read twice (the least for 32 doubles).
        for (const [stride, along] of [
          [l.aStride, (lane: number) => Math.floor(lane / 4) + (lane % 4) * l.aStride],
          [l.bStride, (lane: number) => (lane % 4) + Math.floor(lane / 4) * l.bStride],
        ] as const) {
          const banks = new Array(16).fill(0);
          for (let lane = 0; lane < 32; lane++) banks[along(lane) % 16]++;
          assert.deepEqual(banks, new Array(16).fill(2), `stride ${stride}`);
        }
      },
    ),
    { numRuns: 300 },
  );
  assert.equal(mmaLayout([4, 4], 64, 64, 64), null, 'half a warp');
  assert.deepEqual(mmaLayout([16, 8], 64, 64, 64), {
    wr: 2,
    wc: 2,
    pm: 4,
    pn: 4,
    mb: 64,
    nb: 64,
    kt: 16,
    aStride: 72,
    bStride: 20,
  });
});

const CLEAN = { races: 0, wrong: null };
/** Cases the threads run: partial blocks and K tiles, transposed and dynamic, and two batch items at once. */
const THREAD_CASES: [string, RaceCase][] = [
  ['65 × 63 × 61 n.n', oddGemm('f64', 65, 63, 61, 'n', 'n', false)],
  ['37 × 23 × 19 t.t dynamic', oddGemm('f64', 37, 23, 19, 't', 't', true)],
  ['32³ × 2 batched', { ...(batchedGemm('f64', 32, 2) as unknown as RaceCase), howmany: 2 }],
];

test('mma-f64 on host threads (a warp plays the mma): the reference C, no race', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  for (const knobs of ['vload=2,aligned', 'vload=2,aligned,cstage', 'async=2', 'async=3,cstage', 'async=6'])
    for (const [what, c] of THREAD_CASES) {
      const cl = cpuOpenclC(c.ir, 'mma-f64', parseOpenclKnobs(knobs));
      assert.ok(count(cl, MMA) > 0, `${what}: the mma variant`);
      assert.equal(/kernarg_s_col/.test(cl), knobs.endsWith('cstage'), `${what}: staged as the knob says`);
      assert.equal(/cp\.async\.ca/.test(cl), knobs.startsWith('async'), `${what}: cp.async as the knob says`);
      assert.deepEqual(checkOnThreads(clang, c, cl, `mma-f64 ${knobs} ${what}`), CLEAN, `${knobs} ${what}`);
    }
});

test('the threads catch a fragment read from the wrong place: B read with rows and columns swapped', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  const [, c] = THREAD_CASES[2];
  const cl = cpuOpenclC(c.ir, 'mma-f64');
  const swapped = cl.replace(
    /(kernarg_b_off = \(\(kernarg_warp \/ 2\) \* 16 \+ )kernarg_lane \/ 4(\) \* \d+ \+ )kernarg_lane % 4;/,
    '$1kernarg_lane % 4$2kernarg_lane / 4;',
  );
  assert.notEqual(swapped, cl, 'the B offset was found');
  assert.notEqual(checkOnThreads(clang, c, swapped, 'swapped B').wrong, null);
});

test('the threads catch a cp.async tile read before it landed: async=3 waiting for one group too few', (t) => {
  const clang = requireTool(t, CLANG19);
  if (!clang) return;
  const [, c] = THREAD_CASES[0];
  const cl = cpuOpenclC(c.ir, 'mma-f64', parseOpenclKnobs('async=3'));
  const early = cl.replace(/cp\.async\.wait_group 1;/, 'cp.async.wait_group 2;');
  assert.notEqual(early, cl, 'the wait was found');
  assert.deepEqual(checkOnThreads(clang, c, cl, 'async=3'), CLEAN);
  assert.notEqual(checkOnThreads(clang, c, early, 'async=3 early').wrong, null);
});

/** On the device: the benchmark's batched f64 GEMMs, odd sizes, transposed operands, dynamic shapes. */
const DEVICE_CASES = [
  batchedGemm('f64', 32, 3),
  batchedGemm('f64', 64, 3),
  { ...oddGemm('f64', 65, 63, 61, 'n', 'n', false), tol: 1e-5 },
  { ...oddGemm('f64', 37, 23, 19, 't', 't', true), tol: 1e-5 },
  skewedGemm('f64', 'n', 't', 40, 24, 36, 2603, { howmany: 2 }),
  skewedGemm('f64', 't', 'n', 64, 64, 64, 4099, { howmany: 2 }),
];

test('mma-f64 computes what the reference does on NVIDIA; its fallback (f32) does on any device [opencl]', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const failures: string[] = [];
    const nvidia = /nvidia/i.test(`${ctx.device.platform} ${ctx.device.name}`);
    const cases = nvidia ? DEVICE_CASES : [skewedGemm('f32', 'n', 'n', 37, 16, 16, 1030, { howmany: 2 })];
    for (const knobs of nvidia
      ? [
          'default',
          'vload=2,aligned',
          'vload=2,aligned,index32',
          'vload=2,aligned,cstage',
          'async=2',
          'async=3',
        ].concat(['async=3,cstage', 'async=6', 'async=9', 'async=3,index32'])
      : ['default'])
      cases.forEach((c, i) => {
        try {
          runOnBoth(ctx, { ...c, blas: { gemm: [{ variant: 'mma-f64' }], opencl: parseOpenclKnobs(knobs) } });
        } catch (e) {
          failures.push(`${knobs} case ${i}: ${String((e as Error).message).split('\n')[0]}`);
        }
      });
    assert.deepEqual(failures, []);
  } finally {
    ctx.dispose();
  }
});
