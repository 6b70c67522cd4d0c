// Every GEMM variant and axpby vector width of blas-policy.ts, generated as OpenCL C, run on the
// OpenCL test device (PoCL in CI) against the JS reference: static and dynamic shapes that the
// tiles do not divide, .n/.t on both sides, padded and non-unit first strides (no vload there),
// f32, f64 and i32, batched over group_id, explicit work-group sizes; generated GEMMs under
// generated variants (fast-check). The same GEMM variants as SPIR-V on the Vulkan test device
// (lavapipe in CI), with group arguments too, each module checked by spirv-val; the SPIR-V printer's
// axpby vector widths run in tinytc-spirv-axpby.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  type BlasPolicy,
  CPU_BLAS_POLICY,
  GPU_BLAS_POLICY,
  GEMM_VARIANTS,
  type GemmVariantName,
} from '../src/codegen/blas-policy.js';
import { API_POLICIES } from '../src/codegen/api-policies.js';
import { emitTinytcOpenCLC } from '../src/codegen/opencl-c/index.js';
import { SourceFile } from '../src/diagnostics/source.js';
import { compileTinytc } from '../src/codegen/compile-tinytc.js';
import { batchedGemmIr } from '../src/frontend/tinytc/batched-gemm-ir.js';
import { SPIR64 } from '../src/layout/data-layout.js';
import { testDevice } from './support/device.js';
import { testVulkan } from './support/vulkan-device.js';
import { type AnyContext, tinytcKernel } from '../src/runtime/api.js';
import { SPIRV_KNOB_SETTINGS, parseSpirvKnobs } from '../src/codegen/spirv-knobs.js';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { disassemble } from '../src/emit/spirv/disassemble.js';
import { withAddressTables } from '../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../src/codegen/spirv/index.js';
import { type ExecCase, randomFloats, runOnBoth, smallInts } from './support/tinytc-exec.js';
import { onDevice } from './support/on-device.js';

type T = 'f32' | 'f64' | 'i32' | 'i8';
const ARRAY = { f32: Float32Array, f64: Float64Array, i32: Int32Array, i8: Int8Array } as const;
const floats = (t: 'f32' | 'f64', n: number, seed: number) =>
  t === 'f32' ? randomFloats(Float32Array, n, seed) : randomFloats(Float64Array, n, seed);

/** A matrix parameter: its type (static or dynamic, with a stride when given) and its data. */
function mat(
  t: T,
  m: number,
  n: number,
  seed: number,
  opts: { stride?: [number, number]; dyn?: boolean; random?: boolean } = {},
) {
  const st = opts.stride;
  const len = st ? st[0] * (m - 1) + st[1] * (n - 1) + 1 : m * n;
  return {
    type: `memref<${t}x${opts.dyn ? '?x?' : `${m}x${n}`}${st ? `,strided<${st[0]},${opts.dyn ? '?' : st[1]}>` : ''}>`,
    make: () => ({
      data: opts.random && (t === 'f32' || t === 'f64') ? floats(t, len, seed) : smallInts(ARRAY[t], len, seed),
      shape: [m, n],
      ...(st ? { stride: st } : {}),
    }),
  };
}

function gemmCase(
  name: string,
  t: T,
  ta: 'n' | 't',
  tb: 'n' | 't',
  A: ReturnType<typeof mat>,
  B: ReturnType<typeof mat>,
  C: ReturnType<typeof mat>,
  wg?: [number, number],
): Omit<ExecCase, 'blas'> {
  const params = { A, B, C };
  const one = t === 'i32' ? '2' : '2.0';
  const beta = t === 'i32' ? '-1' : '-1.0';
  const ir = `func @${name}(%A: ${A.type}, %B: ${B.type}, %C: ${C.type})${wg ? ` work_group_size(${wg[0]}, ${wg[1]})` : ''} {
  gemm.${ta}.${tb} ${one}, %A, %B, ${beta}, %C : ${t}, ${A.type}, ${B.type}, ${t}, ${C.type}
}`;
  return { ir, fn: name, args: () => Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v.make()])) };
}

