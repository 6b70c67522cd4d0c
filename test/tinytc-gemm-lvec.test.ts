// The SPIR-V GEMM knobs `lvec` (a `vector-*` GEMM's work-group tiles as arrays of 16-byte vectors, each invocation
// reading its neighbouring rows and columns a vector at a time) and `pad=P` (B's tile padded by P a column or a row:
// the banks its fill stores in), spirv-knobs.ts (issue #30 goal 5). What the printer emits under them, and their
// results against the JS reference on the Vulkan test device (lavapipe in CI, each module through spirv-val): odd,
// transposed and dynamic sizes, skewed operands (vector reads of both alignments), and the benchmark's four GEMMs;
// on a GPU, every pair scripts/gpu-gemm-candidates.sh times with them, on the benchmark's four GEMMs.
// test/tinytc-spirv-barriers.test.ts runs them written out under the barrier checker.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GemmVariantName } from '../src/codegen/blas-policy.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import type { AnyContext } from '../src/runtime/api.js';
import { type ExecCase, pairFailures } from './support/tinytc-exec.js';
import { benchmarkGemms, oddGemm, skewedGemm } from './support/tinytc-gemm-cases.js';
import { onDevice } from './support/on-device.js';
import { count, spirvText } from './support/gemm-text.js';

type Case = Omit<ExecCase, 'blas'>;

const BENCH = benchmarkGemms();
const ODD = [
  oddGemm('f64', 65, 63, 61, 'n', 'n', false),
  oddGemm('f32', 37, 23, 19, 't', 't', true),
  oddGemm('f32', 68, 72, 40, 't', 'n', false),
];
// Item 0 on every vector's alignment, item 1 off it: each fill's run-time test takes both sides.
const SKEW = [
  skewedGemm('f32', 'n', 't', 64, 64, 48, 1027, { howmany: 2 }),
  skewedGemm('f64', 'n', 'n', 64, 48, 32, 1029, { howmany: 2 }),
];

test('SPIR-V under lvec: vector-* tiles of vec4 (f32) or vec2 (f64), read a vector at a time; other variants unchanged', () => {
  const [f32x64, f64x64] = [BENCH[2], BENCH[3]];
  const knobs = 'index32,fill=hoisted,vload=4';
  const plain = spirvText(f32x64, 'vector-k16', knobs);
  const vec = spirvText(f32x64, 'vector-k16', `${knobs},lvec`);
  // 64³ f32 on 16 × 8: A 64 × 16 in 256 vec4s; B 16 rows of 64 + 8 in 288.
  assert.match(vec, /OpTypeArray %v4float %uint_256\b/);
  assert.match(vec, /OpTypeArray %v4float %uint_288\b/);
  assert.doesNotMatch(plain, /OpTypeArray %v4float/);
  // Per k: one vec4 of A's 4 rows, two of B's 8 columns (the loop body printed once: 3 vector loads of the tiles).
  const tileLoads = (text: string) => count(text, /= OpLoad %v4float %\d+\s*$/gm);
  assert.equal(tileLoads(vec) - tileLoads(plain), 3);
  // f64: vec2s; A 64 × 16 in 512, B 16 × (64 + 2) under pad=2 in 528.
  const f64 = spirvText(f64x64, 'vector-k16', 'index32,fill=hoisted,vload=2,lvec,pad=2');
  assert.match(f64, /OpTypeArray %v2double %uint_512\b/);
  assert.match(f64, /OpTypeArray %v2double %uint_528\b/);
  // B's rows not whole vectors (pad=1): A's tile alone is vectors.
  const odd = spirvText(f32x64, 'vector-k16', `${knobs},lvec,pad=1`);
  assert.equal(count(odd, /OpTypeArray %v4float %uint_\d+/g), 1);
  // staged-* (each invocation's rows a work-group apart) and the overlapped variants ignore lvec.
  for (const v of ['staged-k16', 'overlap-k16'] as const)
    assert.equal(spirvText(f32x64, v, `${knobs},lvec`), spirvText(f32x64, v, knobs), v);
  assert.throws(() => parseSpirvKnobs('pad=9'), /pad=P \(P: 0\.\.8\)/);
});

test('SPIR-V under pad=P: B tile strides T + P (staged) and nb + P (vector); the default pads are pad=1 and pad=rn', () => {
  const f64x64 = BENCH[3];
  const rule = 'index32,fill=hoisted,unroll=full,vload=2';
  const arrays = (text: string) =>
    [...text.matchAll(/%_ptr_Workgroup__arr_double_uint_(\d+) = OpTypePointer/g)].map((m) => Number(m[1]));
  assert.deepEqual(arrays(spirvText(f64x64, 'staged-k16', `${rule},pad=4`)), [64 * 16, 20 * 64]);
  assert.deepEqual(arrays(spirvText(f64x64, 'vector-k16', `${rule},pad=2`)), [64 * 16, 16 * 66]);
  assert.equal(spirvText(f64x64, 'staged-k16', `${rule},pad=1`), spirvText(f64x64, 'staged-k16', rule));
  assert.equal(spirvText(f64x64, 'vector-k16', `${rule},pad=8`), spirvText(f64x64, 'vector-k16', rule));
});

