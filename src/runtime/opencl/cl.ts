import { koffi } from '../ffi.js';
import { RuntimeInputError } from '../../pack/errors.js';

/** OpenCL error codes by value, for messages that name them. */
export const CL_ERRORS: Record<number, string> = {
  0: 'CL_SUCCESS',
  [-1]: 'CL_DEVICE_NOT_FOUND',
  [-2]: 'CL_DEVICE_NOT_AVAILABLE',
  [-3]: 'CL_COMPILER_NOT_AVAILABLE',
  [-4]: 'CL_MEM_OBJECT_ALLOCATION_FAILURE',
  [-5]: 'CL_OUT_OF_RESOURCES',
  [-6]: 'CL_OUT_OF_HOST_MEMORY',
  [-7]: 'CL_PROFILING_INFO_NOT_AVAILABLE',
  [-10]: 'CL_IMAGE_FORMAT_NOT_SUPPORTED',
  [-11]: 'CL_BUILD_PROGRAM_FAILURE',
  [-14]: 'CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST',
  [-42]: 'CL_INVALID_BINARY',
  [-43]: 'CL_INVALID_BUILD_OPTIONS',
  [-30]: 'CL_INVALID_VALUE',
  [-32]: 'CL_INVALID_PLATFORM',
  [-33]: 'CL_INVALID_DEVICE',
  [-34]: 'CL_INVALID_CONTEXT',
  [-36]: 'CL_INVALID_COMMAND_QUEUE',
  [-38]: 'CL_INVALID_MEM_OBJECT',
  [-39]: 'CL_INVALID_IMAGE_FORMAT_DESCRIPTOR',
  [-40]: 'CL_INVALID_IMAGE_SIZE',
  [-41]: 'CL_INVALID_SAMPLER',
  [-44]: 'CL_INVALID_PROGRAM',
  [-45]: 'CL_INVALID_PROGRAM_EXECUTABLE',
  [-46]: 'CL_INVALID_KERNEL_NAME',
  [-48]: 'CL_INVALID_KERNEL',
  [-49]: 'CL_INVALID_ARG_INDEX',
  [-50]: 'CL_INVALID_ARG_VALUE',
  [-51]: 'CL_INVALID_ARG_SIZE',
  [-52]: 'CL_INVALID_KERNEL_ARGS',
  [-53]: 'CL_INVALID_WORK_DIMENSION',
  [-54]: 'CL_INVALID_WORK_GROUP_SIZE',
  [-55]: 'CL_INVALID_WORK_ITEM_SIZE',
  [-56]: 'CL_INVALID_GLOBAL_OFFSET',
  [-58]: 'CL_INVALID_EVENT',
  [-59]: 'CL_INVALID_OPERATION',
  [-61]: 'CL_INVALID_BUFFER_SIZE',
  [-63]: 'CL_INVALID_GLOBAL_WORK_SIZE',
};

export class CLError extends Error {
  constructor(
    readonly code: number,
    readonly call: string,
    detail = '',
  ) {
    super(`${call} failed: ${CL_ERRORS[code] ?? `error ${code}`}${detail ? `\n${detail}` : ''}`);
    this.name = 'CLError';
  }
}

export type Handle = bigint;

