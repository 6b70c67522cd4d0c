// Registers and occupancy of the OpenCL GEMMs bench/tinytc-kernels.ts times, on NVIDIA (issue #30 goal 5: the
// 64³ kernels look latency/occupancy bound on the H200). NVIDIA's OpenCL program binary is PTX: the CUDA driver
// loads it (cuModuleLoadDataEx) and says what its ptxas made of the kernel: registers per work-item, local
// (spill) and shared bytes, and how many work-groups of the launch's size fit one SM
// (cuOccupancyMaxActiveBlocksPerMultiprocessor). The OpenCL C is generated as the runtime's tinytcKernel
// generates it (the device's limits, group tables as ulong on NVIDIA) and built through the same Context.
import { SourceFile } from '../dist/diagnostics/source.js';
import { compileTinytc } from '../dist/codegen/compile-tinytc.js';
import { codegenPolicy } from '../dist/codegen/policy.js';
import { type BlasPolicy, withTensorCores } from '../dist/codegen/blas-policy.js';
import { nvidiaComputeCapability } from '../dist/runtime/tinytc.js';
import { emitTinytcOpenCLC, tinytcClStd } from '../dist/codegen/opencl-c/index.js';
import { SPIR64 } from '../dist/layout/data-layout.js';
import type { Context } from '../dist/runtime/opencl/host.js';
import { CudaContext } from '../dist/runtime/cuda/host.js';
import { cuCheck } from '../dist/runtime/cuda/driver.js';
import { koffi } from '../dist/runtime/ffi.js';

/** CUfunction_attribute and CUdevice_attribute values (cuda.h). */
const SHARED_SIZE_BYTES = 1;
const LOCAL_SIZE_BYTES = 3;
const NUM_REGS = 4;
const MAX_THREADS_PER_MULTIPROCESSOR = 39;

type Occupancy = (out: number[], f: unknown, blockSize: number, dynamicShared: number) => number;
let cuda: { ctx: CudaContext; occupancy: Occupancy; threadsPerSm: number } | undefined;

function openProfiler() {
  if (cuda) return cuda;
  const ctx = CudaContext.open(process.env.KERNARG_DEVICE);
  const occupancy = koffi()
    .load(ctx.cu.library)
    .func(
      'int cuOccupancyMaxActiveBlocksPerMultiprocessor(_Out_ int *n, void *f, int blockSize, size_t dynamicShared)',
    ) as Occupancy;
  const out = new Int32Array(1);
  cuCheck(
    ctx.cu,
    ctx.cu.DeviceGetAttribute(out, MAX_THREADS_PER_MULTIPROCESSOR, ctx.device.ordinal),
    'cuDeviceGetAttribute',
  );
  return (cuda = { ctx, occupancy, threadsPerSm: out[0] });
}

/** One kernel's profile as a table cell: registers, spill and shared bytes, work-groups per SM and warp occupancy. */
export function ptxProfile(ptx: Buffer, name: string, threads: number): string {
  const { ctx, occupancy, threadsPerSm } = openProfiler();
  const cu = ctx.cu;
  // PTX is text: the driver reads it up to a NUL.
  const image = Buffer.concat([ptx, Buffer.from([0])]);
  const m: unknown[] = [null];
  cuCheck(cu, cu.ModuleLoadDataEx(m, image, 0, null, null), 'cuModuleLoadDataEx');
  try {
    const f: unknown[] = [null];
    cuCheck(cu, cu.ModuleGetFunction(f, m[0], name), `cuModuleGetFunction(${name})`);
    const attr = (a: number) => {
      const out = new Int32Array(1);
      cuCheck(cu, cu.FuncGetAttribute(out, a, f[0]), 'cuFuncGetAttribute');
      return out[0];
    };
    const blocks = [0];
    cuCheck(cu, occupancy(blocks, f[0], threads, 0), 'cuOccupancyMaxActiveBlocksPerMultiprocessor');
    const warps = blocks[0] * Math.ceil(threads / 32);
    const occ = (100 * warps * 32) / threadsPerSm;
    return `${attr(NUM_REGS)} regs, ${attr(LOCAL_SIZE_BYTES)} B spill, ${attr(SHARED_SIZE_BYTES)} B shared, ${blocks[0]} wg/SM, ${occ.toFixed(0)}% occ`;
  } finally {
    cuCheck(cu, cu.ModuleUnload(m[0]), 'cuModuleUnload');
  }
}

/**
 * The profile of `name` in `ir` as OpenCL's tinytcKernel builds it on `ctx` (`blas` overriding the policy, as the
 * benchmark's rows do), on `threads` work-items a group; a line saying why where the device gives no PTX.
 */
export function openclGemmProfile(
  ctx: Context,
  ir: string,
  name: string,
  blas: Partial<BlasPolicy> | undefined,
  threads: number,
): string {
  try {
    const limits = ctx.limits;
    const policy = codegenPolicy({
      maxWorkGroupSize: limits.maxWorkGroupSize,
      maxWorkItemSizes: [limits.maxWorkItemSizes[0] ?? 1, limits.maxWorkItemSizes[1] ?? 1],
    });
    const fe = compileTinytc(new SourceFile(`${name}.ir`, ir), { layout: SPIR64, policy, api: 'opencl' });
    if (!fe.compiled) return 'profile: the IR did not compile';
    // The rule's row as the runtime builds it on this device: NVIDIA's tensor-core rules first where it has them.
    const gemm = withTensorCores(fe.compiled.policy.blas.opencl.gemm, nvidiaComputeCapability(ctx));
    const text = emitTinytcOpenCLC(fe.compiled, { groupTables: 'ulong', blas: blas ?? { gemm } });
    const program = ctx.build(text, `-cl-std=${tinytcClStd(fe.compiled, 'ulong')}`, `${name}.cl`);
    const binary = ctx.cl.programBinary(program);
    ctx.cl.ReleaseProgram(program);
    if (!binary.subarray(0, 4096).toString('latin1').includes('.entry')) return 'profile: the binary is not PTX';
    return ptxProfile(binary, name, threads);
  } catch (e) {
    return `profile failed: ${String((e as Error).message).split('\n')[0]}`;
  }
}
