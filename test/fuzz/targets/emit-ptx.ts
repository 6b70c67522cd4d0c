// Round trip of the `ptx` emitter: a generated OpenCL C program (test/support/gen.ts's model, its
// choices drawn from the fuzzer's bytes) lowered for cuda, emitted as PTX `.entry` lists, and read
// back by src/readers/ptx.ts must give the same plan in every field PTX carries. Byte 0 picks the
// arch, the local-memory flavour and the OpenCL C version.
import type { CudaArch, CudaLocalMemory } from '../../../src/targets/cuda/plan.js';
import { CUDA_ARCHES, CUDA_LOCAL_MEMORY } from '../../../src/targets/cuda/lower.js';
import { readPtx } from '../../../src/readers/ptx.js';
import { programSpec, render } from '../../support/gen.js';
import { fromBytes } from '../differential/byte-choices.js';
import { firstDifference, planLines } from '../differential/plan-lines.js';
import { FuzzFailure, checkLowering } from '../oracle.js';

const STDS = ['CL1.2', 'CL2.0', 'CL3.0'] as const;
/**
 * What a PTX `.entry` list says of each parameter and kernel. The CUDA driver interface's entries
 * (pocl's flavour) declare pointers as bare integers: no `.ptr` space or pointee alignment.
 */
export const PTX_SLOT_FIELDS = [
  'ptxName',
  'index',
  'offset',
  'size',
  'align',
  'ptxType',
  'space',
  'pointeeAlign',
] as const;
const BARE_POINTER_FIELDS = PTX_SLOT_FIELDS.filter((f) => f !== 'space' && f !== 'pointeeAlign');
export const PTX_KERNEL_FIELDS = ['paramBytes'] as const;

export function fuzz(data: Uint8Array): void {
  const pick = data.length ? data[0] : 0;
  const arch: CudaArch = CUDA_ARCHES[pick % CUDA_ARCHES.length];
  const localMemory: CudaLocalMemory = CUDA_LOCAL_MEMORY[(pick >> 1) % CUDA_LOCAL_MEMORY.length];
  const source = render(fromBytes(programSpec, data.subarray(1)), 'p').source;
  const r = checkLowering('fuzz.cl', source, {
    target: 'cuda',
    format: 'ptx',
    std: STDS[(pick >> 2) % 3],
    cuda: { arch, localMemory },
  });
  // No kernel (all of them under guards cuda's predefines leave out): the emitter writes nothing, which reads as no PTX.
  if (r.output === undefined || !r.plan || r.plan.kernels.length === 0) return;
  const back = readPtx(new TextEncoder().encode(r.output), 'emitted.ptx');
  if (!back.plan)
    throw new FuzzFailure(
      `the PTX kernarg emitted does not read back: ${back.diagnostics.map((d) => `${d.code} ${d.message}`).join('; ')}\n--- ptx ---\n${r.output.slice(0, 3000)}`,
    );
  const fields = localMemory === 'nvidia' ? PTX_SLOT_FIELDS : BARE_POINTER_FIELDS;
  const d = firstDifference(
    planLines(r.plan, fields, PTX_KERNEL_FIELDS),
    planLines(back.plan, fields, PTX_KERNEL_FIELDS),
  );
  if (d)
    throw new FuzzFailure(
      `the PTX kernarg emitted reads back as another plan (${arch}, ${localMemory}):\n${d}\n--- source ---\n${source}\n--- ptx ---\n${r.output.slice(0, 3000)}`,
    );
}
