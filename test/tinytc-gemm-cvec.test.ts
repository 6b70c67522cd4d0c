// The SPIR-V GEMM knob `cvec` (C written back as 16-byte vectors, each invocation's rows of C neighbours), spirv-knobs.ts
// (issue #30 goal 5: Vulkan's f64 GEMMs). What the printer emits under it, and its results against the JS reference on
// the Vulkan test device (lavapipe in CI, each module through spirv-val): the benchmark's GEMMs on their work-groups, a
// GEMM with beta, a C whose batch items sit an odd number of elements apart (item 1's vectors misaligned: the run-time
// test takes the element-by-element write-back), and shapes it does not apply to; on a GPU, the pairs
// scripts/gpu-gemm-candidates.sh times with it, on the benchmark's four GEMMs. test/tinytc-spirv-barriers.test.ts runs it
// written out under the barrier checker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GemmVariantName } from '../src/codegen/blas-policy.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import type { AnyContext } from '../src/runtime/api.js';
import { type ExecCase, pairFailures } from './support/tinytc-exec.js';
import { batchedGemm, benchmarkGemms, gemmFloats, oddGemm, skewedGemm } from './support/tinytc-gemm-cases.js';
import { onDevice } from './support/on-device.js';
import { count, spirvText } from './support/gemm-text.js';

type Case = Omit<ExecCase, 'blas'>;

const VK_RULE = 'index32,fill=hoisted,unroll=full';

const BENCH = benchmarkGemms();

/** C := 1.5 A B − C for 32³ f64 items of A, B and C 1,029 elements apart: item 1's C off the 16-byte vectors. */
function skewedC(t: 'f32' | 'f64', n: number, howmany: number): Case {
  const mt = `memref<${t}x${n}x${n}x?,strided<1,${n},1029>>`;
  const mv = `memref<${t}x${n}x${n},strided<1,${n}>>`;
  const operand = (seed: number) => ({
    data: gemmFloats(t, 1029 * (howmany - 1) + n * n, seed),
    shape: [n, n, howmany],
    stride: [1, n, 1029],
  });
  return {
    ir: `func @skewc(%A: ${mt}, %B: ${mt}, %C: ${mt}) {
  %id = group_id
  %a = subview %A[:, :, %id] : ${mt}
  %b = subview %B[:, :, %id] : ${mt}
  %c = subview %C[:, :, %id] : ${mt}
  gemm.n.n 1.5, %a, %b, -1.0, %c : ${t}, ${mv}, ${mv}, ${t}, ${mv}
}`,
    fn: 'skewc',
    howmany,
    tol: 1e-5,
    args: () => ({ A: operand(1), B: operand(2), C: operand(3) }),
  };
}

/** C's vector stores: access chains to vectors of C's alias (the only vectors a GEMM without `vload` writes globally). */
const cVectors = (text: string) => count(text, /OpAccessChain %_ptr_StorageBuffer_v\d(?:float|double) %bgemm_C/g);

