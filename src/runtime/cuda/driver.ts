// The CUDA driver API entry points kernarg uses, bound once from libcuda.so.1 through koffi. No
// CUDA header is needed: the prototypes are declared here (the _v2 names are the symbols the
// driver exports for 64-bit device pointers). A machine without NVIDIA's driver gets a
// RuntimeInputError naming the library, never a stack trace.
import { koffi } from '../ffi.js';
import { RuntimeInputError } from '../../pack/errors.js';

/**
 * An opaque driver handle (CUcontext, CUmodule, CUfunction, CUevent). The bindings pass it as `uintptr_t` and hand it
 * out as a bigint (its address): koffi converts that faster than its pointer object for `void *` (about 100 ns less
 * per cuLaunchKernel call and 40 ns per event call, against test/support/mock-libcuda.c), and unlike a number past
 * 2^31 (a heap number, made anew for each call) a bigint passes without allocating.
 */
export type CuHandle = unknown;

/** CU_LAUNCH_PARAM_END, CU_LAUNCH_PARAM_BUFFER_POINTER and CU_LAUNCH_PARAM_BUFFER_SIZE: the `extra` array's keys. */
export const CU_LAUNCH_PARAM = { end: 0n, bufferPointer: 1n, bufferSize: 2n } as const;

/** The CUresult values kernarg names in messages (cuGetErrorName names the rest where the driver has it). */
export const CU_ERRORS: Readonly<Record<number, string>> = {
  0: 'CUDA_SUCCESS',
  1: 'CUDA_ERROR_INVALID_VALUE',
  2: 'CUDA_ERROR_OUT_OF_MEMORY',
  3: 'CUDA_ERROR_NOT_INITIALIZED',
  34: 'CUDA_ERROR_STUB_LIBRARY',
  35: 'CUDA_ERROR_INSUFFICIENT_DRIVER',
  100: 'CUDA_ERROR_NO_DEVICE',
  101: 'CUDA_ERROR_INVALID_DEVICE',
  200: 'CUDA_ERROR_INVALID_IMAGE',
  201: 'CUDA_ERROR_INVALID_CONTEXT',
  209: 'CUDA_ERROR_NO_BINARY_FOR_GPU',
  218: 'CUDA_ERROR_INVALID_PTX',
  221: 'CUDA_ERROR_JIT_COMPILER_NOT_FOUND',
  222: 'CUDA_ERROR_UNSUPPORTED_PTX_VERSION',
  400: 'CUDA_ERROR_INVALID_HANDLE',
  500: 'CUDA_ERROR_NOT_FOUND',
  600: 'CUDA_ERROR_NOT_READY',
  700: 'CUDA_ERROR_ILLEGAL_ADDRESS',
  701: 'CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES',
  702: 'CUDA_ERROR_LAUNCH_TIMEOUT',
  719: 'CUDA_ERROR_LAUNCH_FAILED',
};

export class CudaError extends Error {
  constructor(
    readonly code: number,
    readonly call: string,
    detail = '',
  ) {
    super(`${call} failed: ${CU_ERRORS[code] ?? `CUresult ${code}`}${detail ? `\n${detail}` : ''}`);
    this.name = 'CudaError';
  }
}

