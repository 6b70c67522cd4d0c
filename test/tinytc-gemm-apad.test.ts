// The SPIR-V GEMM knobs `apad=P` (A's work-group tile k-fastest, rows T + P apart), `pad=P` on the overlapped variants
// and `kloop` (the K-tile loop kept a loop under `unroll=full`), spirv-knobs.ts (issue #30 goal 5: Vulkan's f64 GEMMs). What the printer emits under them, and their results against
// the JS reference on the Vulkan test device (lavapipe in CI, each module through spirv-val): odd, transposed and dynamic
// sizes, skewed operands (vector reads of both alignments), and the benchmark's four GEMMs; on a GPU, every pair
// scripts/gpu-gemm-candidates.sh times with them, on the benchmark's four GEMMs. test/tinytc-spirv-barriers.test.ts runs
// `apad` and the overlapped `pad` written out under the barrier checker (`kloop` keeps a loop, which it does not follow).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GemmVariantName } from '../src/codegen/blas-policy.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import type { AnyContext } from '../src/runtime/api.js';
import { type ExecCase, pairFailures } from './support/tinytc-exec.js';
import { batchedGemm, benchmarkGemms, oddGemm, skewedGemm } from './support/tinytc-gemm-cases.js';
import { onDevice } from './support/on-device.js';
import { count, spirvText } from './support/gemm-text.js';

type Case = Omit<ExecCase, 'blas'>;

const BENCH = benchmarkGemms();
const ODD = [
  oddGemm('f64', 65, 63, 61, 'n', 'n', false),
  oddGemm('f32', 37, 23, 19, 't', 't', true),
  oddGemm('f64', 68, 72, 40, 't', 'n', false),
];
// Item 0 on every vector's alignment, item 1 off it: each fill's run-time test takes both sides.
const SKEW = [
  skewedGemm('f32', 'n', 't', 64, 64, 48, 1027, { howmany: 2 }),
  skewedGemm('f64', 'n', 'n', 64, 48, 32, 1029, { howmany: 2 }),
];

const arrays = (text: string) =>
  [...text.matchAll(/%_ptr_Workgroup__arr_(?:double|float)_uint_(\d+) = OpTypePointer/g)].map((m) => Number(m[1]));

test('SPIR-V under apad=P: A tile rows of T + P (staged, overlapped: two copies); vector-* and a tile past the memory keep rows fastest', () => {
  const [f32x64, f64x64] = [BENCH[2], BENCH[3]];
  const rule = 'index32,fill=hoisted,unroll=full,vload=2';
  // 64³ f64 on 16 × 8: A 64 rows of 16 + 2, B 64 columns of 16 (pad=0).
  assert.deepEqual(arrays(spirvText(f64x64, 'staged-k16', `${rule},pad=0,apad=2`)), [64 * 18, 64 * 16]);
  // Two arrays of one size: one array type.
  assert.deepEqual(arrays(spirvText(f64x64, 'staged-k16', `${rule},pad=0`)), [64 * 16]);
  // apad=0: the same size as rows fastest, another layout.
  const kFast = spirvText(f64x64, 'staged-k16', `${rule},pad=0,apad=0`);
  assert.deepEqual(arrays(kFast), [64 * 16]);
  assert.notEqual(kFast, spirvText(f64x64, 'staged-k16', `${rule},pad=0`));
  // The overlapped tiles: two of each, B's columns under `pad` (T + 1 without it), A's rows under `apad`.
  assert.deepEqual(arrays(spirvText(f64x64, 'overlap-k16', rule)), [2 * 64 * 16, 2 * 64 * 17]);
  assert.deepEqual(arrays(spirvText(f64x64, 'overlap-k16', `${rule},pad=0,apad=2`)), [2 * 64 * 18, 2 * 64 * 16]);
  // Past the 40 KiB the K tile was sized for (2 × (64 × 24 + 64 × 24) doubles): B's pad=8 fits alone, A keeps rows fastest.
  assert.deepEqual(arrays(spirvText(f64x64, 'overlap-k16', `${rule},pad=8,apad=8`)), [2 * 64 * 16, 2 * 64 * 24]);
  // f32 4 × 8 a work-item: A 64 rows of 16 + 4.
  assert.deepEqual(arrays(spirvText(f32x64, 'staged-k16', 'index32,vload=4,pad=0,apad=4')), [64 * 20, 64 * 16]);
  // vector-* tiles (neighbouring rows an invocation) ignore apad.
  assert.equal(
    spirvText(f32x64, 'vector-k16', 'index32,fill=hoisted,vload=4,apad=4'),
    spirvText(f32x64, 'vector-k16', 'index32,fill=hoisted,vload=4'),
  );
  assert.throws(() => parseSpirvKnobs('apad=9'), /apad=P \(P: 0\.\.8\)/);
  assert.deepEqual(parseSpirvKnobs('apad=2,pad=0'), { apad: 2, pad: 0 });
});