test('SPIR-V under cvec: rm/w × rn vector stores of C an invocation; the knob changes nothing where it does not apply', () => {
  const rule = `${VK_RULE},vload=2,pad=0`;
  // 32³ f64 on 8 × 4 (4 × 8 of C a work-item): 2 vectors a column, 8 columns; 64³ f64 on 16 × 8 the same.
  assert.equal(cVectors(spirvText(batchedGemm('f64', 32, 1, [8, 4]), 'staged-k8', `${rule},kloop,cvec`)), 16);
  assert.equal(cVectors(spirvText(BENCH[3], 'staged-k16', `${rule},cvec`)), 16);
  assert.equal(cVectors(spirvText(BENCH[3], 'staged-k16', rule)), 0);
  // f32: 4 rows a vector, 4 rows a work-item: one vector a column.
  assert.equal(cVectors(spirvText(BENCH[2], 'staged-k16', `${VK_RULE},vload=4,pad=0,cvec`)), 8);
  // Not applied: the overlapped and direct variants, the 64-bit spelling, rows not whole blocks (65 rows), dynamic C.
  const same = (c: { readonly ir: string }, variant: GemmVariantName, knobs: string) =>
    assert.equal(spirvText(c, variant, `${knobs},cvec`), spirvText(c, variant, knobs), `${variant} ${knobs}`);
  same(BENCH[3], 'overlap-k16', rule);
  same(BENCH[3], 'direct', rule);
  same(BENCH[3], 'staged-k16', 'unroll=full,vload=2,pad=0');
  same(oddGemm('f64', 65, 63, 61, 'n', 'n', false), 'staged-k16', rule);
  same(oddGemm('f64', 64, 40, 24, 'n', 't', true), 'staged-k16', rule);
  assert.deepEqual(parseSpirvKnobs('cvec,kloop'), { cvec: true, kloop: true });
  // nrows: cvec's rows without its vectors: another module, no vector store.
  const near = spirvText(BENCH[3], 'staged-k16', `${rule},nrows`);
  assert.equal(cVectors(near), 0);
  assert.notEqual(near, spirvText(BENCH[3], 'staged-k16', rule));
  assert.deepEqual(parseSpirvKnobs('nrows'), { nrows: true });
  // cstage: C's block in work-group memory (32 × 32 f64 at a column stride of 32 + 8), written as vectors: 32 × 32 / 2
  // vectors on 32 invocations, 16 each.
  const staged = spirvText(batchedGemm('f64', 32, 1, [8, 4]), 'staged-k8', `${rule},kloop,cstage`);
  assert.equal(cVectors(staged), 16);
  assert.match(staged, new RegExp(`OpTypeArray %double %uint_${40 * 32}\\b`));
  // 64³ f64 on 16 × 8: its 64 × 72 block does not fit beside the tiles in 40 KiB: nothing changes.
  assert.equal(spirvText(BENCH[3], 'staged-k16', `${rule},cstage`), spirvText(BENCH[3], 'staged-k16', rule));
  assert.deepEqual(parseSpirvKnobs('cstage'), { cstage: 8 });
  // cstage=2: 2 of the 8 columns of the register tile at a time, 4 × 2 = 8 columns of C (40 × 8 doubles), four stages.
  const two = spirvText(batchedGemm('f64', 32, 1, [8, 4]), 'staged-k8', `${rule},kloop,cstage=2`);
  assert.equal(cVectors(two), 16);
  assert.match(two, new RegExp(`OpTypeArray %double %uint_${40 * 8}\\b`));
  assert.equal(count(two, /OpControlBarrier/g), count(staged, /OpControlBarrier/g) + 6);
  assert.throws(() => parseSpirvKnobs('cvec=2'), /cvec/);
});