/** The driver's entry points, typed as kernarg calls them. */
export interface CudaDriver {
  /** The library the bindings came from (for messages). */
  readonly library: string;
  Init(flags: number): number;
  DriverGetVersion(out: Int32Array): number;
  DeviceGetCount(out: Int32Array): number;
  DeviceGet(out: Int32Array, ordinal: number): number;
  DeviceGetName(out: Buffer, len: number, dev: number): number;
  DeviceTotalMem(out: BigUint64Array, dev: number): number;
  DeviceGetAttribute(out: Int32Array, attribute: number, dev: number): number;
  DevicePrimaryCtxRetain(out: CuHandle[], dev: number): number;
  DevicePrimaryCtxRelease(dev: number): number;
  CtxSetCurrent(ctx: CuHandle): number;
  CtxSynchronize(): number;
  ModuleLoadDataEx(
    out: CuHandle[],
    image: Uint8Array,
    n: number,
    options: Int32Array | null,
    values: BigUint64Array | null,
  ): number;
  ModuleUnload(m: CuHandle): number;
  ModuleGetFunction(out: CuHandle[], m: CuHandle, name: string): number;
  FuncGetAttribute(out: Int32Array, attribute: number, f: CuHandle): number;
  MemAlloc(out: BigUint64Array, bytes: number): number;
  MemFree(ptr: bigint): number;
  MemcpyHtoD(dst: bigint, src: ArrayBufferView, bytes: number): number;
  MemcpyDtoH(dst: ArrayBufferView, src: bigint, bytes: number): number;
  MemsetD8(dst: bigint, value: number, bytes: number): number;
  /** `stream` 0 is the default stream; `kernelParams` and `extra` are native pointer arrays' addresses, or 0. */
  LaunchKernel(
    f: CuHandle,
    gx: number,
    gy: number,
    gz: number,
    bx: number,
    by: number,
    bz: number,
    shared: number,
    stream: 0,
    kernelParams: bigint | 0,
    extra: bigint | 0,
  ): number;
  StreamSynchronize(stream: 0): number;
  EventCreate(out: CuHandle[], flags: number): number;
  EventRecord(e: CuHandle, stream: 0): number;
  EventSynchronize(e: CuHandle): number;
  EventElapsedTime(ms: Float32Array, start: CuHandle, end: CuHandle): number;
  EventDestroy(e: CuHandle): number;
  /** cuFuncGetParamInfo (driver 12.4 and later); undefined where the driver lacks it. */
  FuncGetParamInfo?: (f: CuHandle, index: number, offset: BigUint64Array, size: BigUint64Array) => number;
  /** cuGetErrorName: the enum's name of a CUresult, or undefined. */
  errorName(code: number): string | undefined;
}

const bound = new Map<string, CudaDriver>();

/**
 * The library kernarg loads: KERNARG_LIBCUDA names another (a test's missing path, a driver outside the loader's path).
 */
export function cudaLibraryName(): string {
  return process.env.KERNARG_LIBCUDA || 'libcuda.so.1';
}

