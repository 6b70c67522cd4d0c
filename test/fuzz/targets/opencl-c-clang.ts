// Differential target: generated OpenCL C signatures (test/support/gen.ts's program model, its
// choices drawn from the fuzzer's bytes) lowered by kernarg for opencl and amdhsa, and compiled by
// clang-16 for spir64 and amdgcn; a finding is any slot on which they differ, or a program one
// accepts and the other refuses. kernarg runs per input (coverage-guided); clang runs per batch.
// Byte 0 picks the OpenCL C version and the code object; the rest are the program's choices.
import type { AmdhsaPlan, OpenCLPlan } from '../../../src/abi/plan.js';
import { formatDiagnostics } from '../../../src/diagnostics/format.js';
import { CLANG, findTool } from '../../support/tools.js';
import { programSpec, render } from '../../support/gen.js';
import { fromBytes } from '../differential/byte-choices.js';
import { ClangBatchOracle, type Disagreement, type Program, type Std } from '../differential/clang-batch.js';
import { checkLowering } from '../oracle.js';

const STDS: readonly Std[] = ['CL1.2', 'CL2.0', 'CL3.0'];
/** Programs per clang run (one OpenCL C version and code object): one program per run takes 6.7x the time of a batch of 48 (scripts/fuzz-oracle-batching.ts). */
export const BATCH = 48;

/** The reference tools this target runs (the smoke test requires them). */
export const tools = [CLANG] as const;

function lowerBoth(
  source: string,
  std: Std,
  codeObject: 4 | 5,
): { opencl?: OpenCLPlan; amdhsa?: AmdhsaPlan; refused?: string } {
  const cl = checkLowering('fuzz.cl', source, { target: 'opencl', format: 'json', std });
  const hsa = checkLowering('fuzz.cl', source, {
    target: 'amdhsa',
    format: 'json',
    std,
    amdhsa: { codeObject, llvm: 16 },
  });
  const refused = [cl, hsa].find((r) => !r.plan);
  return {
    ...(cl.plan?.target === 'opencl' ? { opencl: cl.plan } : {}),
    ...(hsa.plan?.target === 'amdhsa' ? { amdhsa: hsa.plan } : {}),
    ...(refused
      ? { refused: formatDiagnostics(refused.diagnostics.filter((d) => d.severity === 'error').slice(0, 3)) }
      : {}),
  };
}

/** The program an input describes, lowered by kernarg under `prefix`. */
export function program(data: Uint8Array, prefix: string): Program {
  const pick = data.length ? data[0] : 0;
  const std = STDS[pick % 3];
  const codeObject = pick & 0x10 ? 5 : 4;
  const spec = fromBytes(programSpec, data.subarray(1));
  const source = (p: string) => render(spec, p).source;
  const lowered = new Map<string, ReturnType<typeof lowerBoth>>();
  const kernarg = (p: string) => {
    let r = lowered.get(p);
    if (!r) lowered.set(p, (r = lowerBoth(source(p), std, codeObject)));
    return r;
  };
  kernarg(prefix);
  return { input: data, prefix, render: source, std, codeObject, kernarg };
}

/** Queued programs by OpenCL C version and code object: one translation unit holds one of each. */
const queues = new Map<string, Program[]>();
let next = 0;
let oracle: ClangBatchOracle | undefined;

export function fuzz(data: Uint8Array): void {
  const p = program(data, `f${next++}`);
  const key = `${p.std}/${p.codeObject}`;
  queues.set(key, [...(queues.get(key) ?? []), p]);
}

export const differential = {
  batch: BATCH,
  /** The fullest queue: a batch goes to clang when one translation unit's worth waits. */
  pending: (): number => Math.max(0, ...[...queues.values()].map((q) => q.length)),
  /** Runs clang on the full queues (every queue when `all`); the disagreements found. */
  flush(progress: () => void = () => {}, all = true): Disagreement[] {
    const programs: Program[] = [];
    for (const [key, q] of queues) {
      if (!all && q.length < BATCH) continue;
      programs.push(...q);
      queues.delete(key);
    }
    if (!programs.length) return [];
    if (!oracle) {
      const clang = findTool(CLANG);
      if (!clang) throw new Error(`opencl-c-clang needs ${CLANG.join(' or ')}`);
      oracle = new ClangBatchOracle(clang, progress);
    }
    if (![...queues.values()].some((q) => q.length)) next = 0;
    return oracle.check(programs);
  },
  stats: () => oracle?.stats,
};