test('SPIR-V under kloop: the K-tile loop kept (DontUnroll, its barriers printed once), the k steps inside written out', () => {
  const f64x64 = BENCH[3];
  const rule = 'index32,fill=hoisted,unroll=full,vload=2,pad=0';
  const barriers = (text: string) => count(text, /OpControlBarrier/g);
  const dontUnroll = (text: string) => count(text, /OpLoopMerge %\d+ %\d+ DontUnroll/g);
  for (const [variant, whole, kept] of [
    ['staged-k16', 8, 2],
    ['overlap-k16', 5, 2],
  ] as const) {
    const written = spirvText(f64x64, variant, rule);
    const loop = spirvText(f64x64, variant, `${rule},kloop`);
    // 64³ in four K tiles: two barriers a tile written out (overlapped: one, and one after the first fill).
    assert.equal(barriers(written), whole, variant);
    assert.equal(barriers(loop), kept, variant);
    assert.equal(dontUnroll(written), 0, variant);
    assert.equal(dontUnroll(loop), 1, variant);
    // The k steps of a tile still written out: 16 of them, 32 products each (4 × 8 a work-item).
    assert.ok(count(loop, /OpFMul %double/g) >= 16 * 32, variant);
  }
  // Without `full`, or for the direct variant, kloop changes nothing.
  assert.equal(
    spirvText(f64x64, 'staged-k16', 'index32,unroll=hint,pad=0,kloop'),
    spirvText(f64x64, 'staged-k16', 'index32,unroll=hint,pad=0'),
  );
  assert.equal(spirvText(f64x64, 'direct', `${rule},kloop`), spirvText(f64x64, 'direct', rule));
});

const VK_RULE = 'index32,fill=hoisted,unroll=full';

/** [variant, knobs, cases] on a CPU device: loops and written out, f32 and f64, staged and overlapped, odd and skewed. */
const CPU_RUNS: [GemmVariantName, string, Case[]][] = [
  ['staged-k16', `${VK_RULE},vload=2,pad=0,apad=2`, [BENCH[1], BENCH[3], ODD[0], SKEW[1]]],
  ['staged-k16', `${VK_RULE},vload=4,pad=0,apad=4`, [BENCH[0], BENCH[2], ODD[1], SKEW[0]]],
  ['staged-k8', 'apad=1', [BENCH[1], ODD[2], SKEW[0]]],
  ['staged-k32', 'index32,fill=hoisted,vload=2,apad=2,batch', [BENCH[3], ODD[0], SKEW[1]]],
  ['overlap-k16', `${VK_RULE},vload=2,pad=0`, [BENCH[1], BENCH[3], ODD[2], SKEW[1]]],
  ['overlap-k16', `${VK_RULE},vload=2,pad=0,apad=2`, [BENCH[3], ODD[0], SKEW[1]]],
  ['overlap-k8', 'index32,vload=4,pad=4,apad=4', [BENCH[2], ODD[1], SKEW[0]]],
  ['overlap-all', 'pad=0,apad=3', [BENCH[1], ODD[2]]],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,kloop`, [BENCH[1], BENCH[3], ODD[0], SKEW[1]]],
  ['staged-k8', `${VK_RULE},vload=4,kloop,batch`, [BENCH[2], ODD[1], SKEW[0]]],
  ['overlap-k8', `${VK_RULE},vload=2,pad=0,kloop`, [BENCH[3], ODD[2], SKEW[1]]],
  ['vector-k16', `${VK_RULE},vload=4,kloop`, [BENCH[0], ODD[1]]],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,apad=2,kloop`, [BENCH[1], ODD[2], SKEW[1]]],
  // The f64 GEMMs on the work-groups of 64 and 32 work-items the third and fourth calls timed.
  [
    'staged-k16',
    `${VK_RULE},vload=2,pad=0,kloop`,
    [batchedGemm('f64', 32, 3, [16, 4]), batchedGemm('f64', 64, 2, [8, 8])],
  ],
  // Vulkan's GPU rule for f64 up to 32 (VULKAN_GPU_GEMM) on its work-group (VULKAN_GPU_WORK_GROUPS), and beside it.
  [
    'staged-k8',
    `${VK_RULE},vload=2,pad=0,kloop`,
    [batchedGemm('f64', 32, 3, [8, 4]), batchedGemm('f64', 32, 3, [8, 8]), batchedGemm('f64', 32, 2, [4, 8])],
  ],
];

