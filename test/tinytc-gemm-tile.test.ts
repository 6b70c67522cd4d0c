// The GEMM knob `tile=RxC` (opencl-knobs.ts, spirv-knobs.ts): each work-item keeps at most R × C accumulators, so a
// work-group's block of C is smaller and it walks more blocks (issue #30 goal 5: fewer registers a work-item for
// the 64³ f64 GEMM). What both printers emit under it, and their results against the JS reference on the OpenCL
// test device (PoCL in CI) and on the Vulkan one (lavapipe in CI, each module through spirv-val): the staged,
// vector and overlapped families on odd sizes (dynamic, transposed), on skewed operands (vector reads of both
// alignments) and on the benchmark's 64³ f64 GEMM, under the spellings the GPU sweep times.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GemmVariantName } from '../src/codegen/blas-policy.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { emitTinytcOpenCLC } from '../src/codegen/opencl-c/index.js';
import { parseOpenclKnobs } from '../src/codegen/opencl-knobs.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import { GEMM_TILE_MAX, gemmTiling } from '../src/codegen/tiling.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import type { AnyContext } from '../src/runtime/api.js';
import { batchedGemmIr } from '../src/frontend/tinytc/batched-gemm-ir.js';
import { type ExecCase, pairFailures } from './support/tinytc-exec.js';
import { batchedGemm, oddGemm, skewedGemm } from './support/tinytc-gemm-cases.js';
import { onDevice } from './support/on-device.js';
import { count, spirvText } from './support/gemm-text.js';

type Case = Omit<ExecCase, 'blas'>;

const F64X64 = batchedGemm('f64', 64, 2);
const ODD = [
  oddGemm('f64', 65, 63, 61, 'n', 'n', false),
  oddGemm('f32', 37, 23, 19, 't', 't', true),
  oddGemm('f64', 17, 9, 100, 't', 'n', true),
];
// Item 0 on every vector's alignment, item 1 off it: each fill's run-time test takes both sides.
const SKEW = skewedGemm('f64', 'n', 't', 64, 48, 32, 1027, { howmany: 2 });
// 8 × 8 work-items with up to 8 × 8 accumulators each (the larger tile): M = 70 passes a block of 64 rows.
const WIDE = skewedGemm('f64', 't', 'n', 70, 64, 24, 1031, { howmany: 2, wg: [8, 8] });

function openclC(c: Case, variant: GemmVariantName, knobs: string): string {
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64 });
  return emitTinytcOpenCLC(fe.compiled!, { blas: { gemm: [{ variant }], opencl: parseOpenclKnobs(knobs) } });
}

test('gemmTiling: `tile` caps the rows and columns a work-item keeps, the default cap is the tiling without it', () => {
  assert.deepEqual(gemmTiling([16, 8], 64, 64), { rm: 4, rn: 8, fullRows: true, fullCols: true });
  assert.deepEqual(gemmTiling([16, 8], 64, 64, GEMM_TILE_MAX), gemmTiling([16, 8], 64, 64));
  assert.deepEqual(gemmTiling([16, 8], 64, 64, [2, 4]), { rm: 2, rn: 4, fullRows: true, fullCols: true });
  // A cap above what the shape needs changes nothing; odd sizes get their bounds checks back per block.
  assert.deepEqual(gemmTiling([16, 8], 20, 12, [4, 8]), gemmTiling([16, 8], 20, 12));
  assert.deepEqual(gemmTiling([16, 8], 65, 63, [1, 2]), { rm: 1, rn: 2, fullRows: false, fullCols: false });
  // Dynamic extents: one row, two columns (or the cap's one).
  assert.deepEqual(gemmTiling([16, 8], null, null, [1, 1]), { rm: 1, rn: 1, fullRows: false, fullCols: false });
  assert.deepEqual(gemmTiling([16, 8], null, null, [4, 8]), { rm: 1, rn: 2, fullRows: false, fullCols: false });
});

