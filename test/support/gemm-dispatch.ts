// A batched GEMM (one work-group per batch item, by group_id) printed as SPIR-V under a chosen
// variant, work-group, K tile budget and SPIR-V knobs, run as a whole dispatch by the checker in
// spirv-dispatch.ts: its problems, whether every element of every C was written exactly once (and
// A and B never), and C against the in-order sums bit for bit.
import { DiagnosticBag } from '../../src/diagnostics/diagnostic.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { withAddressTables } from '../../src/targets/vulkan/address-tables.js';
import { lowerVulkan } from '../../src/targets/vulkan/lower.js';
import { emitTinytcSpirv } from '../../src/codegen/spirv/index.js';
import type { GemmVariantName } from '../../src/codegen/blas-policy.js';
import { parseSpirvKnobs } from '../../src/codegen/spirv-knobs.js';
import { compileTinytc } from '../../src/codegen/compile-tinytc.js';
import { runDispatch } from './spirv-dispatch.js';
import { randomFloats } from './tinytc-exec.js';

export interface GemmDispatchCase {
  readonly t: 'f32' | 'f64';
  readonly m: number;
  readonly k: number;
  readonly n: number;
  readonly ta: 'n' | 't';
  readonly tb: 'n' | 't';
  readonly alpha: number;
  readonly beta: number;
  readonly wg: readonly [number, number];
  readonly variant: GemmVariantName;
  /** SPIR-V knobs as the sweep writes them ('default', 'index32,unroll=full', …). */
  readonly knobs: string;
  /** Work-groups (batch items). */
  readonly howmany: number;
}

const num = (t: 'f32' | 'f64', v: number) => (Number.isInteger(v) ? `${v}.0` : String(v));

/**
 * The IR: C[:, :, id] = alpha · op(A[:, :, id]) · op(B[:, :, id]) + beta · C[:, :, id], static extents, the work-group
 * written.
 */
export function gemmDispatchIr(c: GemmDispatchCase): string {
  const [ar, ac] = c.ta === 'n' ? [c.m, c.k] : [c.k, c.m];
  const [br, bc] = c.tb === 'n' ? [c.k, c.n] : [c.n, c.k];
  const m3 = (r: number, q: number) => `memref<${c.t}x${r}x${q}x${c.howmany}>`;
  const m2 = (r: number, q: number) => `memref<${c.t}x${r}x${q}>`;
  return `func @bg(%A: ${m3(ar, ac)}, %B: ${m3(br, bc)}, %C: ${m3(c.m, c.n)}) work_group_size(${c.wg[0]}, ${c.wg[1]}) {
  %id = group_id
  %a = subview %A[:, :, %id] : ${m3(ar, ac)}
  %b = subview %B[:, :, %id] : ${m3(br, bc)}
  %c = subview %C[:, :, %id] : ${m3(c.m, c.n)}
  gemm.${c.ta}.${c.tb} ${num(c.t, c.alpha)}, %a, %b, ${num(c.t, c.beta)}, %c : ${c.t}, ${m2(ar, ac)}, ${m2(br, bc)}, ${c.t}, ${m2(c.m, c.n)}
}`;
}

/** The module kernarg prints for the case (40 KiB of tiles, as the Vulkan runtime gives a GPU). */
export function gemmDispatchSpirv(c: GemmDispatchCase): Uint32Array {
  const fe = compileTinytc(new SourceFile('bg.ir', gemmDispatchIr(c)), { layout: SPIR64, api: 'vulkan' });
  if (!fe.compiled) throw new Error(fe.diagnostics.items.map((d) => d.message).join('\n'));
  const plan = withAddressTables(lowerVulkan(fe.compiled.module, {}, new DiagnosticBag()))!;
  return emitTinytcSpirv(fe.compiled, plan, {
    blas: { gemm: [{ variant: c.variant }], localBytes: 40960, spirv: parseSpirvKnobs(c.knobs) },
  });
}

/**
 * C after the in-order sums (k = 0, 1, … into each accumulator, then alpha · acc + beta · C, as both printers write
 * it), rounded as the type.
 */
function reference(
  c: GemmDispatchCase,
  a: Float32Array | Float64Array,
  b: Float32Array | Float64Array,
  c0: Float32Array | Float64Array,
): Float32Array | Float64Array {
  const r = c.t === 'f32' ? Math.fround : (v: number) => v;
  const out = c0.slice();
  const [ar, ac] = c.ta === 'n' ? [c.m, c.k] : [c.k, c.m];
  const [br, bc] = c.tb === 'n' ? [c.k, c.n] : [c.n, c.k];
  const A = (g: number, i: number, p: number) =>
    c.ta === 'n' ? a[i + ar * p + ar * ac * g] : a[p + ar * i + ar * ac * g];
  const B = (g: number, p: number, j: number) =>
    c.tb === 'n' ? b[p + br * j + br * bc * g] : b[j + br * p + br * bc * g];
  for (let g = 0; g < c.howmany; g++)
    for (let j = 0; j < c.n; j++)
      for (let i = 0; i < c.m; i++) {
        let s = 0;
        for (let p = 0; p < c.k; p++) s = r(s + r(A(g, i, p) * B(g, p, j)));
        const at = i + c.m * j + c.m * c.n * g;
        const v = r(r(c.alpha) * s);
        out[at] = c.beta === 0 ? v : c.beta === 1 ? r(v + c0[at]) : r(v + r(r(c.beta) * c0[at]));
      }
  return out;
}

/** Runs the case's whole dispatch (or `words`, a module changed on purpose) and returns every problem found. */
export function checkGemmDispatch(c: GemmDispatchCase, words = gemmDispatchSpirv(c)): string[] {
  const make = (len: number, seed: number) =>
    c.t === 'f32' ? randomFloats(Float32Array, len, seed) : randomFloats(Float64Array, len, seed);
  const [a, b, c0] = [
    make(c.m * c.k * c.howmany, 11),
    make(c.k * c.n * c.howmany, 12),
    make(c.m * c.n * c.howmany, 13),
  ];
  const expected = reference(c, a, b, c0);
  const C = c0.slice();
  const run = runDispatch(words, 'bg', { buffers: { A: a.slice(), B: b.slice(), C }, groups: [1, 1, c.howmany] });
  const problems = [...run.problems];
  for (const name of ['A', 'B']) {
    const w = run.writes.get(name)!.findIndex((x) => x !== 0);
    if (w >= 0) problems.push(`${name}[${w}] written`);
  }
  const cw = run.writes.get('C')!;
  const bad = cw.findIndex((x) => x !== 1);
  if (bad >= 0)
    problems.push(
      `C[${bad}] written ${cw[bad]} times (${cw.filter((x) => x !== 1).length} elements not written exactly once)`,
    );
  const wrong = C.findIndex((v, i) => !Object.is(v, expected[i]));
  if (wrong >= 0) problems.push(`C[${wrong}] is ${C[wrong]}, the in-order sum ${expected[wrong]}`);
  return problems;
}
