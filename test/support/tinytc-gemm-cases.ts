// Batched GEMM cases the GEMM tests run against the JS reference (tinytc-gemm-vector-reads on Vulkan,
// tinytc-gemm-opencl-reads on OpenCL, tinytc-gemm-overlap on both): the benchmark's own GEMM, and one whose batch
// items sit an odd number of elements apart, so item 0's A and B start on every vector's alignment and item 1's off
// it, and each fill's run-time alignment test takes both sides in one launch.
import { batchedGemmIr } from '../../src/frontend/tinytc/batched-gemm-ir.js';
import type { ExecCase } from './tinytc-exec.js';
import { randomFloats } from './tinytc-exec.js';

export type GemmFloat = 'f32' | 'f64';

/** `n` random numbers of type `t` from `seed`. */
export const gemmFloats = (t: GemmFloat, n: number, seed: number) =>
  t === 'f32' ? randomFloats(Float32Array, n, seed) : randomFloats(Float64Array, n, seed);

/**
 * C (m × n) := 2 op(A) op(B) - C with K = k, one work-group's worth; dynamic shapes where `dyn`. The odd sizes of
 * tinytc-gemm-overlap.test.ts and the race checker's (tinytc-gemm-races.test.ts): no tile divides them.
 */
export function oddGemm(t: GemmFloat, m: number, n: number, k: number, ta: 'n' | 't', tb: 'n' | 't', dyn: boolean) {
  const ty = (r: number, c: number) => `memref<${t}x${dyn ? '?x?' : `${r}x${c}`}>`;
  const [ar, ac] = ta === 'n' ? [m, k] : [k, m];
  const [br, bc] = tb === 'n' ? [k, n] : [n, k];
  const [A, B, C] = [ty(ar, ac), ty(br, bc), ty(m, n)];
  return {
    ir: `func @odd(%A: ${A}, %B: ${B}, %C: ${C}) {
  gemm.${ta}.${tb} 2.0, %A, %B, -1.0, %C : ${t}, ${A}, ${B}, ${t}, ${C}
}`,
    fn: 'odd',
    howmany: 1,
    args: () => ({
      A: { data: gemmFloats(t, ar * ac, 1), shape: [ar, ac] },
      B: { data: gemmFloats(t, br * bc, 2), shape: [br, bc] },
      C: { data: gemmFloats(t, m * n, 3), shape: [m, n] },
    }),
  };
}

/** The benchmark's batched n³ GEMM (batched-gemm-ir.ts) on random data. */
export function batchedGemm(
  t: GemmFloat,
  n: number,
  howmany: number,
  wg?: readonly [number, number],
): Omit<ExecCase, 'blas'> {
  return {
    ir: batchedGemmIr(t, n, wg),
    fn: 'bgemm',
    howmany,
    tol: 1e-5,
    args: () =>
      Object.fromEntries(
        ['A', 'B', 'C'].map((x, i) => [x, { data: gemmFloats(t, n * n * howmany, i + 1), shape: [n, n, howmany] }]),
      ),
  };
}

/** The benchmark's four GEMMs (32³ and 64³ of f32 and f64), batched as the knob tests run them on the test device. */
export function benchmarkGemms(): Omit<ExecCase, 'blas'>[] {
  return [batchedGemm('f32', 32, 3), batchedGemm('f64', 32, 3), batchedGemm('f32', 64, 2), batchedGemm('f64', 64, 2)];
}

/**
 * m × n × k with op(A), op(B) as `ta`, `tb`, `howmany` batch items `batch` elements apart (odd), leading dimensions
 * the next multiple of 8 (a multiple of every vector width); `wg` gives the function a work-group size.
 */