function batched(t: 'f32' | 'f64', n: number, howmany: number): Omit<ExecCase, 'blas'> {
  const ir = batchedGemmIr(t, n);
  return {
    ir,
    fn: 'bgemm',
    howmany,
    tol: 1e-5,
    args: () =>
      Object.fromEntries(
        ['A', 'B', 'C'].map((x, i) => [x, { data: floats(t, n * n * howmany, i + 1), shape: [n, n, howmany] }]),
      ),
  };
}

/** A batch of GEMMs through group arguments (member pointers from a table; SPIR-V reads them by buffer address), ragged sizes per member. */
function grouped(): Omit<ExecCase, 'blas'> {
  const g = 'group<memref<f32x?x?>>';
  const ir = `func @ggemm(%A: ${g}, %B: ${g}, %C: ${g}) {
  %id = group_id
  %a = load %A[%id] : ${g}
  %b = load %B[%id] : ${g}
  %c = load %C[%id] : ${g}
  gemm.t.n 1.0, %a, %b, 1.0, %c : f32, memref<f32x?x?>, memref<f32x?x?>, f32, memref<f32x?x?>
}`;
  const sizes = [
    [21, 13, 9],
    [5, 40, 17],
  ];
  const member = (m: number, n: number, seed: number) => ({
    data: randomFloats(Float32Array, m * n, seed),
    shape: [m, n],
  });
  return {
    ir,
    fn: 'ggemm',
    howmany: sizes.length,
    args: () => ({
      A: { group: sizes.map(([m, , k], i) => member(k, m, 10 + i)) },
      B: { group: sizes.map(([, n, k], i) => member(k, n, 20 + i)) },
      C: { group: sizes.map(([m, n], i) => member(m, n, 30 + i)) },
    }),
  };
}

/** A and B of another element type than C: read and converted to C's type (i8 into i32, f32 into f64). */
function mixed(): Omit<ExecCase, 'blas'>[] {
  return (
    [
      ['i8', 'i32', 'n', 't'],
      ['f32', 'f64', 't', 'n'],
    ] as const
  ).map(([ab, ct, ta, tb]) => {
    const A = ta === 'n' ? mat(ab as T, 19, 11, 1) : mat(ab as T, 11, 19, 1);
    const B = tb === 'n' ? mat(ab as T, 11, 13, 2) : mat(ab as T, 13, 11, 2);
    const C = mat(ct, 19, 13, 3);
    const ir = `func @mixed(%A: ${A.type}, %B: ${B.type}, %C: ${C.type}) {
  gemm.${ta}.${tb} 2, %A, %B, -1, %C : ${ct}, ${A.type}, ${B.type}, ${ct}, ${C.type}
}`;
    return { ir, fn: 'mixed', args: () => ({ A: A.make(), B: B.make(), C: C.make() }) };
  });
}

