// The PTX of the one-thread kernel that asks a device where the dynamic shared area starts in the
// shared window (CudaContext.dynamicSharedStart).

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