/** [variant, knobs, cases] on a CPU device: loops and written out, f32 and f64, beta, C aligned and not. */
const CPU_RUNS: [GemmVariantName, string, Case[]][] = [
  [
    'staged-k8',
    `${VK_RULE},vload=2,pad=0,kloop,cvec`,
    [batchedGemm('f64', 32, 3, [8, 4]), skewedC('f64', 32, 2), oddGemm('f64', 64, 40, 24, 'n', 't', false)],
  ],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,cvec`, [BENCH[3], skewedC('f64', 32, 2), BENCH[1]]],
  ['staged-k16', `${VK_RULE},vload=4,pad=0,cvec`, [BENCH[0], BENCH[2], skewedC('f32', 32, 2)]],
  [
    'staged-k16',
    'index32,vload=2,cvec,batch',
    [BENCH[3], skewedGemm('f64', 'n', 'n', 64, 48, 32, 1029, { howmany: 2 })],
  ],
  ['vector-k16', `${VK_RULE},vload=2,cvec`, [BENCH[3], oddGemm('f32', 64, 36, 20, 't', 'n', false)]],
  ['staged-k16', 'index32,cvec', [oddGemm('f64', 65, 63, 61, 'n', 'n', false), skewedC('f64', 32, 2)]],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,nrows`, [batchedGemm('f64', 32, 2, [8, 4]), skewedC('f64', 32, 2)]],
  ['staged-k16', 'nrows', [BENCH[3], oddGemm('f64', 65, 63, 61, 'n', 'n', false)]],
  [
    'staged-k8',
    `${VK_RULE},vload=2,pad=0,kloop,cstage`,
    [batchedGemm('f64', 32, 3, [8, 4]), skewedC('f64', 32, 2), oddGemm('f64', 32, 40, 24, 'n', 't', false)],
  ],
  ['staged-k16', `${VK_RULE},vload=4,pad=0,cstage`, [BENCH[0], skewedC('f32', 32, 2)]],
  [
    'staged-k8',
    `${VK_RULE},vload=2,pad=0,kloop,cstage=2`,
    [batchedGemm('f64', 32, 3, [8, 4]), skewedC('f64', 32, 2), oddGemm('f64', 32, 40, 24, 'n', 't', false)],
  ],
  ['staged-k16', 'index32,vload=2,pad=0,cstage=1', [BENCH[3], skewedC('f64', 32, 2)]],
  ['staged-k16', 'index32,vload=2,cstage,batch', [BENCH[1], skewedC('f64', 32, 2)]],
  ['vector-k8', `${VK_RULE},vload=2,lvec,cstage`, [BENCH[1], oddGemm('f32', 32, 36, 20, 't', 'n', false)]],
  // 8 × 8 of C a work-item on 64 work-items (64³ f64), both operands' tiles read as vectors, C written as vectors.
  ['vector-k16', `${VK_RULE},vload=2,lvec,tile=8x8,cvec`, [batchedGemm('f64', 64, 2, [8, 8]), skewedC('f64', 32, 2)]],
];

/**
 * On a GPU, the pairs scripts/gpu-gemm-candidates.sh times (2026-11-29, the f64 shapes), each on the four GEMMs and a
 * misaligned C: with the knob, and the one-warp candidates without it.
 */
export const VK_GPU: [GemmVariantName, string][] = [
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,cvec`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,cvec`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,kloop,cvec`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,batch`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,batch,cvec`],
  ['overlap-k8', `${VK_RULE},vload=2,pad=0,kloop`],
  ['overlap-k16', `${VK_RULE},vload=2,pad=0,kloop`],
  // The second call: what cvec's rows cost without its vectors, and the one-warp GEMM's other spellings.
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,nrows`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,nrows`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,apad=2,kloop`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,tile=4x4`],
  ['vector-k8', `${VK_RULE},vload=2,lvec,kloop`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,cstage`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,batch,cstage`],
  // The third call: C staged a few columns at a time, in no more work-group memory than A's and B's tiles.
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,cstage=2`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop,cstage=1`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,cstage=1`],
];

/** On a GPU, the pairs timed on 8 × 8 work-items (WG_SWEEP=8x8, 64³ f64): 8 × 8 of C a work-item. */
export const VK_GPU_8X8: [GemmVariantName, string][] = [
  ['vector-k16', `${VK_RULE},vload=2,lvec,tile=8x8`],
  ['vector-k16', `${VK_RULE},vload=2,lvec,tile=8x8,cvec`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,tile=8x8,cvec`],
];

function runsOn(ctx: AnyContext): [GemmVariantName, string, Case[]][] {
  const info = ctx.device as { readonly type?: string };
  if (/cpu/i.test(info.type ?? '')) return CPU_RUNS;
  const wide = [batchedGemm('f64', 64, 2, [8, 8]), batchedGemm('f64', 32, 2, [8, 8])];
  return [
    ...VK_GPU.map(([v, k]): [GemmVariantName, string, Case[]] => [v, k, [...BENCH, skewedC('f64', 32, 2)]]),
    ...VK_GPU_8X8.map(([v, k]): [GemmVariantName, string, Case[]] => [v, k, [...wide, skewedC('f64', 32, 2)]]),
  ];
}

test('cvec against the reference, through spirv-val: written out and not, beta, C aligned and not, the four GEMMs [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    assert.deepEqual(
      pairFailures(ctx, runsOn(ctx), (variant, knobs) => ({ gemm: [{ variant }], spirv: parseSpirvKnobs(knobs) })),
      [],
    );
  }));