/** The cases every variant runs. */
function cases(): Omit<ExecCase, 'blas'>[] {
  const out: Omit<ExecCase, 'blas'>[] = [];
  // 37 × 23 × 19: no tile divides it. Padded leading strides on one side, dynamic shapes on the other.
  for (const [ta, tb, dyn] of [
    ['n', 'n', false],
    ['t', 't', false],
    ['n', 't', true],
    ['t', 'n', true],
  ] as const) {
    const A = ta === 'n' ? mat('f32', 37, 19, 1, { dyn, stride: [1, 40] }) : mat('f32', 19, 37, 1, { dyn });
    const B = tb === 'n' ? mat('f32', 19, 23, 2, { dyn }) : mat('f32', 23, 19, 2, { dyn, stride: [1, 25] });
    out.push(gemmCase(`g_${ta}${tb}${dyn ? '_dyn' : ''}`, 'f32', ta, tb, A, B, mat('f32', 37, 23, 3, { dyn })));
  }
  // Non-unit first strides (every other element): the tiles load element by element.
  out.push(
    gemmCase(
      'g_strided',
      'f64',
      'n',
      'n',
      mat('f64', 24, 40, 4, { stride: [2, 50] }),
      mat('f64', 40, 20, 5, { stride: [2, 81] }),
      mat('f64', 24, 20, 6, { stride: [3, 75] }),
    ),
  );
  // Static and whole: vload4 on both tiles; an explicit work-group whose block the shape does not fill.
  out.push(
    gemmCase(
      'g_whole',
      'f64',
      'n',
      'n',
      mat('f64', 32, 48, 7, { random: true }),
      mat('f64', 48, 32, 8, { random: true }),
      mat('f64', 32, 32, 9, { random: true }),
    ),
  );
  out.push(
    gemmCase('g_wg', 'f32', 't', 'n', mat('f32', 20, 44, 10), mat('f32', 20, 36, 11), mat('f32', 44, 36, 12), [8, 4]),
  );
  out.push(
    gemmCase(
      'g_nt',
      'f32',
      'n',
      't',
      mat('f32', 32, 16, 16, { random: true }),
      mat('f32', 32, 16, 17, { random: true }),
      mat('f32', 32, 32, 18),
    ),
  );
  out.push(gemmCase('g_i32', 'i32', 'n', 't', mat('i32', 16, 9, 13), mat('i32', 16, 9, 14), mat('i32', 16, 16, 15)));
  out.push(batched('f32', 32, 3), batched('f64', 64, 2));
  return out;
}

/** Within a family (staged-*, vector-*) the variants differ only in their K tile: two of each (several tiles that K does not divide; all of K in one) run every case, the others the ragged static one and the batched 64³ f64 one. */
function everyVariant(ctx: AnyContext, extra: Omit<ExecCase, 'blas'>[] = [], blas: Partial<BlasPolicy> = {}): void {
  const base = cases();
  const all = [...base, ...extra];
  const some = [base[0], base[base.length - 1]];
  for (const variant of GEMM_VARIANTS) {
    for (const c of variant.startsWith('direct') || variant.endsWith('-k4') || variant.endsWith('-all') ? all : some)
      runOnBoth(ctx, { ...c, blas: { ...blas, gemm: [{ variant }] } });
  }
}

test('every GEMM variant against the reference [opencl]', (t) =>
  onDevice('opencl', t, (ctx) => {
    everyVariant(ctx);
  }));

/** A GEMM of generated extents (1–40, so tiles divide some and not others), transpositions, static or dynamic types, padded strides, element type, variant and work-group. */
const generatedGemm = fc
  .record({
    m: fc.integer({ min: 1, max: 40 }),
    n: fc.integer({ min: 1, max: 40 }),
    k: fc.integer({ min: 1, max: 40 }),
    ta: fc.constantFrom('n' as const, 't' as const),
    tb: fc.constantFrom('n' as const, 't' as const),
    dyn: fc.boolean(),
    pad: fc.integer({ min: 0, max: 3 }),
    t: fc.constantFrom('f32' as const, 'f64' as const, 'i32' as const),
    variant: fc.constantFrom(...GEMM_VARIANTS),
    wg: fc.constantFrom(undefined, [8, 4] as [number, number], [16, 2] as [number, number], [4, 1] as [number, number]),
  })
  .map(({ m, n, k, ta, tb, dyn, pad, t, variant, wg }) => {
    const [ar, ac] = ta === 'n' ? [m, k] : [k, m];
    const [br, bc] = tb === 'n' ? [k, n] : [n, k];
    const A = mat(t, ar, ac, 1, { dyn, ...(pad ? { stride: [1, ar + pad] as [number, number] } : {}), random: true });
    const B = mat(t, br, bc, 2, { dyn, random: true });
    return { variant, c: gemmCase('gen', t, ta, tb, A, B, mat(t, m, n, 3, { dyn, random: true }), wg) };
  });

