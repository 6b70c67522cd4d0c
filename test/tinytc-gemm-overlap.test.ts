// The overlapped GEMM variants (overlap-kT, overlap-all in blas-policy.ts): their shape in both
// printers (two tiles of each operand, the next K tile loaded before the products and stored after
// them, one barrier per K tile) and their results against the JS reference on the OpenCL test device
// (PoCL in CI) and, as SPIR-V through spirv-val, on the Vulkan test device (lavapipe in CI): the four
// benchmarked batched shapes (32³ and 64³, f32 and f64), sizes no tile divides, dynamic and
// transposed operands, under the SPIR-V knobs that write the K loop out. Every variant of the family
// also runs the cases of tinytc-gemm-variants.test.ts, which takes its list from GEMM_VARIANTS.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type BlasPolicy, type GemmVariantName, stagedKTile } from '../src/codegen/blas-policy.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { emitTinytcOpenCLC } from '../src/codegen/opencl-c/index.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { disassemble } from '../src/emit/spirv/disassemble.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { type ExecCase, runOnBoth } from './support/tinytc-exec.js';
import { batchedGemm, oddGemm } from './support/tinytc-gemm-cases.js';
import { onDevice } from './support/on-device.js';

type Case = Omit<ExecCase, 'blas'>;

const odd = oddGemm;

const SHAPES: Case[] = [
  batchedGemm('f32', 32, 2),
  batchedGemm('f64', 32, 2),
  batchedGemm('f32', 64, 2),
  batchedGemm('f64', 64, 2),
];
const ODD: Case[] = [
  odd('f64', 65, 63, 61, 'n', 'n', false),
  odd('f32', 37, 23, 19, 't', 't', true),
  odd('f32', 33, 70, 45, 'n', 't', false),
  odd('f64', 17, 9, 100, 't', 'n', true),
];

function openclC(c: Case, variant: GemmVariantName): string {
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64 });
  return emitTinytcOpenCLC(fe.compiled!, { blas: { gemm: [{ variant }] } });
}

function spirvText(c: Case, variant: GemmVariantName, blas: Partial<BlasPolicy> = {}): string {
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64 });
  const plan = withAddressTables(lowerVulkan(fe.compiled!.module, {}, new DiagnosticBag()))!;
  return disassemble(emitTinytcSpirv(fe.compiled!, plan, { blas: { gemm: [{ variant }], ...blas } }));
}

const CL_BARRIER = /barrier\(CLK_LOCAL_MEM_FENCE\)/g;
const SPV_BARRIER = /OpControlBarrier %uint_2 %uint_2 %uint_264/g;
const workgroupArrays = (text: string, t: string) =>
  [...text.matchAll(new RegExp(`%_ptr_Workgroup__arr_${t}_uint_(\\d+) = OpTypePointer`, 'g'))].map((m) => Number(m[1]));

test('overlap-* halves the K tile where two tiles of each operand must fit the local memory', () => {
  // 64³ f64 on 16 × 8 work-items: blocks of 64 × 64.
  assert.equal(stagedKTile('staged-all', 64, 64, 64, 8), 32);
  assert.equal(stagedKTile('overlap-all', 64, 64, 64, 8), 16);
  assert.equal(stagedKTile('overlap-k16', 64, 64, 64, 8), 16);
  assert.equal(stagedKTile('overlap-all', 64, 64, 64, 8, 16384), 4);
  // 32³ f32: all of K fits twice.
  assert.equal(stagedKTile('overlap-all', 32, 32, 32, 4), 32);
});

test('OpenCL C: overlap-* keeps two tiles, loads the next K tile into registers before the products and stores it after them, behind one barrier per tile', () => {
  const [, , , f64x64] = SHAPES;
  const o = openclC(f64x64, 'overlap-all');
  // Two tiles of 64 × 16 (A) and 16 × 64 + one padding element per column (B).
  assert.match(o, /local double kernarg_a_tile\[2048\];/);
  assert.match(o, /local double kernarg_b_tile\[2176\];/);
  // The first tile before the loop, then one barrier per K tile.
  assert.equal(o.match(CL_BARRIER)?.length, 2);
  assert.match(o, /kernarg_kb \+= 16\)/);
  const loop = o.slice(o.indexOf('for (long kernarg_kb'));
  const ahead = loop.indexOf('vload4(0, &a[((kernarg_ib + kernarg_tf) + ((kernarg_kb + 16 + kernarg_ts) * 64))])');
  const product = loop.indexOf('kernarg_acc0_0 +=');
  const store = loop.indexOf('vstore4(kernarg_r, 0, &kernarg_a_tile[(1 - kernarg_p) * 1024 + ');
  assert.ok(ahead > 0 && ahead < product && product < store, 'next tile: loaded, then the products, then stored');
  assert.ok(store < loop.indexOf('barrier(CLK_LOCAL_MEM_FENCE)'));
  // staged-all: one tile each, two barriers per K tile and nothing loaded ahead.
  const s = openclC(f64x64, 'staged-all');
  assert.match(s, /local double kernarg_a_tile\[2048\];/);
  assert.doesNotMatch(s, /kernarg_more|kernarg_p\b/);
  // One K tile (32³ f32, all of K): nothing to load ahead.
  assert.doesNotMatch(openclC(SHAPES[0], 'overlap-all'), /kernarg_more/);
  // A tile that passes the matrix (odd sizes): each register's element read only where it lies inside.
  assert.match(openclC(ODD[0], 'overlap-k16'), /kernarg_r = .* < 61 \? /);
});

test('SPIR-V: overlap-* keeps two tiles of each operand in Workgroup arrays, one barrier per K tile, written out under unroll=full', () => {
  const [, , , f64x64] = SHAPES;
  const o = spirvText(f64x64, 'overlap-all');
  assert.deepEqual(workgroupArrays(o, 'double'), [2 * 64 * 16, 2 * 64 * 17]);
  assert.equal(o.match(SPV_BARRIER)?.length, 2);
  // The K loop written out: the first tile's barrier and one per K tile (4), with no loop left for K.
  const full = spirvText(f64x64, 'overlap-all', { spirv: parseSpirvKnobs('index32,fill=hoisted,unroll=full') });
  assert.equal(full.match(SPV_BARRIER)?.length, 1 + 4);
  assert.equal(spirvText(f64x64, 'staged-all').match(SPV_BARRIER)?.length, 2);
});

/** overlap-all on every case; overlap-k16 (several K tiles, the last one partial for the odd K) on two. */
const RUNS: [GemmVariantName, Case[]][] = [
  ['overlap-all', [...SHAPES, ...ODD]],
  ['overlap-k16', [SHAPES[3], ODD[0]]],
];

test('overlap-* against the reference: the four benchmarked shapes and odd sizes [opencl]', (t) =>
  onDevice('opencl', t, (ctx) => {
    for (const [variant, cases] of RUNS) for (const c of cases) runOnBoth(ctx, { ...c, blas: { gemm: [{ variant }] } });
  }));

test('overlap-* as SPIR-V against the reference, through spirv-val: the four shapes and odd sizes, default and written-out spellings [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    for (const [variant, cases] of RUNS) for (const c of cases) runOnBoth(ctx, { ...c, blas: { gemm: [{ variant }] } });
    // The K loop written out (static shapes): the current tile a number, the accumulators SSA values.
    const spirv = parseSpirvKnobs('index32,fill=hoisted,unroll=full');
    for (const c of [...SHAPES, ODD[0]]) runOnBoth(ctx, { ...c, blas: { gemm: [{ variant: 'overlap-all' }], spirv } });
  }));
