// The GEMM cases the work-group-threads race checker runs (test/tinytc-gemm-races.test.ts, scripts/gemm-race-sweep.ts):
// the OpenCL C a CPU device is given for them, and a run on threads compared with the JS reference.
import { type GemmVariantName, LOCAL_BYTES } from '../../src/codegen/blas-policy.js';
import { compileTinytc } from '../../src/codegen/compile-tinytc.js';
import { emitTinytcOpenCLC } from '../../src/codegen/opencl-c/index.js';
import type { OpenclGemmKnobs } from '../../src/codegen/opencl-knobs.js';
import { CPU_DEVICE, codegenPolicy } from '../../src/codegen/policy.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { SPIR64 } from '../../src/layout/data-layout.js';
import { openclTarget } from '../../src/targets/opencl/index.js';
import { assertSameArrays, cloneArgs } from './tinytc-exec.js';
import { oddGemm } from './tinytc-gemm-cases.js';
import { runReference } from './tinytc-reference.js';
import { type HostMemref, runWorkGroupThreads } from './work-group-threads.js';

/** The policy the OpenCL runtime builds for PoCL (a CPU device of 4096 work-items, LOCAL_BYTES of tiles). */
export const CPU_POLICY = codegenPolicy({ maxWorkGroupSize: 4096, maxWorkItemSizes: [4096, 4096], ...CPU_DEVICE });

/** The OpenCL C of `ir` with its GEMMs as `variant` (and the OpenCL C knobs `opencl`), under CPU_POLICY. */
export function cpuOpenclC(ir: string, variant: GemmVariantName, opencl: OpenclGemmKnobs = {}): string {
  const fe = compileTinytc(new SourceFile('x.ir', ir), {
    target: openclTarget,
    lowerOptions: { target: 'opencl' },
    policy: CPU_POLICY,
    api: 'opencl',
  });
  return emitTinytcOpenCLC(fe.compiled!, { blas: { localBytes: LOCAL_BYTES, gemm: [{ variant }], opencl } });
}

/** The odd sizes' GEMM (tinytc-gemm-cases.ts), which the race checker runs as tinytc-gemm-overlap.test.ts does. */
export { oddGemm };

/** A function run on `howmany` work-groups with the arguments `args` gives (fresh each call). */
export interface RaceCase {
  readonly ir: string;
  readonly fn: string;
  readonly howmany: number;
  readonly args: () => Record<string, HostMemref>;
}

/** What a run on threads found: TSAN's race count, and the first array element that differs from the JS reference. */
export interface ThreadsVerdict {
  readonly races: number;
  readonly wrong: string | null;
}

/** Runs `openclC` on threads and compares every array with the JS reference. */
export function checkOnThreads(clang: string, c: RaceCase, openclC: string, what: string): ThreadsVerdict {
  const args = c.args();
  const ref = cloneArgs(args);
  const run = runWorkGroupThreads(clang, openclC, args, c.howmany);
  const fe = compileTinytc(new SourceFile('x.ir', c.ir), { layout: SPIR64 });
  runReference(
    fe.program!.funcs.find((f) => f.name === c.fn)!,
    ref,
    c.howmany,
  );
  const expected = Object.fromEntries(Object.entries(ref).map(([k, v]) => [k, (v as HostMemref).data]));
  try {
    assertSameArrays(run.arrays, expected, 1e-5, what);
    return { races: run.races, wrong: null };
  } catch (e) {
    return { races: run.races, wrong: (e as Error).message };
  }
}
