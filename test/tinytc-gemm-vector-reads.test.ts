// The SPIR-V GEMM's tile fills through vector reads (the `vload` knob, src/codegen/spirv/gemm-vector-reads.ts):
// run on the Vulkan test device (lavapipe in CI) against the JS reference, each module through spirv-val,
// for the staged, vector and overlapped families under the spellings the GPU sweep times
// (scripts/gpu-gemm-candidates.sh), on operands whose alignment differs between work-groups (each fill
// branches on it at run time: one module takes both sides), transposed ones, and tiles that pass the
// matrix (those operands stay element by element); and what the module holds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GemmVariantName } from '../src/codegen/blas-policy.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { disassemble } from '../src/emit/spirv/disassemble.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import { testVulkan } from './support/vulkan-device.js';
import { type ExecCase, runOnBoth } from './support/tinytc-exec.js';
import { type GemmFloat, batchedGemm, skewedGemm } from './support/tinytc-gemm-cases.js';

type F = GemmFloat;

/**
 * The candidates' spellings (scripts/gpu-gemm-candidates.sh): the Vulkan rule's knobs with vector reads of 2
 * and 4 and fused multiply-adds, and vector reads under loops (64-bit indices, nothing written out).
 */
const SETTINGS = [
  'index32,fill=hoisted,unroll=full,vload=2,fma',
  'index32,fill=hoisted,unroll=full,vload=4',
  'index32,fill=hoisted,vload=4,fma',
  // `batch`: both tiles' reads before their stores, through vectors (loops kept or written out), element by element.
  'index32,fill=hoisted,vload=4,batch',
  'index32,fill=hoisted,unroll=full,vload=2,batch',
  'index32,fill=hoisted,unroll=full,batch',
];
/**
 * On a GPU, the spellings scripts/gpu-gemm-candidates.sh sweeps: the Vulkan rule's (the control: no new knob),
 * with vector reads of 2 and 4, and vector reads with loops kept.
 */
const GPU_SETTINGS = [
  'index32,fill=hoisted,unroll=full',
  'index32,fill=hoisted,unroll=full,vload=2',
  'index32,fill=hoisted,unroll=full,vload=4',
  'index32,fill=hoisted,vload=4',
];
/** On a GPU, the `batch` spellings the candidates script times, on the variants it applies to (staged and vector). */
const GPU_BATCH: [string, GemmVariantName[]][] = [
  ['index32,fill=hoisted,unroll=full,vload=2,batch', ['staged-k16', 'staged-k32']],
  ['index32,fill=hoisted,unroll=full,vload=4,batch', ['staged-k16', 'staged-k32']],
  ['index32,fill=hoisted,vload=4,batch', ['vector-k16']],
  ['index32,fill=hoisted,vload=2,batch', ['staged-k16']],
];
/** The work-groups the sweep tries beside kernarg's choice (WG_SWEEP), for the GPU's skewed cases. */
const GPU_WORK_GROUPS: [number, number][] = [[32, 8]];

/** The skewed cases (on `wg`, else kernarg's choice). */
const skews = (wg?: [number, number]) => [
  // Aligned in one work-group and not in the next; op(A) and op(B) transposed or not.
  skewedGemm('f64', 'n', 'n', 32, 32, 32, 1027, { howmany: 3, wg }),
  skewedGemm('f32', 't', 't', 32, 32, 24, 2051, { howmany: 3, wg }),
  skewedGemm('f32', 'n', 't', 24, 40, 32, 1030, { howmany: 3, wg }),
  // M = 37 passes a block: A stays element by element, B is read as vectors.
  skewedGemm('f64', 'n', 'n', 37, 16, 16, 1024, { howmany: 3, wg }),
];

/**
 * Cases small enough for lavapipe, whose LLVM took 0.2 to 20 s to compile each new module of these spellings
 * (2026-11-28, a loaded 2-core machine): on a CPU device a chosen dozen of (spelling, variant, case),
 * every path of the fills once at least; on a GPU every spelling × the swept variants × every case, the
 * benchmark's shapes too (the sweep's modules checked before they are timed).
 */
function cases(gpu: boolean): Omit<ExecCase, 'blas'>[] {
  return [
    ...skews(),
    ...(gpu
      ? [batchedGemm('f32', 32, 2), batchedGemm('f64', 32, 2), batchedGemm('f32', 64, 2), batchedGemm('f64', 64, 2)]
      : []),
  ];
}

