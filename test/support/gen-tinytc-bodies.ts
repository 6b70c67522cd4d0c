// Random tinytc programs of chained collective and replicated instructions over shared memrefs,
// with random static/dynamic extents, padded strides, immediates and batch counts.
import fc from 'fast-check';
import type { Args } from './tinytc-exec.js';
import { smallInts } from './tinytc-exec.js';

type Elem = 'f32' | 'f64';

export interface ChainSpec {
  readonly element: Elem;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  /** Which extents are written `?`. */
  readonly dynamic: { readonly m: boolean; readonly n: boolean; readonly k: boolean };
  /** Extra rows of padding in the leading dimension of A and C (0: canonical), and whether that stride is `?`. */
  readonly pad: number;
  readonly padDynamic: boolean;
  readonly howmany: number;
  readonly steps: readonly Step[];
  readonly seed: number;
}

type Coef = number | 'alpha';
type Step =
  | {
      readonly kind: 'gemm' | 'gemv.n' | 'gemv.t' | 'ger' | 'sum.n' | 'sum.t' | 'sumv' | 'hadamard' | 'axpby';
      readonly alpha: Coef;
      readonly beta: Coef;
      readonly atomic: boolean;
    }
  | { readonly kind: 'scale'; readonly by: number }
  | { readonly kind: 'bump' }
  | { readonly kind: 'local'; readonly by: number };

const coef = fc.oneof(fc.constantFrom<Coef>(0, 1, -1, 0.5, 2), fc.constant<Coef>('alpha'));
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        'gemm',
        'gemv.n',
        'gemv.t',
        'ger',
        'sum.n',
        'sum.t',
        'sumv',
        'hadamard',
        'axpby',
      ) as fc.Arbitrary<'gemm'>,
      alpha: coef,
      beta: coef,
      atomic: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('scale' as const), by: fc.constantFrom(2, -1, 0.5) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'bump' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('local' as const), by: fc.constantFrom(1, 3) }) },
);

export const chainSpec: fc.Arbitrary<ChainSpec> = fc.record({
  element: fc.constantFrom<Elem>('f32', 'f64'),
  m: fc.integer({ min: 1, max: 40 }),
  n: fc.integer({ min: 1, max: 40 }),
  k: fc.integer({ min: 1, max: 24 }),
  dynamic: fc.record({ m: fc.boolean(), n: fc.boolean(), k: fc.boolean() }),
  pad: fc.constantFrom(0, 0, 3),
  padDynamic: fc.boolean(),
  howmany: fc.constantFrom(1, 1, 3),
  steps: fc.array(step, { minLength: 1, maxLength: 6 }),
  seed: fc.integer({ min: 1, max: 1000 }),
});

