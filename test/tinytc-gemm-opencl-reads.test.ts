// The OpenCL C GEMM's tile reads (src/codegen/opencl-knobs.ts: `vload=1|2|4`, `aligned`, `batch`, `index32`): run on
// the OpenCL test device (PoCL in CI) against the JS reference for the staged, vector and overlapped families, on
// operands whose alignment differs between work-groups (each fill's run-time test takes both sides in one launch),
// transposed ones, and a tile that passes the matrix; and what the OpenCL C holds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GPU_BLAS_POLICY, type GemmVariantName } from '../src/codegen/blas-policy.js';
import { batchedGemmIr } from '../src/frontend/tinytc/batched-gemm-ir.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { emitTinytcOpenCLC } from '../src/codegen/opencl-c/index.js';
import { parseOpenclKnobs } from '../src/codegen/opencl-knobs.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { testDevice } from './support/device.js';
import { type ExecCase, runOnBoth } from './support/tinytc-exec.js';
import { batchedGemm, gemmFloats, skewedGemm } from './support/tinytc-gemm-cases.js';

const CASES = [
  skewedGemm('f64', 'n', 'n', 32, 32, 32, 1027, { howmany: 2 }),
  skewedGemm('f32', 't', 't', 32, 32, 24, 2051, { howmany: 2 }),
  // M = 37 passes a block: A's tiles are read element by element, B's as vectors.
  skewedGemm('f32', 'n', 't', 37, 16, 16, 1030, { howmany: 2 }),
];

/** [knobs, variant, cases]: every family under the aligned reads, both widths (PoCL builds each in about 3 s). */
const RUNS: [string, GemmVariantName, number[]][] = [
  ['aligned', 'staged-k16', [0, 2]],
  ['vload=2,aligned', 'vector-k16', [1]],
  ['vload=4,aligned', 'overlap-k8', [0]],
  ['vload=2,aligned', 'overlap-all', [2]],
  // The candidates for more loads in flight (scripts/gpu-gemm-candidates.sh), three knobs a build (each about 3 s):
  // both tiles' reads before their stores, 32-bit indices (case 2's partial tiles and guarded trips), loops unrolled.
  ['vload=2,aligned,batch,index32', 'staged-k16', [0, 2]],
  ['vload=2,aligned,index32,unroll', 'overlap-k8', [2]],
  ['vload=4,batch,unroll', 'vector-k16', [1]],
];

/**
 * On NVIDIA (the GPU machine), the candidates scripts/gpu-gemm-candidates.sh times (CL_PAIRS) on the benchmark's four
 * GEMMs as well, each module checked before it is timed: [variant, knobs].
 */
const GPU_PAIRS: [GemmVariantName, string][] = [
  ['overlap-k16', 'vload=2,aligned,index32'],
  ['overlap-k16', 'vload=2,aligned,unroll'],
  ['overlap-all', 'vload=2,aligned,index32'],
  ['overlap-all', 'vload=2,aligned,unroll'],
  ['overlap-all', 'aligned,index32'],
  ['overlap-k8', 'vload=2,aligned'],
  ['overlap-k8', 'vload=2,aligned,index32'],
  ['overlap-k8', 'vload=2,aligned,index32,unroll'],
  ['staged-k16', 'vload=2,aligned,index32'],
  ['staged-k16', 'vload=2,aligned,batch'],
  ['staged-k16', 'vload=2,aligned,batch,index32'],
  ['staged-all', 'aligned,batch'],
  ['staged-all', 'aligned,index32'],
  ['staged-all', 'aligned,unroll'],
  ['staged-all', 'vload=2,aligned,batch,index32'],
  ['vector-all', 'vload=2,batch'],
  ['vector-all', 'vload=2,index32'],
  ['vector-all', 'vload=2,unroll'],
];

test('OpenCL C GEMM tile reads (vload=1|2|4, aligned) compute what the reference does [opencl]', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    const failures: string[] = [];
    for (const [knobs, variant, which] of RUNS)
      for (const i of which) {
        try {
          runOnBoth(ctx, { ...CASES[i], blas: { gemm: [{ variant }], opencl: parseOpenclKnobs(knobs) } });
        } catch (e) {
          failures.push(`${knobs} ${variant} case ${i}: ${String((e as Error).message).split('\n')[0]}`);
        }
      }
    if (/nvidia/i.test(`${ctx.device.platform} ${ctx.device.name}`))
      for (const [variant, knobs] of GPU_PAIRS)
        for (const [e, n] of [
          ['f32', 32],
          ['f64', 32],
          ['f32', 64],
          ['f64', 64],
        ] as const) {
          try {
            runOnBoth(ctx, { ...batchedGemm(e, n, 2), blas: { gemm: [{ variant }], opencl: parseOpenclKnobs(knobs) } });
          } catch (err) {
            failures.push(`${knobs} ${variant} ${n}³ ${e}: ${String((err as Error).message).split('\n')[0]}`);
          }
        }
    assert.deepEqual(failures, []);
  } finally {
    ctx.dispose();
  }
});

test("OpenCL's GPU rule (its read knobs included) computes the benchmark's four GEMMs as the reference does [opencl]", (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    for (const [e, n] of [
      ['f32', 32],
      ['f64', 32],
      ['f32', 64],
      ['f64', 64],
    ] as const)
      runOnBoth(ctx, {
        ir: batchedGemmIr(e, n),
        fn: 'bgemm',
        howmany: 2,
        tol: 1e-5,
        blas: GPU_BLAS_POLICY,
        args: () =>
          Object.fromEntries(
            ['A', 'B', 'C'].map((x, i) => [x, { data: gemmFloats(e, n * n * 2, i + 7), shape: [n, n, 2] }]),
          ),
      });
  } finally {
    ctx.dispose();
  }
});