/** Generated GEMMs under generated variants against the reference (KERNARG_FC_RUNS, KERNARG_FC_SEED); `runs` by default (PoCL builds each kernel with clang, slower than lavapipe). */
function generatedVariants(ctx: AnyContext, runs: number): void {
  fc.assert(
    fc.property(generatedGemm, ({ variant, c }) => {
      runOnBoth(ctx, { ...c, blas: { gemm: [{ variant }] } });
    }),
    {
      numRuns: Number(process.env.KERNARG_FC_RUNS ?? runs),
      seed: Number(process.env.KERNARG_FC_SEED ?? 20261123),
      endOnFailure: true,
    },
  );
}

test('generated GEMMs under every variant against the reference (fast-check) [opencl]', (t) =>
  onDevice('opencl', t, (ctx) => {
    generatedVariants(ctx, 4);
  }));

test('generated GEMMs under every variant as SPIR-V against the reference (fast-check) [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    generatedVariants(ctx, 12);
  }));

test('every GEMM variant as SPIR-V against the reference, each module through spirv-val [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    // Groups too (their members are read by buffer address in SPIR-V, a path of its own), and mixed element types.
    everyVariant(ctx, [grouped(), ...mixed()]);
  }));

test('every GEMM variant as SPIR-V under each setting of the SPIR-V knobs against the reference, through spirv-val [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    // The batched 32³ and 64³ of the benchmark are among the cases: the shapes the knobs are swept on.
    for (const setting of SPIRV_KNOB_SETTINGS.filter((s) => s !== 'default'))
      everyVariant(ctx, [grouped(), ...mixed()], { spirv: parseSpirvKnobs(setting) });
  }));

test('generated GEMMs under every variant and generated SPIR-V knobs against the reference (fast-check) [vulkan]', (t) =>
  onDevice('vulkan', t, (ctx) => {
    const knobs = fc.record({
      index32: fc.boolean(),
      fill: fc.constantFrom('divide' as const, 'hoisted' as const),
      unroll: fc.constantFrom('none' as const, 'hint' as const, 'full' as const),
    });
    fc.assert(
      fc.property(generatedGemm, knobs, ({ variant, c }, spirv) => {
        runOnBoth(ctx, { ...c, blas: { gemm: [{ variant }], spirv } });
      }),
      {
        numRuns: Number(process.env.KERNARG_FC_RUNS ?? 16),
        seed: Number(process.env.KERNARG_FC_SEED ?? 20261123),
        endOnFailure: true,
      },
    );
  }));