/** Loads the CUDA driver library and binds the entry points; throws a RuntimeInputError naming what is missing. */
export function openCuda(library = cudaLibraryName()): CudaDriver {
  const have = bound.get(library);
  if (have) return have;
  let lib: ReturnType<ReturnType<typeof koffi>['load']>;
  try {
    lib = koffi().load(library);
  } catch (e) {
    throw new RuntimeInputError(
      `cannot load the CUDA driver library (${library}): --api cuda needs NVIDIA's driver, which installs ` +
        `libcuda.so.1; this machine has none (${(e as Error).message.split('\n')[0]})`,
    );
  }
  const f = (proto: string) => {
    try {
      return lib.func(proto);
    } catch (e) {
      throw new RuntimeInputError(
        `the CUDA driver library ${library} lacks an entry point kernarg needs ` +
          `(${proto.replace(/\(.*/, '')}): ${(e as Error).message.split('\n')[0]}`,
      );
    }
  };
  // A handle the driver wrote: a number from koffi (uintptr_t), kept as a bigint (CuHandle says why).
  const handleOut =
    <A extends unknown[]>(call: (out: CuHandle[], ...rest: A) => number) =>
    (out: CuHandle[], ...rest: A): number => {
      const code = call(out, ...rest);
      if (typeof out[0] === 'number') out[0] = BigInt(out[0]);
      return code;
    };
  const api = {
    Init: f('int cuInit(unsigned int flags)'),
    DriverGetVersion: f('int cuDriverGetVersion(_Out_ int *version)'),
    DeviceGetCount: f('int cuDeviceGetCount(_Out_ int *count)'),
    DeviceGet: f('int cuDeviceGet(_Out_ int *dev, int ordinal)'),
    DeviceGetName: f('int cuDeviceGetName(_Out_ uint8_t *name, int len, int dev)'),
    DeviceTotalMem: f('int cuDeviceTotalMem_v2(_Out_ uint64_t *bytes, int dev)'),
    DeviceGetAttribute: f('int cuDeviceGetAttribute(_Out_ int *value, int attribute, int dev)'),
    DevicePrimaryCtxRetain: handleOut(f('int cuDevicePrimaryCtxRetain(_Out_ uintptr_t *ctx, int dev)')),
    DevicePrimaryCtxRelease: f('int cuDevicePrimaryCtxRelease_v2(int dev)'),
    CtxSetCurrent: f('int cuCtxSetCurrent(uintptr_t ctx)'),
    CtxSynchronize: f('int cuCtxSynchronize()'),
    ModuleLoadDataEx: handleOut(
      f(
        'int cuModuleLoadDataEx(_Out_ uintptr_t *module, const uint8_t *image, unsigned int n, int *options, ' +
          'uint64_t *values)',
      ),
    ),
    ModuleUnload: f('int cuModuleUnload(uintptr_t m)'),
    ModuleGetFunction: handleOut(f('int cuModuleGetFunction(_Out_ uintptr_t *f, uintptr_t m, const char *name)')),
    FuncGetAttribute: f('int cuFuncGetAttribute(_Out_ int *value, int attribute, uintptr_t f)'),
    MemAlloc: f('int cuMemAlloc_v2(_Out_ uint64_t *ptr, size_t bytes)'),
    MemFree: f('int cuMemFree_v2(uint64_t ptr)'),
    MemcpyHtoD: f('int cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes)'),
    MemcpyDtoH: f('int cuMemcpyDtoH_v2(_Out_ void *dst, uint64_t src, size_t bytes)'),
    MemsetD8: f('int cuMemsetD8_v2(uint64_t dst, uint8_t value, size_t bytes)'),
    LaunchKernel: f(
      'int cuLaunchKernel(uintptr_t f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int ' +
        'by, unsigned int bz, unsigned int shared, uintptr_t stream, uintptr_t kernelParams, uintptr_t extra)',
    ),
    StreamSynchronize: f('int cuStreamSynchronize(uintptr_t stream)'),
    EventCreate: handleOut(f('int cuEventCreate(_Out_ uintptr_t *e, unsigned int flags)')),
    EventRecord: f('int cuEventRecord(uintptr_t e, uintptr_t stream)'),
    EventSynchronize: f('int cuEventSynchronize(uintptr_t e)'),
    EventElapsedTime: f('int cuEventElapsedTime(_Out_ float *ms, uintptr_t start, uintptr_t end)'),
    EventDestroy: f('int cuEventDestroy_v2(uintptr_t e)'),
  };
  // Optional: drivers before 12.4 have no cuFuncGetParamInfo, and the host then trusts the plan alone.
  let paramInfo: CudaDriver['FuncGetParamInfo'];
  try {
    paramInfo = lib.func(
      'int cuFuncGetParamInfo(uintptr_t f, size_t index, _Out_ uint64_t *offset, _Out_ uint64_t *size)',
    ) as CudaDriver['FuncGetParamInfo'];
  } catch {
    paramInfo = undefined;
  }
  let getErrorName: ((code: number, out: (string | null)[]) => number) | undefined;
  try {
    getErrorName = lib.func('int cuGetErrorName(int error, _Out_ const char **name)') as typeof getErrorName;
  } catch {
    getErrorName = undefined;
  }
  const driver = {
    ...(api as unknown as Omit<CudaDriver, 'library' | 'errorName' | 'FuncGetParamInfo'>),
    library,
    ...(paramInfo ? { FuncGetParamInfo: paramInfo } : {}),
    errorName(code: number): string | undefined {
      if (!getErrorName) return undefined;
      const out: (string | null)[] = [null];
      return getErrorName(code, out) === 0 && out[0] ? out[0] : undefined;
    },
  } as CudaDriver;
  bound.set(library, driver);
  return driver;
}

/** Throws a CudaError for a failed call, its CUresult named by the driver where the table lacks it. */
export function cuCheck(cu: CudaDriver, code: number, call: string, detail = ''): void {
  if (code === 0) return;
  const e = new CudaError(code, call, detail);
  if (!(code in CU_ERRORS)) {
    const name = cu.errorName(code);
    if (name) e.message = `${call} failed: ${name} (CUresult ${code})${detail ? `\n${detail}` : ''}`;
  }
  throw e;
}
