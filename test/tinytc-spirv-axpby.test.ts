// The SPIR-V printer's vector axpby (src/codegen/spirv/vector-axpby.ts) on the Vulkan test
// device (lavapipe in CI) against the JS reference, each module checked by spirv-val: widths 1, 2, 4,
// 8 and 16, lengths with and without a tail, offsets that do and do not suit the vectors (the scalar
// loop then), beta 0, 1 and other, f32 and f64, buffers as storage buffers and by address
// (--physical-storage-buffers) and group members (by address); generated lengths, offsets and widths (fast-check). What the module
// says: vector loads only where asked, the run-time check only where an offset is dynamic.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SourceFile } from '../src/diagnostics/source.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { disassemble } from '../src/emit/spirv/disassemble.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { type VulkanTargetOptions, lowerVulkan } from '../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import type { BlasPolicy } from '../src/codegen/blas-policy.js';
import type { VulkanContext } from '../src/runtime/vulkan/context.js';
import { testVulkan } from './support/vulkan-device.js';
import { type ExecCase, randomFloats, runOnBoth } from './support/tinytc-exec.js';

type Width = BlasPolicy['axpbyVector'];
type F = 'f32' | 'f64';
const WIDTHS: readonly Width[] = [1, 2, 4, 8, 16];
const PLACEMENTS: readonly { name: string; vulkan: VulkanTargetOptions }[] = [
  { name: 'storage buffers', vulkan: {} },
  { name: 'buffer addresses', vulkan: { physicalStorageBuffers: true, arch: 'spir64' } },
];
const floats = (t: F, n: number, seed: number) =>
  t === 'f32' ? randomFloats(Float32Array, n, seed) : randomFloats(Float64Array, n, seed);
const vec = (t: F, n: number, seed: number) => ({ data: floats(t, n, seed), shape: [n] });

/** A contiguous axpby: n static or dynamic, alpha a value, beta as written. */
function plain(t: F, n: number, dyn: boolean, beta: string): Omit<ExecCase, 'blas' | 'vulkan'> {
  const m = `memref<${t}x${dyn ? '?' : n}>`;
  return {
    ir: `func @ax(%al: ${t}, %a: ${m}, %b: ${m}) {\n  axpby.n %al, %a, ${beta}, %b : ${t}, ${m}, ${t}, ${m}\n}`,
    fn: 'ax',
    args: () => ({ al: 1.25, a: vec(t, n, 1), b: vec(t, n, 2) }),
  };
}

/** n elements of A from oa and of B from ob: offsets that suit the vectors or not. */
function offsets(t: F, n: number, oa: number, ob: number, beta: string): Omit<ExecCase, 'blas' | 'vulkan'> {
  const m = `memref<${t}x?>`;
  const ir = `func @off(%A: ${m}, %B: ${m}, %oa: index, %ob: index, %n: index) {
  %a = subview %A[%oa:%n] : ${m}
  %b = subview %B[%ob:%n] : ${m}
  axpby.n -0.75, %a, ${beta}, %b : ${t}, ${m}, ${t}, ${m}
}`;
  return {
    ir,
    fn: 'off',
    args: () => ({ A: vec(t, n + oa, 3), B: vec(t, n + ob, 4), oa: BigInt(oa), ob: BigInt(ob), n: BigInt(n) }),
  };
}

/** The benchmark's batched copy: column id at offset id × ld, suiting the vectors in some columns and not in others when ld is odd. */
function batched(t: F, len: number, ld: number, howmany: number): Omit<ExecCase, 'blas' | 'vulkan'> {
  const m = `memref<${t}x?x?,strided<1,?>>`;
  const ir = `func @copy(%A: ${m}, %B: ${m}) {
  %id = group_id
  %a = subview %A[:, %id] : ${m}
  %b = subview %B[:, %id] : ${m}
  axpby.n 1.0, %a, 0.0, %b : ${t}, memref<${t}x?>, ${t}, memref<${t}x?>
}`;
  const mat = (seed: number) => ({ data: floats(t, ld * howmany, seed), shape: [len, howmany], stride: [1, ld] });
  return { ir, fn: 'copy', howmany, args: () => ({ A: mat(5), B: mat(6) }) };
}

