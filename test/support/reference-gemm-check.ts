// The JS reference's GEMM (tinytc-reference-blas.ts) against a second, plain implementation (plainGemm in
// tinytc-gemm-cases.ts) on the cases the GEMM execution tests run: test/tinytc-reference-gemm.test.ts once,
// scripts/reference-repeat.ts again and again in fresh processes.
import assert from 'node:assert/strict';
import { compileTinytc } from '../../src/codegen/compile-tinytc.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { batchedGemm, oddGemm, plainGemm, skewedGemm } from './tinytc-gemm-cases.js';
import type { Args, ExecCase } from './tinytc-exec.js';
import { runReference } from './tinytc-reference.js';

type Operand = Parameters<typeof plainGemm>[0];
type Case = Omit<ExecCase, 'blas'>;

/** The gemm instruction's transposes and scalars, read off the case's IR. */
function gemmOf(ir: string) {
  const m = /gemm\.([nt])\.([nt]) ([-\d.]+), .*?, ([-\d.]+), %/.exec(ir);
  assert.ok(m, `no gemm in ${ir}`);
  return { ta: m[1] as 'n' | 't', tb: m[2] as 'n' | 't', alpha: Number(m[3]), beta: Number(m[4]) };
}

/** The reference run on the case's arguments, and the C elements where it and plainGemm differ. */
export function referenceAgainstPlain(c: Case): { elements: number; differing: number[] } {
  const f = compileTinytc(new SourceFile(`${c.fn}.ir`, c.ir), { layout: SPIR64 }).program!.funcs.find(
    (x) => x.name === c.fn,
  )!;
  const args = c.args() as Args & { A: Operand; B: Operand; C: Operand };
  const { ta, tb, alpha, beta } = gemmOf(c.ir);
  const want = plainGemm(args.A, args.B, args.C, ta, tb, alpha, beta);
  runReference(f, args, c.howmany ?? 1);
  const got = args.C.data;
  const differing: number[] = [];
  for (let i = 0; i < want.length; i++) if (!Object.is(got[i], want[i])) differing.push(i);
  return { elements: want.length, differing };
}

/** The batched shapes, the odd sizes of tinytc-gemm-overlap.test.ts and two skewed batches. */
export const REFERENCE_GEMM_CASES: [string, Case][] = [
  ['32³ f32 × 2', batchedGemm('f32', 32, 2)],
  ['64³ f64 × 2', batchedGemm('f64', 64, 2)],
  ['65×63×61 f64 n.n', oddGemm('f64', 65, 63, 61, 'n', 'n', false)],
  ['37×23×19 f32 t.t dynamic', oddGemm('f32', 37, 23, 19, 't', 't', true)],
  ['33×70×45 f32 n.t', oddGemm('f32', 33, 70, 45, 'n', 't', false)],
  ['17×9×100 f64 t.n dynamic', oddGemm('f64', 17, 9, 100, 't', 'n', true)],
  ['skewed 13×11×7 f64 t.t × 3', skewedGemm('f64', 't', 't', 13, 11, 7, 301, { howmany: 3 })],
  ['skewed 9×17×5 f32 n.t × 2', skewedGemm('f32', 'n', 't', 9, 17, 5, 203, { howmany: 2 })],
];