test('vectorised axpby (2, 4, 8 and 16 elements) against the reference, with tails and strided operands [opencl]', (t) => {
  const ctx = testDevice(t);
  if (!ctx) return;
  try {
    for (const axpbyVector of [2, 4, 8, 16] as const) {
      for (const [n, dyn, beta] of [
        [301, true, '0.0'],
        [64, false, '1.0'],
        [37, false, '-0.5'],
      ] as const) {
        for (const t of ['f32', 'f64'] as const) {
          const v = (seed: number) => ({
            type: `memref<${t}x${dyn ? '?' : n}>`,
            make: () => ({ data: floats(t, n, seed), shape: [n] }),
          });
          const ir = `func @ax(%a: ${v(1).type}, %b: ${v(2).type}) {\n  axpby.n 1.5, %a, ${beta}, %b : ${t}, ${v(1).type}, ${t}, ${v(2).type}\n}`;
          runOnBoth(ctx, { ir, fn: 'ax', args: () => ({ a: v(1).make(), b: v(2).make() }), blas: { axpbyVector } });
        }
      }
      // Batched copy as bench/tinytc-kernels.ts times it, and a strided source (element by element).
      const mt = 'memref<f32x?x?>';
      const copy = `func @copy(%A: ${mt}, %B: ${mt}) {\n  %id = group_id\n  %a = subview %A[:, %id] : ${mt}\n  %b = subview %B[:, %id] : ${mt}\n  axpby.n 1.0, %a, 0.0, %b : f32, memref<f32x?>, f32, memref<f32x?>\n}`;
      runOnBoth(ctx, {
        ir: copy,
        fn: 'copy',
        howmany: 3,
        args: () => ({
          A: { data: randomFloats(Float32Array, 130 * 3, 3), shape: [130, 3] },
          B: { data: new Float32Array(130 * 3), shape: [130, 3] },
        }),
        blas: { axpbyVector },
      });
      const st = 'memref<f32x50,strided<2>>';
      runOnBoth(ctx, {
        ir: `func @sx(%a: ${st}, %b: memref<f32x50>) {\n  axpby.n 2.0, %a, 1.0, %b : f32, ${st}, f32, memref<f32x50>\n}`,
        fn: 'sx',
        args: () => ({
          a: { data: randomFloats(Float32Array, 99, 4), shape: [50], stride: [2] },
          b: { data: randomFloats(Float32Array, 50, 5), shape: [50] },
        }),
        blas: { axpbyVector },
      });
    }
  } finally {
    ctx.dispose();
  }
});

/** The OpenCL C of one case under one variant. */
function openclC(c: Omit<ExecCase, 'blas'>, variant: GemmVariantName, axpbyVector: 1 | 4 = 1): string {
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64 });
  return emitTinytcOpenCLC(fe.compiled!, { blas: { gemm: [{ variant }], axpbyVector } });
}