/** b := alpha b + b, a and b the same buffer. */
function inPlace(t: F, n: number): Omit<ExecCase, 'blas' | 'vulkan'> {
  const m = `memref<${t}x?>`;
  return {
    ir: `func @self(%x: ${m}) {\n  axpby.n 0.5, %x, 1.0, %x : ${t}, ${m}, ${t}, ${m}\n}`,
    fn: 'self',
    args: () => ({ x: vec(t, n, 7) }),
  };
}

/** Group members (read by buffer address under either placement), ragged lengths. */
function grouped(t: F, sizes: readonly number[]): Omit<ExecCase, 'blas' | 'vulkan'> {
  const g = `group<memref<${t}x?>>`;
  const ir = `func @grp(%X: ${g}, %Y: ${g}) {
  %id = group_id
  %x = load %X[%id] : ${g}
  %y = load %Y[%id] : ${g}
  axpby.n 3.0, %x, -1.0, %y : ${t}, memref<${t}x?>, ${t}, memref<${t}x?>
}`;
  return {
    ir,
    fn: 'grp',
    howmany: sizes.length,
    args: () => ({
      X: { group: sizes.map((n, i) => vec(t, n, 10 + i)) },
      Y: { group: sizes.map((n, i) => vec(t, n, 20 + i)) },
    }),
  };
}

function withVulkan(name: string, body: (ctx: VulkanContext) => void): void {
  test(name, (t) => {
    const ctx = testVulkan(t);
    if (!ctx) return;
    try {
      body(ctx);
    } finally {
      ctx.dispose();
    }
  });
}

withVulkan(
  'vector axpby against the reference: widths 1–16, tails, offsets that do not suit the vectors, beta 0/1/other, f32/f64, storage buffers and buffer addresses',
  (ctx) => {
    for (const { vulkan } of PLACEMENTS) {
      for (const axpbyVector of WIDTHS) {
        const run = (c: Omit<ExecCase, 'blas' | 'vulkan'>) => runOnBoth(ctx, { ...c, blas: { axpbyVector }, vulkan });
        for (const t of ['f32', 'f64'] as const) {
          run(plain(t, 301, true, '0.0'));
          run(plain(t, 64, false, '1.0'));
          run(plain(t, 37, false, '-0.5'));
          run(plain(t, 3, false, '2.0'));
          for (const [oa, ob] of [
            [0, 0],
            [1, 1],
            [0, 3],
            [4, 8],
            [2, 6],
            [8, 0],
          ])
            run(offsets(t, 45, oa, ob, oa === 0 ? '0.0' : '1.0'));
          run(offsets(t, 61, 16, 32, '0.25'));
          run(batched(t, 70, 73, 5));
          run(batched(t, 64, 66, 4));
          run(inPlace(t, 99));
          run(grouped(t, [33, 8, 1, 70]));
        }
      }
    }
  },
);

withVulkan('generated lengths, offsets, widths, betas and placements against the reference (fast-check)', (ctx) => {
  // Half the offsets multiples of 8 (every width's vectors taken), half anything (mostly the scalar loop).
  const offset = fc.oneof(
    fc.integer({ min: 0, max: 4 }).map((k) => 8 * k),
    fc.integer({ min: 0, max: 9 }),
  );
  const arb = fc.record({
    t: fc.constantFrom('f32' as const, 'f64' as const),
    n: fc.integer({ min: 1, max: 200 }),
    oa: offset,
    ob: offset,
    axpbyVector: fc.constantFrom(...WIDTHS),
    beta: fc.constantFrom('0.0', '1.0', '-1.5'),
    placement: fc.constantFrom(...PLACEMENTS),
  });
  fc.assert(
    fc.property(arb, ({ t, n, oa, ob, axpbyVector, beta, placement }) => {
      runOnBoth(ctx, { ...offsets(t, n, oa, ob, beta), blas: { axpbyVector }, vulkan: placement.vulkan });
    }),
    {
      numRuns: Number(process.env.KERNARG_FC_RUNS ?? 30),
      seed: Number(process.env.KERNARG_FC_SEED ?? 20261123),
      endOnFailure: true,
    },
  );
});

/** The module of one case as spirv-dis text. */
function spirvText(c: Omit<ExecCase, 'blas' | 'vulkan'>, axpbyVector: Width, vulkan: VulkanTargetOptions = {}): string {
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64, api: 'vulkan' });
  const plan = withAddressTables(lowerVulkan(fe.compiled!.module, vulkan, new DiagnosticBag()))!;
  return disassemble(emitTinytcSpirv(fe.compiled!, plan, { blas: { axpbyVector } }));
}