/** The OpenCL entry points kernarg uses, bound once from libOpenCL.so.1 (any ICD). */
export interface CL {
  GetPlatformIDs(n: number, out: (Handle | null)[] | null, num: number[] | null): number;
  GetPlatformInfo(p: Handle, param: number, size: number, out: Buffer | null, sizeRet: number[] | null): number;
  GetDeviceIDs(p: Handle, type: bigint, n: number, out: (Handle | null)[] | null, num: number[] | null): number;
  GetDeviceInfo(d: Handle, param: number, size: number, out: Buffer | null, sizeRet: number[] | null): number;
  CreateContext(props: null, n: number, devices: Handle[], cb: null, user: null, err: number[]): Handle;
  CreateCommandQueue(ctx: Handle, device: Handle, props: bigint, err: number[]): Handle;
  CreateBuffer(ctx: Handle, flags: bigint, size: number, host: Buffer | ArrayBufferView | null, err: number[]): Handle;
  CreateProgramWithSource(ctx: Handle, n: number, strings: string[], lengths: null, err: number[]): Handle;
  BuildProgram(p: Handle, n: number, devices: Handle[], options: string, cb: null, user: null): number;
  GetProgramBuildInfo(
    p: Handle,
    d: Handle,
    param: number,
    size: number,
    out: Buffer | null,
    sizeRet: number[] | null,
  ): number;
  CreateKernel(p: Handle, name: string, err: number[]): Handle;
  SetKernelArg(k: Handle, index: number, size: number, value: Buffer | ArrayBufferView | null): number;
  SetKernelArgMem(k: Handle, index: number, size: number, value: BigUint64Array): number;
  EnqueueNDRangeKernel(
    q: Handle,
    k: Handle,
    dims: number,
    offset: BigUint64Array | null,
    global: BigUint64Array,
    local: BigUint64Array | null,
    nEvents: number,
    events: null,
    event: (Handle | null)[] | null,
  ): number;
  EnqueueReadBuffer(
    q: Handle,
    b: Handle,
    blocking: number,
    offset: number,
    size: number,
    ptr: ArrayBufferView,
    n: number,
    events: null,
    event: null,
  ): number;
  EnqueueWriteBuffer(
    q: Handle,
    b: Handle,
    blocking: number,
    offset: number,
    size: number,
    ptr: ArrayBufferView,
    n: number,
    events: null,
    event: null,
  ): number;
  /** The same call with an event wait list, writing the new event (if wanted) into a one-element array. */
  EnqueueNDRangeKernelAfter(
    q: Handle,
    k: Handle,
    dims: number,
    offset: BigUint64Array | null,
    global: BigUint64Array,
    local: BigUint64Array | null,
    nEvents: number,
    events: BigUint64Array | null,
    event: BigUint64Array | null,
  ): number;
  Finish(q: Handle): number;
  Flush(q: Handle): number;
  WaitForEvents(n: number, events: Handle[]): number;
  /** clWaitForEvents on a worker thread: `cb(error, code)` runs on the main thread when it returns. */
  WaitForEventsAsync(n: number, events: BigUint64Array, cb: (err: unknown, code: number) => void): void;
  /** clFinish on a worker thread. */
  FinishAsync(q: Handle, cb: (err: unknown, code: number) => void): void;
  GetEventInfo(e: Handle, param: number, size: number, out: Int32Array, sizeRet: null): number;
  CreateCommandQueueWithProperties(ctx: Handle, device: Handle, props: BigUint64Array, err: number[]): Handle;
  CreateProgramWithBinary(
    ctx: Handle,
    n: number,
    devices: Handle[],
    lengths: BigUint64Array,
    binaries: Buffer[],
    status: Int32Array,
    err: number[],
  ): Handle;
  /** clCreateProgramWithIL (OpenCL 2.1), or null where the loader does not export it. */
  CreateProgramWithIL: ((ctx: Handle, il: Uint8Array, length: number, err: number[]) => Handle) | null;
  GetProgramInfo(
    p: Handle,
    param: number,
    size: number,
    out: Buffer | BigUint64Array | null,
    sizeRet: number[] | null,
  ): number;
  /** The program's binary for its one device (CL_PROGRAM_BINARY_SIZES, then CL_PROGRAM_BINARIES). */
  programBinary(p: Handle): Buffer;
  GetEventProfilingInfo(e: Handle, param: number, size: number, out: BigUint64Array, sizeRet: null): number;
  ReleaseMemObject(h: Handle): number;
  ReleaseKernel(h: Handle): number;
  ReleaseProgram(h: Handle): number;
  ReleaseCommandQueue(h: Handle): number;
  ReleaseContext(h: Handle): number;
  ReleaseEvent(h: Handle): number;
  SVMAlloc(ctx: Handle, flags: bigint, size: number, alignment: number): Handle;
  SVMFree(ctx: Handle, ptr: Handle): void;
  SetKernelArgSVMPointer(k: Handle, index: number, ptr: Handle): number;
  EnqueueSVMMap(
    q: Handle,
    blocking: number,
    flags: bigint,
    ptr: Handle,
    size: number,
    n: number,
    events: null,
    event: null,
  ): number;
  EnqueueSVMUnmap(q: Handle, ptr: Handle, n: number, events: null, event: null): number;
  CreateImage(
    ctx: Handle,
    flags: bigint,
    format: Uint32Array,
    desc: Buffer,
    host: ArrayBufferView | null,
    err: number[],
  ): Handle;
  CreateSamplerWithProperties(ctx: Handle, props: BigUint64Array, err: number[]): Handle;
  ReleaseSampler(h: Handle): number;
  EnqueueReadImage(
    q: Handle,
    img: Handle,
    blocking: number,
    origin: BigUint64Array,
    region: BigUint64Array,
    rowPitch: number,
    slicePitch: number,
    ptr: ArrayBufferView,
    n: number,
    events: null,
    event: null,
  ): number;
  SetKernelExecInfo(k: Handle, param: number, size: number, value: BigUint64Array): number;
  GetKernelWorkGroupInfo(
    k: Handle,
    d: Handle,
    param: number,
    size: number,
    out: Buffer | null,
    sizeRet: number[] | null,
  ): number;
  /** Views SVM memory (a device pointer) as host bytes. */
  view(ptr: Handle, size: number): ArrayBuffer;
}