test('OpenCL C under tile=2x4: 8 accumulators a work-item, blocks of 32 × 32 for the 64³ f64 GEMM on 16 × 8', () => {
  const plain = openclC(F64X64, 'overlap-all', 'vload=2,aligned');
  const small = openclC(F64X64, 'overlap-all', 'vload=2,aligned,tile=2x4');
  assert.equal(count(plain, /double kernarg_acc\d+_\d+ = 0;/g), 32);
  assert.equal(count(small, /double kernarg_acc\d+_\d+ = 0;/g), 8);
  assert.match(plain, /kernarg_jb \+= 64\)/);
  assert.match(small, /kernarg_jb \+= 32\)/);
  assert.match(small, /kernarg_ib \+= 32\)/);
  // Two tiles of each operand: A 32 × 32 (K of 64 fits twice at blocks of 32), B 32 × 32 and a padding row.
  assert.match(small, /local double kernarg_a_tile\[2048\];/);
  assert.match(small, /local double kernarg_b_tile\[2112\];/);
  // The cap at the tiling's own maximum is the knob left out, in every family.
  for (const v of ['staged-k16', 'vector-all', 'overlap-k16', 'direct'] as const)
    assert.equal(openclC(F64X64, v, 'tile=4x8'), openclC(F64X64, v, 'default'), v);
  // 8 rows on 8 × 8 work-items: 64 accumulators a work-item, one block of 64 × 64.
  const wide = openclC({ ...F64X64, ir: batchedGemmIr('f64', 64, [8, 8]) }, 'staged-k16', 'tile=8x8');
  assert.equal(count(wide, /double kernarg_acc\d+_\d+ = 0;/g), 64);
  assert.match(wide, /kernarg_ib \+= 64\)/);
  // The direct GEMM takes the cap too.
  assert.equal(count(openclC(F64X64, 'direct', 'tile=1x2'), /double kernarg_acc\d+_\d+ = 0;/g), 2);
  assert.deepEqual(parseOpenclKnobs('tile=2x8,vload=2').tile, [2, 8]);
  for (const bad of ['tile=3x4', 'tile=16x8', 'tile=2', 'tile=2x16'])
    assert.throws(() => parseOpenclKnobs(bad), /tile=RxC \(R, C: 1\|2\|4\|8\)/, bad);
});

test('SPIR-V under tile=2x4: the smaller block in the Workgroup arrays, the cap at 4x8 the knob left out', () => {
  const rule = 'index32,fill=hoisted,unroll=full,vload=2';
  const arrays = (text: string) =>
    [...text.matchAll(/%_ptr_Workgroup__arr_double_uint_(\d+) = OpTypePointer/g)].map((m) => Number(m[1]));
  // staged-k16: A 64 × 16 and B 16 (+1) × 64 on 16 × 8; under the cap A 32 × 16 and B 16 (+1) × 32.
  assert.deepEqual(arrays(spirvText(F64X64, 'staged-k16', rule)), [64 * 16, 17 * 64]);
  assert.deepEqual(arrays(spirvText(F64X64, 'staged-k16', `${rule},tile=2x4`)), [32 * 16, 17 * 32]);
  for (const v of ['staged-k16', 'overlap-all', 'direct'] as const)
    assert.equal(spirvText(F64X64, v, `${rule},tile=4x8`), spirvText(F64X64, v, rule), v);
  assert.deepEqual(parseSpirvKnobs('index32,tile=1x8').tile, [1, 8]);
  assert.throws(() => parseSpirvKnobs('tile=4x3'), /tile=RxC \(R, C: 1\|2\|4\|8\)/);
});

/** The Vulkan rule's SPIR-V spelling for 64³ (blas-policy.ts, VULKAN_GPU_GEMM), without its vector reads. */
const VK_RULE = 'index32,fill=hoisted,unroll=full';

/** [variant, knobs, cases]: each family under a cap, the rule's read knobs beside it (each run one build). */
const CL_RUNS: [GemmVariantName, string, Case[]][] = [
  ['overlap-all', 'vload=2,aligned,tile=2x4', [F64X64, ODD[0], SKEW]],
  ['overlap-k16', 'vload=2,aligned,index32,tile=1x2', [ODD[1]]],
  ['staged-k16', 'vload=2,aligned,batch,tile=2x2', [ODD[2], SKEW]],
  ['vector-all', 'vload=2,tile=2x4', [ODD[0]]],
  ['overlap-k8', 'vload=2,aligned,tile=8x8', [WIDE]],
  ['staged-k16', 'vload=2,aligned,tile=8x4', [WIDE]],
];

/**
 * On a GPU, the pairs scripts/gpu-gemm-candidates.sh times for the 64³ f64 rule (issue #30 goal 5), each on the
 * benchmark's GEMM at kernarg's work-group and at the swept ones (WG_SWEEP), so every module timed is checked first.
 */