/** The OpenCL C of case `i` (or an IR text) under one variant and knob setting. */
function openclC(i: number | string, variant: GemmVariantName, knobs: string): string {
  const fe = compileTinytc(new SourceFile('x.ir', typeof i === 'number' ? CASES[i].ir : i), { layout: SPIR64 });
  return emitTinytcOpenCLC(fe.compiled!, { blas: { gemm: [{ variant }], opencl: parseOpenclKnobs(knobs) } });
}

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

test('OpenCL C tile reads: vload4 by default, the width the knob gives, pointers to vectors behind one test per fill', () => {
  const plain = openclC(0, 'staged-k16', 'default');
  assert.equal(plain, openclC(0, 'staged-k16', 'vload=4'));
  assert.equal(count(plain, /vload4\(/g), 2);
  assert.equal(count(plain, /global double4 \*/g), 0);
  assert.equal(count(openclC(0, 'staged-k16', 'vload=2'), /vload2\(/g), 2);
  assert.equal(count(openclC(0, 'staged-k16', 'vload=1'), /vload\d\(/g), 0);
  // aligned: each of the two fills branches once on its operand's first element and reads double4s on one side.
  const aligned = openclC(0, 'staged-k16', 'aligned');
  assert.equal(count(aligned, /if \(\(ulong\)&\w+\[[^\n]*% sizeof\(double4\) == 0\) \{/g), 2);
  assert.equal(count(aligned, /\*\(const global double4 \*\)&/g), 2);
  assert.equal(count(aligned, /vload4\(/g), 2);
  // The overlapped prefetch: a branch around each operand's register loads (before the K loop and in it).
  const o = openclC(0, 'overlap-k8', 'vload=2,aligned');
  assert.equal(count(o, /\*\(const global double2 \*\)&/g), count(o, /vload2\(/g));
  assert.ok(count(o, /% sizeof\(double2\) == 0\) \{/g) >= 4);
  // A tile that passes the matrix's first mode (M = 37) keeps element reads for A: only B's fill tests.
  assert.equal(count(openclC(2, 'staged-k16', 'aligned'), /sizeof\(float4\) == 0\) \{/g), 1);
  assert.throws(() => parseOpenclKnobs('vload=3'), /vload=1\|2\|4/);
});

test('GEMM knobs batch and index32 (OpenCL C): both tiles read before either is stored, int indices that fit', () => {
  // One K tile's fills (the first K loop's body up to its barrier): where the first local store stands among the reads.
  const fills = (text: string) => text.slice(text.indexOf('_kb = 0;'), text.indexOf('barrier('));
  const readsBeforeStore = (text: string) => {
    const f = fills(text);
    return count(f.slice(0, f.search(/vstore2\(|_tile\[[^\]]*\] = /)), /vload2\(|\*\(const global double2 \*\)&/g);
  };
  // Case 0 (32³ f64, 16 × 8 work-items, K tiles of 16): 32 × 16 doubles of A and of B a tile, 2 vectors each a
  // work-item. Fill after fill, a loop stores each vector after reading it; batched, all 4 reads come first (twice
  // over with `aligned`: each operand's reads branch on its alignment, into the same registers).
  assert.equal(readsBeforeStore(openclC(0, 'staged-k16', 'vload=2,aligned')), 1);
  assert.equal(readsBeforeStore(openclC(0, 'staged-k16', 'vload=2,batch')), 2 + 2);
  assert.equal(readsBeforeStore(openclC(0, 'staged-k16', 'vload=2,aligned,batch')), 2 * (2 + 2));
  // The overlapped variants copy through registers already: batch changes nothing there.
  assert.equal(openclC(0, 'overlap-k8', 'vload=2,batch'), openclC(0, 'overlap-k8', 'vload=2'));
  const plain = openclC(0, 'staged-k16', 'default');
  assert.ok(count(plain, /\bfor \(long /g) >= 4);
  const narrow = openclC(0, 'staged-k16', 'index32');
  assert.equal(count(narrow, /\bfor \(long /g), 0);
  assert.equal(count(narrow, /\bfor \(int /g), count(plain, /\bfor \(long /g));
  assert.match(narrow, /const int \w+ = \(int\)kernarg_lid;/);
  // A dynamic shape keeps long indices.
  const m = 'memref<f32x?x?>';
  const gemm = `gemm.n.n 1.0, %A, %B, 0.0, %C : f32, ${m}, ${m}, f32, ${m}`;
  const dyn = `func @d(%A: ${m}, %B: ${m}, %C: ${m}) {\n  ${gemm}\n}`;
  assert.equal(openclC(dyn, 'overlap-k8', 'index32'), openclC(dyn, 'overlap-k8', 'default'));
  // unroll: each K tile's product loop and each fill loop marked, nothing else changed.
  const unrolled = openclC(0, 'staged-k16', 'unroll');
  assert.equal(count(unrolled, /#pragma unroll\n\s*for \(long \w+ = 0; \w+ < 16; \+\+/g), 1);
  assert.equal(count(unrolled, /#pragma unroll\n\s*for \(long \w+ = kernarg_lid;/g), 2);
  assert.equal(unrolled.replace(/ *#pragma unroll\n/g, ''), plain);
  assert.equal(count(openclC(0, 'overlap-k8', 'unroll'), /#pragma unroll/g), 1);
  assert.throws(() => parseOpenclKnobs('batch=2'), /batch, index32, unroll or tile=/);
});