/** On a CPU device: [spelling, variant, cases] (indices into cases()). */
const CPU_RUNS: [string, GemmVariantName, number[]][] = [
  [SETTINGS[0], 'staged-k16', [0, 1, 2, 3]],
  [SETTINGS[0], 'overlap-k8', [0, 2, 3]],
  [SETTINGS[1], 'staged-k16', [1]],
  [SETTINGS[1], 'overlap-all', [0]],
  [SETTINGS[2], 'staged-k16', [0]],
  [SETTINGS[2], 'overlap-k8', [3]],
  [SETTINGS[3], 'vector-k16', [2]],
  [SETTINGS[4], 'staged-k16', [0, 3]],
  [SETTINGS[5], 'staged-k16', [1]],
];
/** On a GPU: the variants scripts/gpu-gemm-candidates.sh sweeps. */
const GPU_VARIANTS: GemmVariantName[] = ['staged-k16', 'vector-k16', 'overlap-k16', 'overlap-all'];

test('GEMM fills through vector reads (vload), fused products (fma): against the reference, via spirv-val [vulkan]', (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const gpu = !/cpu/i.test(ctx.device.type);
    const all = cases(gpu);
    type Run = [string, GemmVariantName, Omit<ExecCase, 'blas'>[]];
    const runs: Run[] = gpu
      ? [
          ...GPU_SETTINGS.flatMap((s) => GPU_VARIANTS.map((v): Run => [s, v, all])),
          ...GPU_SETTINGS.map((s): Run => [s, 'staged-k16', GPU_WORK_GROUPS.flatMap((wg) => skews(wg))]),
          ...GPU_BATCH.flatMap(([s, vs]) => vs.map((v): Run => [s, v, all])),
        ]
      : CPU_RUNS.map(([s, v, which]): Run => [s, v, which.map((i) => all[i])]);
    // Every run, the failures listed at the end (which spellings a device computes wrong, not only the first).
    const failures: string[] = [];
    for (const [setting, variant, cs] of runs)
      for (const c of cs) {
        try {
          runOnBoth(ctx, { ...c, blas: { gemm: [{ variant }], spirv: parseSpirvKnobs(setting) } });
        } catch (e) {
          const first = String((e as Error).message).split('\n')[0];
          failures.push(`${setting} ${variant} ${c.ir.split('\n')[0]}: ${first}`);
        }
      }
    assert.deepEqual(failures, []);
  } finally {
    ctx.dispose();
  }
});

/** The SPIR-V of one case under one variant and knob setting (the GPU rule's work-group), disassembled. */
function spirvText(c: Omit<ExecCase, 'blas'>, variant: GemmVariantName, setting: string): string {
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64 });
  const plan = withAddressTables(lowerVulkan(fe.compiled!.module, {}, new DiagnosticBag()))!;
  const spirv = parseSpirvKnobs(setting);
  return disassemble(emitTinytcSpirv(fe.compiled!, plan, { blas: { gemm: [{ variant }], spirv } }));
}

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** A 16 × 16 × 16 GEMM of one element type (static, whole tiles). */
const gemmOf = (t: 'i32' | 'f32') => {
  const m = `memref<${t}x16x16>`;
  return {
    ir: `func @g(%A: ${m}, %B: ${m}, %C: ${m}) {\n  gemm.n.n 1, %A, %B, 0, %C : ${t}, ${m}, ${m}, ${t}, ${m}\n}`,
    fn: 'g',
    args: () => ({}),
  };
};