/** On a GPU, the pairs scripts/gpu-gemm-candidates.sh times with the knobs, each on the four GEMMs. */
export const VK_GPU: [GemmVariantName, string][] = [
  ['staged-k16', `${VK_RULE},vload=2,pad=0,apad=2`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,apad=0`],
  ['staged-k16', `${VK_RULE},vload=4,pad=0,apad=4`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,apad=2,batch`],
  ['staged-k32', `${VK_RULE},vload=2,pad=0,apad=2`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,apad=2`],
  ['overlap-k16', `${VK_RULE},vload=2,pad=0`],
  ['overlap-k16', `${VK_RULE},vload=2,pad=0,apad=2`],
  ['overlap-k8', `${VK_RULE},vload=2,pad=0`],
  ['overlap-k8', `${VK_RULE},vload=2,pad=0,apad=2`],
  ['overlap-all', `${VK_RULE},vload=2,pad=0`],
  // The second call: the K-tile loop kept.
  ['staged-k16', `${VK_RULE},vload=2,pad=0,kloop`],
  ['staged-k16', `${VK_RULE},vload=2,kloop`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop`],
  ['staged-k32', `${VK_RULE},vload=2,pad=0,kloop`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,kloop,batch`],
  ['overlap-k8', `${VK_RULE},vload=2,pad=0,kloop`],
  ['overlap-k16', `${VK_RULE},vload=2,pad=0,kloop`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,tile=4x4,kloop`],
  // The third call.
  ['staged-k16', `${VK_RULE},vload=2,pad=0,apad=2,kloop`],
  ['staged-k16', `${VK_RULE},vload=4,pad=0,kloop`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0`],
];

/** On a GPU, the pairs timed on other work-groups (WG_SWEEP), each on the two f64 GEMMs on each of those work-groups. */
export const VK_GPU_WG: [GemmVariantName, string][] = [
  ['staged-k16', `${VK_RULE},vload=2,pad=0,kloop`],
  ['staged-k8', `${VK_RULE},vload=2,pad=0,kloop`],
  ['staged-k32', `${VK_RULE},vload=2,pad=0,kloop`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0,kloop,batch`],
];
const WGS: [number, number][] = [
  [16, 4],
  [8, 8],
  [8, 4],
  [4, 8],
];

function runsOn(ctx: AnyContext): [GemmVariantName, string, Case[]][] {
  const info = ctx.device as { readonly type?: string };
  if (/cpu/i.test(info.type ?? '')) return CPU_RUNS;
  const wgCases = WGS.flatMap((wg) => [batchedGemm('f64', 32, 3, wg), batchedGemm('f64', 64, 2, wg)]);
  return [
    ...VK_GPU.map(([v, k]): [GemmVariantName, string, Case[]] => [v, k, BENCH]),
    ...VK_GPU_WG.map(([v, k]): [GemmVariantName, string, Case[]] => [v, k, wgCases]),
  ];
}

test('apad and the overlapped pad against the reference, through spirv-val: loops and written out, odd, skewed, the four GEMMs [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    assert.deepEqual(
      pairFailures(ctx, runsOn(ctx), (variant, knobs) => ({ gemm: [{ variant }], spirv: parseSpirvKnobs(knobs) })),
      [],
    );
  }));
