// Differential target: generated tinytc programs (test/support/gen-tinytc-bodies.ts's chains of
// gemm, gemv, ger, sum, hadamard, axpby, foreach and local copies; their choices drawn from the
// fuzzer's bytes) compiled by kernarg to OpenCL C and run on the OpenCL device (PoCL here) through
// the runtime, against the JS reference (test/support/tinytc-reference.ts) on the same arguments.
// A finding is an array that differs, or a program the device refuses. kernarg's compiler runs per
// input (coverage-guided); the device runs per batch, one program build for the batch's module.
import { compileTinytc } from '../../../src/codegen/compile-tinytc.js';
import { SourceFile } from '../../../src/diagnostics/source.js';
import { SPIR64 } from '../../../src/layout/data-layout.js';
import { Context, listDevices } from '../../../src/runtime/opencl/host.js';
import { chainSpec, renderChain } from '../../support/gen-tinytc-bodies.js';
import { fromBytes } from '../differential/byte-choices.js';
import type { Disagreement } from '../differential/clang-batch.js';
import { type DeviceCase, PoclBatchOracle } from '../differential/pocl-batch.js';
import { FuzzFailure, checkLowering } from '../oracle.js';

/** Functions per program build. */
export const BATCH = 8;

/** The case an input describes; kernarg's checks of its IR (every diagnostic an error is a finding: the generator writes valid IR). */
export function deviceCase(data: Uint8Array): DeviceCase {
  const chain = renderChain(fromBytes(chainSpec, data));
  const r = checkLowering('fuzz.ir', chain.ir, { target: 'opencl', format: 'opencl-c' });
  if (r.output === undefined)
    throw new FuzzFailure(
      `kernarg refuses a generated program:\n${r.diagnostics.map((d) => d.message).join('\n')}\n--- ir ---\n${chain.ir}`,
    );
  const fe = compileTinytc(new SourceFile('fuzz.ir', chain.ir), { layout: SPIR64 });
  if (!fe.compiled) throw new FuzzFailure('kernarg lowers the program but does not compile it');
  return {
    input: data,
    ir: (name) => chain.ir.replace('func @chain(', `func @${name}(`),
    args: chain.args,
    howmany: chain.howmany,
    tol: chain.tol,
  };
}

let queue: DeviceCase[] = [];
let oracle: PoclBatchOracle | undefined;

export function fuzz(data: Uint8Array): void {
  queue.push(deviceCase(data));
}

export const differential = {
  batch: BATCH,
  pending: (): number => queue.length,
  flush(progress: () => void = () => {}): Disagreement[] {
    if (!queue.length) return [];
    if (!oracle) {
      if (!listDevices().length) throw new Error('tinytc-pocl needs an OpenCL device (pocl-opencl-icd)');
      oracle = new PoclBatchOracle(Context.open(process.env.KERNARG_DEVICE), progress);
    }
    const cases = queue;
    queue = [];
    return oracle.check(cases);
  },
  stats: () => oracle?.stats,
};
