// How much local (work-group) memory one staged GEMM of a kernel may take. Each GEMM instruction keeps tiles of its
// own for the whole kernel, and a device counts them together: a chain of four GEMMs each within LOCAL_BYTES (40 KiB)
// asked NVIDIA's OpenCL for 49,280 bytes where it has 48 KiB (the tinytc-pocl fuzz target on an H200 found it). So the
// kernel's budget, `localBytes`, is split evenly among its GEMM instructions; a kernel of one GEMM keeps all of it.
import { type Func, instructions } from '../frontend/tinytc/ast.js';
import { type BlasPolicy, LOCAL_BYTES } from './blas-policy.js';

/** The GEMM instructions of `func`, its nested regions' too (one inside a loop is one set of tiles). */
export function gemmCount(func: Func): number {
  let n = 0;
  for (const inst of instructions(func.body)) if (inst.op === 'blas' && inst.fn === 'gemm') n++;
  return n;
}

/** `policy` with `localBytes` its share for each GEMM of `func`. */
export function perGemmPolicy<P extends BlasPolicy>(policy: P, func: Func): P {
  const n = gemmCount(func);
  return n <= 1 ? policy : { ...policy, localBytes: Math.floor((policy.localBytes ?? LOCAL_BYTES) / n) };
}