let bound: CL | undefined;

/** Loads libOpenCL.so.1 and binds the entry points; throws a clear error when there is no OpenCL loader. */
export function openCL(): CL {
  if (bound) return bound;
  let lib: ReturnType<ReturnType<typeof koffi>['load']>;
  try {
    lib = koffi().load(
      process.platform === 'darwin' ? '/System/Library/Frameworks/OpenCL.framework/OpenCL' : 'libOpenCL.so.1',
    );
  } catch (e) {
    throw new RuntimeInputError(
      `cannot load the OpenCL library (libOpenCL.so.1): install an ICD loader (ocl-icd-libopencl1) and a driver ` +
        `(pocl-opencl-icd). ${(e as Error).message}`,
    );
  }
  const f = (proto: string) => lib.func(proto);
  const api = {
    GetPlatformIDs: f('int clGetPlatformIDs(uint32_t n, _Out_ void **p, _Out_ uint32_t *num)'),
    GetPlatformInfo: f(
      'int clGetPlatformInfo(void *p, uint32_t param, size_t size, _Out_ uint8_t *out, _Out_ size_t *ret)',
    ),
    GetDeviceIDs: f('int clGetDeviceIDs(void *p, uint64_t type, uint32_t n, _Out_ void **out, _Out_ uint32_t *num)'),
    GetDeviceInfo: f(
      'int clGetDeviceInfo(void *d, uint32_t param, size_t size, _Out_ uint8_t *out, _Out_ size_t *ret)',
    ),
    CreateContext: f(
      'void *clCreateContext(void *props, uint32_t n, void **devices, void *cb, void *user, _Out_ int *err)',
    ),
    CreateCommandQueue: f('void *clCreateCommandQueue(void *ctx, void *device, uint64_t props, _Out_ int *err)'),
    CreateBuffer: f('void *clCreateBuffer(void *ctx, uint64_t flags, size_t size, void *host, _Out_ int *err)'),
    CreateProgramWithSource: f(
      'void *clCreateProgramWithSource(void *ctx, uint32_t n, const char **strings, size_t *lengths, _Out_ int *err)',
    ),
    BuildProgram: f(
      'int clBuildProgram(void *p, uint32_t n, void **devices, const char *options, void *cb, void *user)',
    ),
    GetProgramBuildInfo: f(
      'int clGetProgramBuildInfo(void *p, void *d, uint32_t param, size_t size, _Out_ uint8_t *out, _Out_ size_t *ret)',
    ),
    CreateKernel: f('void *clCreateKernel(void *p, const char *name, _Out_ int *err)'),
    SetKernelArg: f('int clSetKernelArg(void *k, uint32_t index, size_t size, const void *value)'),
    SetKernelArgMem: f('int clSetKernelArg(void *k, uint32_t index, size_t size, const uint64_t *value)'),
    EnqueueNDRangeKernel: f(
      'int clEnqueueNDRangeKernel(void *q, void *k, uint32_t dims, const uint64_t *offset, const uint64_t *global, ' +
        'const uint64_t *local, uint32_t n, void *events, _Out_ void **event)',
    ),
    EnqueueReadBuffer: f(
      'int clEnqueueReadBuffer(void *q, void *b, uint32_t blocking, size_t offset, size_t size, _Out_ void *ptr, ' +
        'uint32_t n, void *events, void *event)',
    ),
    EnqueueWriteBuffer: f(
      'int clEnqueueWriteBuffer(void *q, void *b, uint32_t blocking, size_t offset, size_t size, const void *ptr, ' +
        'uint32_t n, void *events, void *event)',
    ),
    EnqueueNDRangeKernelAfter: f(
      'int clEnqueueNDRangeKernel(void *q, void *k, uint32_t dims, const uint64_t *offset, const uint64_t *global, ' +
        'const uint64_t *local, uint32_t n, const uint64_t *events, uint64_t *event)',
    ),
    Finish: f('int clFinish(void *q)'),
    Flush: f('int clFlush(void *q)'),
    WaitForEvents: f('int clWaitForEvents(uint32_t n, void **events)'),
    GetEventInfo: f('int clGetEventInfo(void *e, uint32_t param, size_t size, _Out_ int32_t *out, size_t *ret)'),
    CreateCommandQueueWithProperties: f(
      'void *clCreateCommandQueueWithProperties(void *ctx, void *device, const uint64_t *props, _Out_ int *err)',
    ),
    CreateProgramWithBinary: f(
      'void *clCreateProgramWithBinary(void *ctx, uint32_t n, void **devices, const uint64_t *lengths, const ' +
        'uint8_t **binaries, _Out_ int32_t *status, _Out_ int *err)',
    ),
    GetProgramInfo: f('int clGetProgramInfo(void *p, uint32_t param, size_t size, _Out_ void *out, _Out_ size_t *ret)'),
    GetEventProfilingInfo: f(
      'int clGetEventProfilingInfo(void *e, uint32_t param, size_t size, _Out_ uint64_t *out, size_t *ret)',
    ),
    ReleaseMemObject: f('int clReleaseMemObject(void *h)'),
    ReleaseKernel: f('int clReleaseKernel(void *h)'),
    ReleaseProgram: f('int clReleaseProgram(void *h)'),
    ReleaseCommandQueue: f('int clReleaseCommandQueue(void *h)'),
    ReleaseContext: f('int clReleaseContext(void *h)'),
    ReleaseEvent: f('int clReleaseEvent(void *h)'),
    SVMAlloc: f('void *clSVMAlloc(void *ctx, uint64_t flags, size_t size, uint32_t alignment)'),
    SVMFree: f('void clSVMFree(void *ctx, void *ptr)'),
    SetKernelExecInfo: f('int clSetKernelExecInfo(void *k, uint32_t param, size_t size, const uint64_t *value)'),
    GetKernelWorkGroupInfo: f(
      'int clGetKernelWorkGroupInfo(void *k, void *d, uint32_t param, size_t size, _Out_ uint8_t *out, _Out_ size_t ' +
        '*ret)',
    ),
    SetKernelArgSVMPointer: f('int clSetKernelArgSVMPointer(void *k, uint32_t index, void *ptr)'),
    EnqueueSVMMap: f(
      'int clEnqueueSVMMap(void *q, uint32_t blocking, uint64_t flags, void *ptr, size_t size, uint32_t n, void ' +
        '*events, void *event)',
    ),
    EnqueueSVMUnmap: f('int clEnqueueSVMUnmap(void *q, void *ptr, uint32_t n, void *events, void *event)'),
    CreateImage: f(
      'void *clCreateImage(void *ctx, uint64_t flags, const uint32_t *format, const uint8_t *desc, void *host, ' +
        '_Out_ int *err)',
    ),
    CreateSamplerWithProperties: f(
      'void *clCreateSamplerWithProperties(void *ctx, const uint64_t *props, _Out_ int *err)',
    ),
    ReleaseSampler: f('int clReleaseSampler(void *h)'),
    EnqueueReadImage: f(
      'int clEnqueueReadImage(void *q, void *img, uint32_t blocking, const uint64_t *origin, const uint64_t ' +
        '*region, size_t rowPitch, size_t slicePitch, _Out_ void *ptr, uint32_t n, void *events, void *event)',
    ),
  };
  const getBinaries = f('int clGetProgramInfo(void *p, uint32_t param, size_t size, const uint64_t *out, size_t *ret)');
  const programBinary = (p: Handle): Buffer => {
    const sizes = new BigUint64Array(1);
    check(api.GetProgramInfo(p, 0x1165, 8, sizes, null), 'clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)');
    const n = Number(sizes[0]);
    if (n === 0) return Buffer.alloc(0);
    // The driver writes through a pointer we hand it: native memory, copied out afterwards.
    const mem = koffi().alloc('uint8_t', n);
    try {
      check(
        getBinaries(p, 0x1166, 8, BigUint64Array.of(BigInt(koffi().address(mem) as unknown as bigint)), null),
        'clGetProgramInfo(CL_PROGRAM_BINARIES)',
      );
      return Buffer.from(new Uint8Array(koffi().view(mem as never, n)));
    } finally {
      koffi().free(mem);
    }
  };
  // An OpenCL 2.1 entry point: an older ICD loader may not export it.
  let createWithIL: CL['CreateProgramWithIL'] = null;
  try {
    createWithIL = f(
      'void *clCreateProgramWithIL(void *ctx, const uint8_t *il, size_t length, _Out_ int *err)',
    ) as unknown as CL['CreateProgramWithIL'];
  } catch {
    createWithIL = null;
  }
  const waitAsync = f('int clWaitForEvents(uint32_t n, const uint64_t *events)');
  const finishAsync = f('int clFinish(void *q)');
  bound = {
    ...(api as unknown as Omit<
      CL,
      'view' | 'WaitForEventsAsync' | 'FinishAsync' | 'programBinary' | 'CreateProgramWithIL'
    >),
    programBinary,
    CreateProgramWithIL: createWithIL,
    WaitForEventsAsync: (n, events, cb) => waitAsync.async(n, events, cb),
    FinishAsync: (q, cb) => finishAsync.async(q, cb),
    view: (ptr, size) => koffi().view(ptr as never, size),
  } as CL;
  return bound;
}

export function check(code: number, call: string, detail = ''): void {
  if (code !== 0) throw new CLError(code, call, detail);
}

/** The platforms the ICD loader knows; none (not an error) when it finds no platform at all (-1001). */
export function platformIds(cl: CL): Handle[] {
  const n = [0];
  const code = cl.GetPlatformIDs(0, null, n);
  if (code === -1001 || n[0] === 0) return [];
  check(code, 'clGetPlatformIDs');
  const platforms: (Handle | null)[] = new Array(n[0]).fill(null);
  check(cl.GetPlatformIDs(n[0], platforms, null), 'clGetPlatformIDs');
  return platforms as Handle[];
}