export function skewedGemm(
  t: GemmFloat,
  ta: 'n' | 't',
  tb: 'n' | 't',
  m: number,
  n: number,
  k: number,
  batch: number,
  { howmany, wg }: { readonly howmany: number; readonly wg?: readonly [number, number] },
): Omit<ExecCase, 'blas'> {
  const [ar, ac] = ta === 'n' ? [m, k] : [k, m];
  const [br, bc] = tb === 'n' ? [k, n] : [n, k];
  const lda = Math.ceil(ar / 8) * 8;
  const ldb = Math.ceil(br / 8) * 8;
  const type = (r: number, c: number, ld: number) => `memref<${t}x${r}x${c}x?,strided<1,${ld},?>>`;
  const view = (r: number, c: number, ld: number) => `memref<${t}x${r}x${c},strided<1,${ld}>>`;
  const wgText = wg ? ` work_group_size(${wg[0]}, ${wg[1]})` : '';
  const cv = `memref<${t}x${m}x${n}>`;
  const ir = `func @skew(%A: ${type(ar, ac, lda)}, %B: ${type(br, bc, ldb)}, %C: memref<${t}x${m}x${n}x?>)${wgText} {
  %id = group_id
  %a = subview %A[:, :, %id] : ${type(ar, ac, lda)}
  %b = subview %B[:, :, %id] : ${type(br, bc, ldb)}
  %c = subview %C[:, :, %id] : memref<${t}x${m}x${n}x?>
  gemm.${ta}.${tb} 1.5, %a, %b, -1.0, %c : ${t}, ${view(ar, ac, lda)}, ${view(br, bc, ldb)}, ${t}, ${cv}
}`;
  const operand = (r: number, c: number, ld: number, seed: number) => ({
    data: gemmFloats(t, batch * (howmany - 1) + ld * c, seed),
    shape: [r, c, howmany],
    stride: [1, ld, batch],
  });
  return {
    ir,
    fn: 'skew',
    howmany,
    tol: 1e-5,
    args: () => ({
      A: operand(ar, ac, lda, 1),
      B: operand(br, bc, ldb, 2),
      C: { data: gemmFloats(t, m * n * howmany, 3), shape: [m, n, howmany] },
    }),
  };
}

/** An operand as these cases pass it: column-major data, shape [rows, cols] or [rows, cols, howmany]. */
interface PlainOperand {
  readonly data: Float32Array | Float64Array;
  readonly shape: readonly number[];
  readonly stride?: readonly number[];
}

/**
 * C := alpha op(A) op(B) + beta C for every batch item, by plain loops over the arrays (no tinytc, nothing of the
 * reference): each product and each sum rounded to C's type, sums in k order, as the reference and the printers add.
 * A second reference for the reference: tinytc-reference-gemm.test.ts and scripts/reference-repeat.ts.
 */
export function plainGemm(
  a: PlainOperand,
  b: PlainOperand,
  c: PlainOperand,
  ta: 'n' | 't',
  tb: 'n' | 't',
  alpha: number,
  beta: number,
): Float32Array | Float64Array {
  const r = c.data instanceof Float32Array ? Math.fround : (x: number) => x;
  const out = c.data.slice();
  const st = (o: PlainOperand) => o.stride ?? [1, o.shape[0], o.shape[0] * o.shape[1]];
  const [sa, sb, sc] = [st(a), st(b), st(c)];
  const [m, n] = c.shape;
  const k = ta === 'n' ? a.shape[1] : a.shape[0];
  const at = (o: PlainOperand, s: readonly number[], t: 'n' | 't', i: number, j: number, h: number) =>
    o.data[(t === 'n' ? i * s[0] + j * s[1] : j * s[0] + i * s[1]) + h * (s[2] ?? 0)];
  for (let h = 0; h < (c.shape[2] ?? 1); h++)
    for (let j = 0; j < n; j++)
      for (let i = 0; i < m; i++) {
        let acc = 0;
        for (let p = 0; p < k; p++) acc = r(acc + r(at(a, sa, ta, i, p, h) * at(b, sb, tb, p, j, h)));
        const x = i * sc[0] + j * sc[1] + h * (sc[2] ?? 0);
        out[x] = beta === 0 ? r(alpha * acc) : r(r(alpha * acc) + r(beta * c.data[x]));
      }
  return out;
}