test('vload: tiles read as vec2/vec4, each fill behind its alignment branch, the GEMM printed once; fma', () => {
  const knobs = 'index32,fill=hoisted,unroll=full';
  const b = batchedGemm('f64', 64, 1);
  const plain = spirvText(b, 'staged-k16', knobs);
  const v2 = spirvText(b, 'staged-k16', `${knobs},vload=2`);
  // Global vector reads: one access chain into the operand's vectors each.
  const vectorReads = (s: string, v: string) => count(s, new RegExp(`OpAccessChain %_ptr_StorageBuffer_${v} `, 'g'));
  assert.equal(vectorReads(plain, 'v2double'), 0);
  // 64 × 16 doubles of A and 16 × 64 of B per K tile on 128 work-items: 4 + 4 vec2 reads each, 4 K tiles.
  assert.equal(vectorReads(v2, 'v2double'), 4 * (4 + 4));
  assert.equal(vectorReads(spirvText(b, 'staged-k16', `${knobs},vload=4`), 'v4double'), 4 * (2 + 2));
  // The other side of each branch reads the same elements one by one: as many scalar global reads as the plain GEMM.
  const globalReads = (s: string) => count(s, /OpAccessChain %_ptr_StorageBuffer_double %bgemm_[AB] /g);
  assert.equal(globalReads(v2), globalReads(plain));
  // The products once: as many as the plain GEMM's.
  assert.equal(count(v2, /OpFMul %double/g), count(plain, /OpFMul %double/g));
  const arrays = (s: string) =>
    [...s.matchAll(/%_ptr_Workgroup__arr_double_uint_(\d+) = OpTypePointer/g)].map((m) => m[1]);
  assert.deepEqual(arrays(v2), arrays(plain));
  assert.equal(count(v2, /= OpVariable %_ptr_Workgroup__arr/g), 2);
  // One condition on the offsets of A and B (both multiples of 2 elements), a branch on it per fill: 4 K tiles × 2.
  assert.match(v2, /OpBitwiseAnd %ulong %\d+ %ulong_1\n/);
  const cond = /(%\d+) = OpLogicalAnd %bool/.exec(v2)![1];
  assert.equal(count(v2, new RegExp(`OpBranchConditional ${cond} `, 'g')), 4 * 2);
  // The vector index: the work-item's part widened once, then 64-bit static steps.
  assert.match(v2, /OpIAdd %ulong %\d+ %ulong_128\n/);
  // The overlapped variant keeps its vectors in registers across the products.
  const o = spirvText(b, 'overlap-all', `${knobs},vload=2`);
  assert.ok(count(o, /OpVariable %_ptr_Function_v2double Function/g) >= 8);
  // No vectors where they cannot be: a dynamic leading dimension, or no knob.
  const dyn = `func @d(%A: memref<f32x?x?>, %B: memref<f32x?x?>, %C: memref<f32x?x?>) {
  gemm.n.n 1.0, %A, %B, 0.0, %C : f32, memref<f32x?x?>, memref<f32x?x?>, f32, memref<f32x?x?>
}`;
  const dc = { ir: dyn, fn: 'd', args: () => ({}) };
  assert.equal(count(spirvText(dc, 'staged-k16', 'vload=4'), /v4float/g), 0);
  assert.equal(count(spirvText(batchedGemm('f32', 32, 1), 'staged-k16', 'default'), /v4float/g), 0);
  // Nor with 64-bit indices: NVIDIA's Vulkan computed that spelling wrong (gemm.ts), so vload asks for 32 bits.
  assert.equal(count(spirvText(batchedGemm('f32', 32, 1), 'staged-k16', 'vload=4'), /v4float/g), 0);
  assert.ok(count(spirvText(batchedGemm('f32', 32, 1), 'staged-k16', 'index32,vload=4'), /OpLoad %v4float/g) > 0);
  assert.throws(() => parseSpirvKnobs('vload=3'), /vload=1\|2\|4/);
  // fma: every product one GLSL.std.450 Fma (50) into its accumulator, no OpFMul left in the K loop.
  const small = batchedGemm('f32', 32, 1);
  const fused = spirvText(small, 'staged-k16', `${knobs},fma`);
  const split = spirvText(small, 'staged-k16', knobs);
  // Beta is 0: each product's OpFAdd becomes an Fma, and only alpha × acc keeps an OpFMul.
  const adds = count(split, /OpFAdd %float/g);
  assert.ok(adds >= 32 * 8, `${adds} products`);
  assert.equal(count(fused, /OpExtInst %float %\d+ 50 /g), adds);
  assert.equal(count(fused, /OpFAdd %float/g), 0);
  assert.equal(count(fused, /OpFMul %float/g), count(split, /OpFMul %float/g) - adds);
  assert.equal(
    spirvText(gemmOf('i32'), 'staged-k16', `${knobs},fma`),
    spirvText(gemmOf('i32'), 'staged-k16', knobs),
    'integers keep IMul and IAdd',
  );
});

test('batch: a K tile reads both operands before it stores either; the same module where it does not apply', () => {
  const knobs = 'index32,fill=hoisted,unroll=full,vload=2';
  const b = batchedGemm('f64', 64, 1);
  // Vector reads before the first store into a work-group array: A's 4 a work-item (64 × 16 doubles on 128), then
  // its stores; batched, B's 4 too.
  const readsBeforeStore = (s: string) => {
    const first = s.search(/OpAccessChain %_ptr_Workgroup_double /);
    return count(s.slice(0, first), /OpAccessChain %_ptr_StorageBuffer_v2double /g);
  };
  assert.equal(readsBeforeStore(spirvText(b, 'staged-k16', knobs)), 4);
  assert.equal(readsBeforeStore(spirvText(b, 'staged-k16', `${knobs},batch`)), 4 + 4);
  // The same reads and products either way, 4 K tiles.
  const plain = spirvText(b, 'staged-k16', knobs);
  const batched = spirvText(b, 'staged-k16', `${knobs},batch`);
  for (const re of [/OpAccessChain %_ptr_StorageBuffer_v2double /g, /OpFMul %double/g, /OpControlBarrier/g])
    assert.equal(count(batched, re), count(plain, re), String(re));
  // The overlapped variants copy through registers already.
  assert.equal(spirvText(b, 'overlap-k16', `${knobs},batch`), spirvText(b, 'overlap-k16', knobs));
  assert.throws(() => parseSpirvKnobs('batch=1'), /batch/);
});
