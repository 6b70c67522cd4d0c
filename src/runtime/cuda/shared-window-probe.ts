// The one-thread kernel that asks a device where the dynamic shared area starts in the shared window
// (CudaContext.dynamicSharedStart): its PTX, and its launch.
import { koffi } from '../ffi.js';
import { type CuHandle, type CudaDriver, cuCheck } from './driver.js';

export const SHARED_WINDOW_PROBE_NAME = '__kernarg_shared_window';
/** One thread stores the shared-window address of the dynamic shared area (an extern array) at `out`. */
export const SHARED_WINDOW_PROBE = `.version 6.0
.target sm_50
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry ${SHARED_WINDOW_PROBE_NAME}(.param .u64 out)
{
\t.reg .b64 %rd<3>;
\tld.param.u64 %rd1, [out];
\tcvta.to.global.u64 %rd1, %rd1;
\tmov.u64 %rd2, dyn;
\tst.global.u64 [%rd1], %rd2;
\tret;
}
`;

/** Launches the probe of a module loaded from SHARED_WINDOW_PROBE, which stores at device address `out` (no wait). */
export function launchSharedWindowProbe(cu: CudaDriver, module: CuHandle, out: bigint): void {
  const f: CuHandle[] = [null];
  cuCheck(cu, cu.ModuleGetFunction(f, module, SHARED_WINDOW_PROBE_NAME), 'cuModuleGetFunction(shared-window probe)');
  const ko = koffi();
  const cell = ko.alloc('uint64_t', 1);
  const params = ko.alloc('uint64_t', 1);
  try {
    new BigUint64Array(ko.view(cell, 8))[0] = out;
    new BigUint64Array(ko.view(params, 8))[0] = BigInt(ko.address(cell));
    cuCheck(
      cu,
      cu.LaunchKernel(f[0], 1, 1, 1, 1, 1, 1, 16, 0, ko.address(params), 0),
      'cuLaunchKernel(shared-window probe)',
    );
  } finally {
    ko.free(cell);
    ko.free(params);
  }
}