const VK_RULE = 'index32,fill=hoisted,unroll=full';

/** [variant, knobs, cases] on a CPU device: loops and written out, f32 and f64, every layout lvec and pad apply to. */
const CPU_RUNS: [GemmVariantName, string, Case[]][] = [
  ['vector-k16', 'index32,fill=hoisted,vload=4,lvec,pad=4', [...BENCH, ...ODD, ...SKEW]],
  ['vector-k16', `${VK_RULE},vload=2,lvec,pad=2`, [BENCH[1], BENCH[3], ODD[0], SKEW[1]]],
  ['vector-all', 'index32,fill=hoisted,vload=4,lvec', [BENCH[2], ODD[2], SKEW[0]]],
  ['vector-k8', 'lvec,pad=4', [BENCH[0], ODD[1], SKEW[0]]],
  ['vector-k16', 'index32,fill=hoisted,vload=4,lvec,batch', [BENCH[2], SKEW[0]]],
  ['staged-k16', `${VK_RULE},vload=4,pad=4`, [BENCH[2], BENCH[3], ODD[0], SKEW[0]]],
  ['staged-k16', `${VK_RULE},vload=2,pad=0`, [BENCH[1], BENCH[3], ODD[1], SKEW[1]]],
  ['staged-k32', `${VK_RULE},vload=2,pad=2`, [BENCH[3], ODD[2], SKEW[0]]],
  ['vector-k16', `${VK_RULE},vload=4,pad=2`, [BENCH[2], ODD[1], SKEW[1]]],
];

/** On a GPU, the pairs scripts/gpu-gemm-candidates.sh times with the knobs (run-vk.sh's VK_PAIRS), each on the four GEMMs. */
export const VK_GPU: [GemmVariantName, string][] = [
  ['vector-k16', 'index32,fill=hoisted,vload=4,lvec'],
  ['vector-k16', 'index32,fill=hoisted,vload=4,lvec,pad=4'],
  ['vector-k16', `${VK_RULE},vload=4,lvec,pad=4`],
  ['vector-k16', 'index32,fill=hoisted,vload=2,lvec,pad=2'],
  ['vector-k16', `${VK_RULE},vload=2,lvec,pad=2`],
  ['vector-k32', 'index32,fill=hoisted,vload=4,lvec,pad=4'],
  ['vector-all', 'index32,fill=hoisted,vload=4,lvec,pad=4'],
  ['vector-k16', 'index32,fill=hoisted,vload=4,pad=2'],
  ['vector-k16', 'index32,fill=hoisted,vload=4,lvec,pad=4,batch'],
  ['staged-k16', `${VK_RULE},vload=4,pad=4`],
  ['vector-k8', 'index32,fill=hoisted,vload=4,lvec,pad=4'],
  ['vector-k32', `${VK_RULE},vload=2,lvec,pad=2`],
  // The second call: staged-k16 B strides of a whole number of vectors (T + 0, 2, 4, 8), K tiles of 8 and 32.
  ['staged-k16', `${VK_RULE},vload=4,pad=0`],
  ['staged-k16', `${VK_RULE},vload=4,pad=8`],
  ['staged-k16', `${VK_RULE},vload=2,pad=0`],
  ['staged-k16', `${VK_RULE},vload=2,pad=2`],
  ['staged-k16', `${VK_RULE},vload=2,pad=4`],
  ['staged-k32', `${VK_RULE},vload=4,pad=4`],
  ['staged-k32', `${VK_RULE},vload=2,pad=2`],
  ['staged-k8', `${VK_RULE},vload=4,pad=4`],
  ['staged-k16', `${VK_RULE},vload=4,pad=4,batch`],
];

function runsOn(ctx: AnyContext): [GemmVariantName, string, Case[]][] {
  const info = ctx.device as { readonly type?: string };
  if (/cpu/i.test(info.type ?? '')) return CPU_RUNS;
  return VK_GPU.map(([v, k]) => [v, k, BENCH]);
}

test('lvec and pad against the reference, through spirv-val: loops and written out, odd, skewed, the four GEMMs [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    assert.deepEqual(
      pairFailures(ctx, runsOn(ctx), (variant, knobs) => ({ gemm: [{ variant }], spirv: parseSpirvKnobs(knobs) })),
      [],
    );
  }));