test('staged variants put tiles in local memory behind barriers, with vload4 only where the first stride is 1 and the tile whole', () => {
  const [nn, , , , strided, whole] = cases();
  assert.doesNotMatch(openclC(whole, 'direct'), /local |barrier|vload/);
  const w = openclC(whole, 'staged-all');
  // 32 × 48 doubles of A and 48 × 32 of B (+1 padding per column): all of K fits in LOCAL_BYTES (40 KiB).
  assert.match(w, /local double kernarg_a_tile\[1536\];/);
  assert.match(w, /local double kernarg_b_tile\[1568\];/);
  // Blocks of 64 × 64 with all of K would take 49.6 KiB: K is halved to 24.
  const tall = gemmCase('tall', 'f64', 'n', 'n', mat('f64', 64, 48, 1), mat('f64', 48, 64, 2), mat('f64', 64, 64, 3));
  assert.match(openclC(tall, 'staged-all'), /kernarg_kb \+= 24\)/);
  assert.equal(w.match(/barrier\(CLK_LOCAL_MEM_FENCE\)/g)?.length, 2);
  assert.equal(w.match(/vload4/g)?.length, 2);
  assert.match(openclC(nn, 'staged-k8'), /local float kernarg_a_tile\[\d+\];/);
  assert.doesNotMatch(openclC(nn, 'staged-k8'), /vload/, 'a tile that passes the matrix loads element by element');
  assert.doesNotMatch(openclC(strided, 'staged-k16'), /vload/);
  assert.match(openclC(batched('f32', 32, 1), 'staged-k16'), /vload4\(0, &a\[/);
});

test('vector variants read the neighbouring rows and columns of a work-item from the tiles as one aligned vector', () => {
  // 64³ f64 on 16 × 8 work-items (the chosen size): 4 rows and 8 columns each.
  const v = openclC(batched('f64', 64, 1), 'vector-k16');
  assert.match(v, /local double kernarg_a_tile\[1024\] __attribute__\(\(aligned\(32\)\)\);/);
  assert.match(v, /local double kernarg_b_tile\[1152\] __attribute__\(\(aligned\(64\)\)\);/);
  assert.match(
    v,
    /const double4 kernarg_v_\d+ = \*\(local double4\*\)&kernarg_a_tile\[kernarg_lid0 \* 4 \+ kernarg_k \* 64\];/,
  );
  assert.match(
    v,
    /const double8 kernarg_v_\d+ = \*\(local double8\*\)&kernarg_b_tile\[kernarg_k \* 72 \+ kernarg_lid1 \* 8\];/,
  );
  // 3 rows per work-item: element by element.
  const odd = openclC(
    gemmCase('odd', 'f32', 'n', 'n', mat('f32', 24, 8, 1), mat('f32', 8, 8, 2), mat('f32', 24, 8, 3), [8, 2]),
    'vector-all',
  );
  assert.doesNotMatch(odd, /float3|local float3/);
  assert.match(odd, /kernarg_a_tile\[kernarg_lid0 \* 3 \+ 2 \+ kernarg_k \* 24\]/);
});

test('direct-vector reads neighbouring rows of op(A) and columns of op(B) with one vload where memory has them side by side', () => {
  const cs = cases();
  const nt = openclC(
    cs.find((c) => c.fn === 'g_nt')!,
    'direct-vector',
  );
  assert.match(nt, /const float2 kernarg_v = vload2\(0, &A\[/);
  assert.match(nt, /const float4 kernarg_v_1 = vload4\(0, &B\[/);
  assert.doesNotMatch(
    openclC(
      cs.find((c) => c.fn === 'g_strided')!,
      'direct-vector',
    ),
    /vload/,
  );
  assert.doesNotMatch(
    openclC(
      cs.find((c) => c.fn === 'g_nn')!,
      'direct-vector',
    ),
    /vload/,
    'rows that pass M are read one by one, guarded',
  );
});

test('the default policy gives the GPU rule, CPU_BLAS_POLICY the direct GEMM; a rule picks by element type and size', () => {
  const b = batched('f64', 64, 1);
  assert.equal(openclC(b, 'direct'), openclC(b, 'direct'));
  const fe = compileTinytc(new SourceFile('x.ir', b.ir), { layout: SPIR64 });
  const emit = (gemm: { element?: 'f32' | 'f64'; maxSize?: number; variant: GemmVariantName }[]) =>
    emitTinytcOpenCLC(fe.compiled!, { blas: { gemm } });
  assert.match(emitTinytcOpenCLC(fe.compiled!), /local double kernarg_a_tile/, 'the GPU rule stages 64³ f64');
  assert.doesNotMatch(emitTinytcOpenCLC(fe.compiled!, { blas: CPU_BLAS_POLICY }), /local /);
  assert.match(emit([{ element: 'f64', maxSize: 64, variant: 'staged-k16' }]), /local double/);
  assert.doesNotMatch(emit([{ element: 'f32', variant: 'staged-k16' }]), /local /);
  assert.doesNotMatch(emit([{ maxSize: 32, variant: 'staged-k16' }]), /local /);
});

/** The SPIR-V of one case under one variant (the GPU rule's work-group size), disassembled. */
function spirvText(c: Omit<ExecCase, 'blas'>, variant: GemmVariantName, blas: Partial<BlasPolicy> = {}): string {
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64 });
  const plan = withAddressTables(lowerVulkan(fe.compiled!.module, {}, new DiagnosticBag()))!;
  return disassemble(emitTinytcSpirv(fe.compiled!, plan, { blas: { gemm: [{ variant }], ...blas } }));
}

/** The element counts of the module's Workgroup arrays of a type, one a variable (two tiles of one size: two). */
const workgroupArrays = (text: string, t: string) =>
  [...text.matchAll(new RegExp(`OpVariable %_ptr_Workgroup__arr_${t}_uint_(\\d+) Workgroup`, 'g'))].map((m) =>
    Number(m[1]),
  );
// Workgroup scope for execution and memory, AcquireRelease | WorkgroupMemory.
const BARRIER = /OpControlBarrier %uint_2 %uint_2 %uint_264/g;

test('SPIR-V: staged variants keep the tiles in Workgroup arrays of the OpenCL C sizes between two barriers; direct has neither', () => {
  const [, , , , , whole] = cases();
  const d = spirvText(whole, 'direct');
  assert.doesNotMatch(d, /Workgroup__arr|OpControlBarrier/);
  const w = spirvText(whole, 'staged-all');
  assert.deepEqual(workgroupArrays(w, 'double'), [1536, 1568]);
  assert.equal(w.match(BARRIER)?.length, 2);
  // Blocks of 64 × 64 doubles: K 48 halved to 24 in 40 KiB (as the OpenCL C), to 12 in the 16 KiB a device may give.
  const tall = gemmCase('tall', 'f64', 'n', 'n', mat('f64', 64, 48, 1), mat('f64', 48, 64, 2), mat('f64', 64, 64, 3));
  assert.deepEqual(workgroupArrays(spirvText(tall, 'staged-all'), 'double'), [64 * 24, 64 * 25]);
  assert.deepEqual(workgroupArrays(spirvText(tall, 'staged-all', { localBytes: 16384 }), 'double'), [64 * 12, 64 * 13]);
  // vector-*: B's tile row by row, padded by rn (64 + 8 per row of K).
  assert.deepEqual(workgroupArrays(spirvText(batched('f64', 64, 1), 'vector-k16'), 'double'), [1024, 1152]);
});

test("Vulkan runtime: a CPU device (lavapipe) keeps the direct GEMM, a GPU stages; the GPU rule's tiles fit the device's work-group memory [vulkan]", (t) => {
  const ctx = testVulkan(t);
  if (!ctx) return;
  try {
    const b = batched('f64', 64, 1);
    const spirv = (blas?: Partial<BlasPolicy>) => {
      const k = tinytcKernel(ctx, b.ir, b.fn, blas ? { blas } : {});
      k.dispose();
      return disassemble(k.spirv);
    };
    const cpu = /cpu/i.test(ctx.device.type);
    assert.equal(workgroupArrays(spirv(), 'double').length, cpu ? 0 : 2);
    const tiles = workgroupArrays(spirv(API_POLICIES.vulkan.gpu.blas), 'double');
    // 8 KiB of the device's work-group memory are left to the kernel's own arrays.
    assert.ok(
      8 * (tiles[0] + tiles[1]) <= ctx.limits.maxComputeSharedMemorySize - 8192,
      `tiles of ${tiles.join(' and ')} doubles`,
    );
    // lavapipe (32 KiB): 32 × 8 work-items (the CPU rule's size), blocks of 64 × 64, K tiles of 16 (32 would take 33 KiB);
    // B's columns unpadded (the rule's `pad=0`).
    if (cpu && ctx.limits.maxComputeSharedMemorySize === 32768) assert.deepEqual(tiles, [64 * 16, 64 * 16]);
  } finally {
    ctx.dispose();
  }
});

test('SPIR-V knobs: index32 indexes the tiles in 32 bits, hoisted fills divide once per tile, full unroll leaves no K loop and no accumulator variable', () => {
  const b = batched('f32', 64, 1);
  const knobs = (setting: string) => spirvText(b, 'staged-all', { spirv: parseSpirvKnobs(setting) });
  const plain = knobs('default');
  // Today's spelling: every index 64-bit, a UMod and a UDiv per element of each tile fill.
  assert.match(plain, /OpAccessChain %_ptr_Workgroup_float %\d+ %\d+\n/);
  assert.doesNotMatch(plain, /OpIMul %uint/);
  assert.equal(plain.match(/OpUMod %ulong/g)?.length, 2);
  const narrow = knobs('index32');
  assert.match(narrow, /OpUMod %uint/);
  assert.doesNotMatch(narrow, /OpUMod %ulong|OpIMul %ulong %\d+ %ulong_6[45]\b/, 'tile offsets and fills in 32 bits');
  // Hoisted: the work-item's fast index once per tile, outside the fill loop (two tiles: two UMods).
  const hoisted = knobs('fill=hoisted');
  assert.equal(hoisted.match(/OpUMod/g)?.length, 2);
  assert.equal(hoisted.match(/OpLoopMerge/g)?.length, plain.match(/OpLoopMerge/g)?.length);
  assert.match(knobs('unroll=hint'), /OpLoopMerge %\d+ %\d+ Unroll\n/);
  // unroll=full alone (64-bit indices) spells what unroll=hint does; with index32 it writes out:
  assert.equal(knobs('unroll=full'), knobs('unroll=hint'));
  const full = knobs('index32,unroll=full');
  // Blocks, K tiles, fills and K steps written out: no loop, and the 32 accumulators are SSA values.
  assert.doesNotMatch(full, /OpLoopMerge/);
  assert.doesNotMatch(full, /OpVariable %_ptr_Function_float/);
  assert.equal(full.match(/OpFMul %float/g)?.length, 64 * 32 + 32, '64 K steps × 32 products, and alpha × acc');
  // A K longer than UNROLL_K_STEPS keeps its loop and its accumulator variables.
  const deep = gemmCase('deep', 'f32', 'n', 'n', mat('f32', 8, 300, 1), mat('f32', 300, 8, 2), mat('f32', 8, 8, 3));
  assert.match(
    spirvText(deep, 'direct', { spirv: { index32: true, unroll: 'full' } }),
    /OpVariable %_ptr_Function_float/,
  );
  assert.throws(() => parseSpirvKnobs('unroll=most'), /SPIR-V knob 'unroll=most'/);
  assert.deepEqual(parseSpirvKnobs('index32,fill=hoisted,unroll=full'), {
    index32: true,
    fill: 'hoisted',
    unroll: 'full',
  });
});

test("SPIR-V: Vulkan's GPU policy (API_POLICIES.vulkan.gpu, VULKAN_GPU_GEMM) picks staged-k16 for the benchmarked shapes, OpenCL's the same unit's staged-all; a caller's gemm rule wins", () => {
  const b = batched('f32', 64, 1);
  const fe = compileTinytc(new SourceFile('x.ir', b.ir), { layout: SPIR64 });
  const plan = withAddressTables(lowerVulkan(fe.compiled!.module, {}, new DiagnosticBag()))!;
  const text = (blas?: Partial<BlasPolicy>) => disassemble(emitTinytcSpirv(fe.compiled!, plan, blas ? { blas } : {}));
  // staged-k16 on 16 × 8: blocks of 64 × 64, K tiles of 16 (staged-all would hold all 64); B's tile with no column
  // padded (`pad=0`: its columns' k on 16-byte boundaries).
  assert.deepEqual(workgroupArrays(text(), 'float'), [64 * 16, 64 * 16]);
  assert.deepEqual(workgroupArrays(text(API_POLICIES.vulkan.gpu.blas), 'float'), [64 * 16, 64 * 16]);
  // The OpenCL C printer reads OpenCL's entry of the same compiled unit: staged-all, K whole.
  assert.match(emitTinytcOpenCLC(fe.compiled!), /local float kernarg_a_tile\[4096\]/);
  // A caller's gemm rule wins over the API's: named alone, or as a whole policy (OpenCL's GPU rule, CPU's).
  assert.deepEqual(workgroupArrays(text({ gemm: [{ variant: 'staged-all' }] }), 'float'), [64 * 64, 64 * 65]);
  assert.deepEqual(workgroupArrays(text(GPU_BLAS_POLICY), 'float'), [64 * 64, 64 * 65]);
  assert.deepEqual(workgroupArrays(text(CPU_BLAS_POLICY), 'float'), []);
});