const CL_GPU: [GemmVariantName, string][] = [
  ['overlap-all', 'vload=2,aligned'],
  ['overlap-all', 'vload=2,aligned,tile=2x4'],
  ['overlap-all', 'vload=2,aligned,tile=4x4'],
  ['overlap-all', 'vload=2,aligned,tile=2x8'],
  ['overlap-all', 'vload=2,aligned,index32,tile=2x4'],
  ['overlap-k16', 'vload=2,aligned,tile=2x4'],
  ['staged-all', 'vload=2,aligned,batch,tile=2x4'],
  ['staged-k16', 'vload=2,aligned,batch,tile=2x4'],
  ['vector-all', 'vload=2,tile=2x4'],
  // Second run: the vector layout at the default tile (half of B's local reads: one vector per two columns).
  ['vector-all', 'vload=2,aligned'],
  ['vector-all', 'vload=2,aligned,batch'],
  ['vector-all', 'vload=2,aligned,batch,index32'],
  ['vector-k16', 'vload=2,aligned,batch'],
  ['vector-k32', 'vload=2,aligned,batch'],
  ['staged-all', 'vload=2,aligned,batch'],
  // Third run: larger tiles for fewer work-items (8 × 8 and 8 × 16 work-items, blocks of 64 × 64).
  ['overlap-all', 'vload=2,aligned,tile=8x8'],
  ['overlap-k8', 'vload=2,aligned,tile=8x8'],
  ['staged-k16', 'vload=2,aligned,tile=8x8'],
  ['staged-all', 'vload=2,aligned,tile=8x8'],
  ['overlap-all', 'vload=2,aligned,tile=8x4'],
  ['staged-k16', 'vload=2,aligned,tile=8x4'],
];
const VK_GPU: [GemmVariantName, string][] = [
  ['staged-k16', `${VK_RULE},vload=2`],
  ['staged-k16', `${VK_RULE},vload=2,tile=2x4`],
  ['staged-k16', `${VK_RULE},vload=2,tile=4x4`],
  ['staged-k16', `${VK_RULE},vload=2,tile=2x8`],
  ['staged-k32', `${VK_RULE},vload=2,tile=2x4`],
  ['staged-k16', `${VK_RULE},vload=2,batch,tile=2x4`],
  ['overlap-all', `${VK_RULE},vload=2,tile=2x4`],
  ['overlap-k16', `${VK_RULE},vload=2,tile=2x4`],
  ['vector-k16', 'index32,fill=hoisted,vload=2,tile=2x4'],
  ['vector-k16', `${VK_RULE},vload=2`],
  ['vector-k16', 'index32,fill=hoisted,vload=2'],
  ['staged-k16', `${VK_RULE},vload=2,tile=8x8`],
  ['staged-k32', `${VK_RULE},vload=2,tile=8x8`],
  ['staged-k16', `${VK_RULE},vload=2,tile=8x4`],
];
/** The work-groups each pair is timed on: kernarg's (16 × 8) and WG_SWEEP's, fewer work-items for 8 rows. */
const gpuWorkGroups = (knobs: string): (readonly [number, number] | null)[] =>
  /tile=8x/.test(knobs)
    ? [
        [8, 8],
        [8, 16],
      ]
    : [null, [16, 16], [32, 8]];

/** The runs of one API: its CPU list, or on a GPU its candidates on the 64³ f64 GEMM at every swept work-group. */
function runsOn(ctx: AnyContext, cpu: [GemmVariantName, string, Case[]][], gpu: [GemmVariantName, string][]) {
  // Vulkan names the device's type; an OpenCL context names its platform (PoCL's is the CPU device CI has).
  const info = ctx.device as { readonly type?: string; readonly platform?: string };
  if (/cpu/i.test(info.type ?? '') || /portable computing/i.test(info.platform ?? '')) return cpu;
  const at = (wg: readonly [number, number] | null): Case => ({ ...F64X64, ir: batchedGemmIr('f64', 64, wg) });
  return gpu.map(([v, k]): [GemmVariantName, string, Case[]] => [v, k, gpuWorkGroups(k).map(at)]);
}

test('tile=RxC against the reference: every staged family, odd sizes, skewed operands, 64³ f64 [opencl]', (t) =>
  onDevice('opencl', t, (ctx) => {
    assert.deepEqual(
      pairFailures(ctx, runsOn(ctx, CL_RUNS, CL_GPU), (variant, knobs) => ({
        gemm: [{ variant }],
        opencl: parseOpenclKnobs(knobs),
      })),
      [],
    );
  }));

const VK_RUNS: [GemmVariantName, string, Case[]][] = [
  ['staged-k16', `${VK_RULE},vload=2,tile=2x4`, [F64X64, ODD[0], SKEW]],
  ['overlap-all', `${VK_RULE},vload=2,tile=2x4`, [ODD[2], SKEW]],
  ['vector-k16', 'index32,fill=hoisted,vload=2,batch,tile=1x2', [ODD[1]]],
  ['staged-k16', 'tile=2x2', [ODD[0]]],
  ['staged-k16', `${VK_RULE},vload=2,tile=8x8`, [WIDE]],
];

test('tile=RxC as SPIR-V against the reference, through spirv-val: written out and in loops, odd and skewed [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    assert.deepEqual(
      pairFailures(ctx, runsOn(ctx, VK_RUNS, VK_GPU), (variant, knobs) => ({
        gemm: [{ variant }],
        spirv: parseSpirvKnobs(knobs),
      })),
      [],
    );
  }));