/** The IR, its entry point and a maker of fresh arguments. */
export function renderChain(s: ChainSpec): { ir: string; fn: string; howmany: number; args: () => Args; tol: number } {
  const T = s.element;
  const d = (v: number, dyn: boolean) => (dyn ? '?' : String(v));
  const [M, N, K] = [d(s.m, s.dynamic.m), d(s.n, s.dynamic.n), d(s.k, s.dynamic.k)];
  const ldA = s.m + s.pad;
  const ldC = s.m + s.pad;
  const strided = (ld: number, dynRows: boolean) =>
    s.pad ? `,strided<1,${s.padDynamic || dynRows ? '?' : ld},?>` : '';
  // Each argument carries a batch mode, selected by group_id.
  const full = {
    A: `memref<${T}x${M}x${K}x?${strided(ldA, s.dynamic.m)}>`,
    B: `memref<${T}x${K}x${N}x?>`,
    C: `memref<${T}x${M}x${N}x?${strided(ldC, s.dynamic.m)}>`,
    x: `memref<${T}x${K}x?>`,
    y: `memref<${T}x${M}x?>`,
    z: `memref<${T}x${N}x?>`,
    s: `memref<${T}x?>`,
  };
  const view = {
    A: s.pad
      ? `memref<${T}x${M}x${K},strided<1,${s.padDynamic || s.dynamic.m ? '?' : ldA}>>`
      : `memref<${T}x${M}x${K}>`,
    B: `memref<${T}x${K}x${N}>`,
    C: s.pad
      ? `memref<${T}x${M}x${N},strided<1,${s.padDynamic || s.dynamic.m ? '?' : ldC}>>`
      : `memref<${T}x${M}x${N}>`,
    x: `memref<${T}x${K}>`,
    y: `memref<${T}x${M}>`,
    z: `memref<${T}x${N}>`,
    s: `memref<${T}>`,
  };
  const lines = ['  %id = group_id'];
  for (const [v, t] of Object.entries(full)) {
    const slices = v === 's' ? '%id' : v === 'A' || v === 'B' || v === 'C' ? ':, :, %id' : ':, %id';
    lines.push(`  %${v} = subview %${v}_all[${slices}] : ${t}`);
  }
  const c = (x: Coef) => (x === 'alpha' ? '%alpha' : Number.isInteger(x) ? `${x}.0` : String(x));
  let local = 0;
  for (const st of s.steps) {
    if (st.kind === 'scale') {
      const i = lines.length;
      lines.push(
        `  foreach %i${i} = 0, %m {`,
        `    %v${i} = load %y[%i${i}] : ${view.y}`,
        `    %w${i} = arith.mul %v${i}, ${c(st.by)} : ${T}`,
        `    store %w${i}, %y[%i${i}] : ${view.y}`,
        '  }',
      );
      continue;
    }
    if (st.kind === 'bump') {
      const i = lines.length;
      lines.push(
        `  %b${i} = load %s[] : ${view.s}`,
        `  %c${i} = arith.add %b${i}, 1.0 : ${T}`,
        `  store %c${i}, %s[] : ${view.s}`,
      );
      continue;
    }
    if (st.kind === 'local') {
      if (s.dynamic.m) continue;
      const t = `%t${local++}`;
      lines.push(
        `  ${t} = alloca -> memref<${T}x${M}>`,
        `  axpby.n ${c(st.by)}, %y, 0.0, ${t} : ${T}, ${view.y}, ${T}, memref<${T}x${M}>`,
        `  axpby.n 1.0, ${t}, 1.0, %y : ${T}, memref<${T}x${M}>, ${T}, ${view.y}`,
      );
      continue;
    }
    // Atomic updates leave beta in {0, 1} (the order of a general-beta update across groups is not defined).
    const beta: Coef = st.atomic ? (st.beta === 0 ? 0 : 1) : st.beta;
    const at = st.atomic && s.howmany > 1 ? '.atomic' : '';
    const a = c(st.alpha);
    const b = c(beta);
    switch (st.kind) {
      case 'gemm':
        lines.push(`  gemm.n.n${at} ${a}, %A, %B, ${b}, %C : ${T}, ${view.A}, ${view.B}, ${T}, ${view.C}`);
        break;
      case 'gemv.n':
        lines.push(`  gemv.n${at} ${a}, %A, %x, ${b}, %y : ${T}, ${view.A}, ${view.x}, ${T}, ${view.y}`);
        break;
      case 'gemv.t':
        lines.push(`  gemv.t${at} ${a}, %A, %y, ${b}, %x : ${T}, ${view.A}, ${view.y}, ${T}, ${view.x}`);
        break;
      case 'ger':
        lines.push(`  ger${at} ${a}, %y, %z, ${b}, %C : ${T}, ${view.y}, ${view.z}, ${T}, ${view.C}`);
        break;
      case 'sum.n':
        lines.push(`  sum.n${at} ${a}, %C, ${b}, %y : ${T}, ${view.C}, ${T}, ${view.y}`);
        break;
      case 'sum.t':
        lines.push(`  sum.t${at} ${a}, %C, ${b}, %z : ${T}, ${view.C}, ${T}, ${view.z}`);
        break;
      case 'sumv':
        lines.push(`  sum.n${at} ${a}, %x, ${b}, %s : ${T}, ${view.x}, ${T}, ${view.s}`);
        break;
      case 'hadamard':
        lines.push(`  hadamard${at} ${a}, %z, %z, ${b}, %z : ${T}, ${view.z}, ${view.z}, ${T}, ${view.z}`);
        break;
      case 'axpby':
        lines.push(`  axpby.n${at} ${a}, %y, ${b}, %y : ${T}, ${view.y}, ${T}, ${view.y}`);
        break;
    }
  }
  lines.splice(1, 0, `  %m = size %y_all[0] : ${full.y}`);
  const params = [`%alpha: ${T}`, ...Object.entries(full).map(([v, t]) => `%${v}_all: ${t}`)];
  const ir = `func @chain(${params.join(', ')}) {\n${lines.join('\n')}\n}\n`;
  const H = s.howmany;
  const arr: new (n: number) => Float32Array | Float64Array = T === 'f32' ? Float32Array : Float64Array;
  const mat = (rows: number, cols: number, ld: number, seed: number) => ({
    data: smallInts(arr, ld * cols * H, seed),
    shape: [rows, cols, H],
    stride: [1, ld, ld * cols],
  });
  const vec = (n: number, seed: number) => ({ data: smallInts(arr, n * H, seed), shape: [n, H] });
  const args = (): Args => ({
    alpha: 1.5,
    A_all: mat(s.m, s.k, ldA, s.seed),
    B_all: mat(s.k, s.n, s.k, s.seed + 1),
    C_all: mat(s.m, s.n, ldC, s.seed + 2),
    x_all: vec(s.k, s.seed + 3),
    y_all: vec(s.m, s.seed + 4),
    z_all: vec(s.n, s.seed + 5),
    s_all: { data: smallInts(arr, H, s.seed + 6), shape: [H] },
  });
  // Non-atomic steps write each group's own slice; atomic ones add into it from that group only, so
  // results are deterministic up to rounding. Values grow along the chain: compare relatively.
  return { ir, fn: 'chain', howmany: H, args, tol: T === 'f32' ? 1e-4 : 1e-12 };
}