const count = (text: string, re: RegExp) => text.match(new RegExp(re.source, 'g'))?.length ?? 0;

test('the module: width 1 is the scalar loop; vectors of at most 4 through an aliased second variable; the check only for dynamic offsets; beta 0 reads no b', () => {
  const scalar = spirvText(plain('f32', 37, false, '-0.5'), 1);
  assert.doesNotMatch(scalar, /OpTypeVector %float|OpVectorTimesScalar|Aliased/);
  // Static offsets (0): no run-time check, the vector loop and the tail only.
  const s = spirvText(plain('f32', 37, false, '-0.5'), 2);
  assert.doesNotMatch(s, /OpBitwiseAnd|OpSelectionMerge/);
  assert.match(s, /%_runtimearr_v2float = OpTypeRuntimeArray %v2float/);
  assert.match(s, /OpDecorate %_runtimearr_v2float ArrayStride 8/);
  // Each buffer is a second variable at its set and binding, both Aliased.
  for (const [name, binding] of [
    ['ax_a', 0],
    ['ax_b', 1],
  ] as const) {
    for (const v of [name, `${name}_0`]) {
      assert.match(s, new RegExp(`OpDecorate %${v} Binding ${binding}\\b`));
      assert.match(s, new RegExp(`OpDecorate %${v} Aliased`));
    }
  }
  assert.equal(count(s, /OpLoad %v2float/), 2, 'a and b, one vector each');
  assert.equal(count(s, /OpLoopMerge/), 2, 'the vector loop and the tail');
  // 64 elements: no tail. 8 elements a step: two vec4s each of a and b.
  const whole = spirvText(plain('f64', 64, false, '1.0'), 8);
  assert.equal(count(whole, /OpLoopMerge/), 1);
  assert.equal(count(whole, /OpLoad %v4double/), 4);
  assert.match(whole, /ArrayStride 32/);
  // Dynamic offsets: checked at run time, the scalar loop otherwise; beta 0 loads no b.
  const d = spirvText(offsets('f32', 45, 1, 1, '0.0'), 4);
  assert.equal(count(d, /OpBitwiseAnd %ulong %\w+ %ulong_3/), 2);
  assert.equal(count(d, /OpLoopMerge/), 3, 'vector loop, tail, scalar loop');
  assert.equal(count(d, /OpLoad %v4float/), 1);
  // Buffer addresses: vector pointers with their alignment, the addresses checked.
  const p = spirvText(offsets('f64', 45, 1, 1, '1.0'), 2, PLACEMENTS[1].vulkan);
  assert.match(p, /OpConvertUToPtr %_ptr_PhysicalStorageBuffer_v2double/);
  assert.match(p, /OpLoad %v2double %\w+ Aligned 16/);
  assert.match(p, /OpStore %\w+ %\w+ Aligned 16/);
  assert.equal(count(p, /OpBitwiseAnd %ulong %\w+ %ulong_15/), 2);
  assert.doesNotMatch(p, /Aliased/);
  // Atomic, strided or mixed-type axpbys stay scalar.
  const m = 'memref<f32x50,strided<2>>';
  assert.doesNotMatch(
    spirvText(
      {
        ir: `func @sx(%a: ${m}, %b: memref<f32x50>) {\n  axpby.n 2.0, %a, 1.0, %b : f32, ${m}, f32, memref<f32x50>\n}`,
        fn: 'sx',
        args: () => ({}),
      },
      4,
    ),
    /OpVectorTimesScalar/,
  );
  assert.doesNotMatch(
    spirvText(
      {
        ir: 'func @at(%a: memref<f32x?>, %b: memref<f32x?>) {\n  axpby.n.atomic 2.0, %a, 1.0, %b : f32, memref<f32x?>, f32, memref<f32x?>\n}',
        fn: 'at',
        args: () => ({}),
      },
      4,
    ),
    /OpVectorTimesScalar/,
  );
  assert.doesNotMatch(
    spirvText(
      {
        ir: 'func @mx(%a: memref<f32x64>, %b: memref<f64x64>) {\n  axpby.n 2.0, %a, 1.0, %b : f64, memref<f32x64>, f64, memref<f64x64>\n}',
        fn: 'mx',
        args: () => ({}),
      },
      4,
    ),
    /OpVectorTimesScalar/,
  );
});
