// The CUDA driver API host: a device's primary context, device buffers, modules loaded from PTX
// text or cubin bytes, and kernels launched with arguments packed by the cuda plan. The shapes
// follow the OpenCL host (Context, DeviceBuffer, Kernel with launch/enqueue/launchAndWait): the
// same typed JS arguments, checked against the plan before the driver is called, and nothing
// allocated per launch once warm (the packer's buffer is copied into native memory that the
// `kernelParams` pointers and the `extra` array point at, both written once per kernel).
import type { CudaKernelPlan, CudaLocalMemory, CudaPlan } from '../../targets/cuda/plan.js';
import { cudaTarget } from '../../targets/cuda/index.js';
import { koffi } from '../ffi.js';
import { LaunchError, PackError, RuntimeInputError } from '../../pack/errors.js';
import { checkNames } from '../../pack/launch.js';
import { compileNameCheck } from '../../pack/compiled-list.js';
import { codegenAllowed } from '../../pack/compiled.js';
import type { SegmentPacker } from '../../pack/views.js';
import { type CuHandle, type CudaDriver, CudaError, cuCheck, openCuda } from './driver.js';
import {
  type CudaLaunchLimits,
  type DriverParam,
  cudaGeometry,
  extraImage,
  kernelParamsImage,
  paramDifferences,
} from './launch-images.js';
import { type SharedLayout, dynamicSharedWindow, sharedLayout } from './shared-memory.js';
import { placedForDevice, readParamInfo } from './device-params.js';
import { loadModuleImage } from './module-image.js';
import { NVPTX_ADDRESS_OVERFLOW } from '../../targets/cuda/placement.js';
import { ATTR, type CudaDeviceInfo, listCudaDevices } from './devices.js';
import type { CudaKernelOptions, CudaLaunch, CudaParamForm } from './launch-options.js';
import { SHARED_WINDOW_PROBE, launchSharedWindowProbe } from './shared-window-probe.js';
import { type LaunchWriter, compileLaunchWriter } from './launch-writer.js';

const release = new FinalizationRegistry<() => void>((free) => {
  try {
    free();
  } catch {
    // The context may be gone already: nothing left to free.
  }
});

/** One device's primary context, made current on this thread. */
export class CudaContext {
  readonly limits: CudaLaunchLimits;
  /** The device's architecture as the cuda target's `--sm` numbers it (major * 10 + minor). */
  readonly sm: number;
  private disposed = false;
  private sharedWindowStart?: number;

  private constructor(
    readonly cu: CudaDriver,
    readonly device: CudaDeviceInfo,
    readonly handle: CuHandle,
  ) {
    const v = new Int32Array(1);
    const attr = (a: number) => {
      cuCheck(cu, cu.DeviceGetAttribute(v, a, device.ordinal), 'cuDeviceGetAttribute');
      return v[0];
    };
    this.limits = {
      maxThreadsPerBlock: attr(ATTR.maxThreadsPerBlock),
      maxBlockDim: [attr(ATTR.maxBlockDimX), attr(ATTR.maxBlockDimX + 1), attr(ATTR.maxBlockDimX + 2)],
      maxGridDim: [attr(ATTR.maxGridDimX), attr(ATTR.maxGridDimX + 1), attr(ATTR.maxGridDimX + 2)],
    };
    this.sm = attr(ATTR.ccMajor) * 10 + attr(ATTR.ccMinor);
  }

  /**
   * Where a kernel's dynamic shared memory starts in the shared window when it has no static shared
   * memory: asked of the device once, by a one-thread kernel that stores the address of an extern
   * shared array (the window may begin with memory the system reserves, so it is not assumed 0).
   */
  dynamicSharedStart(): number {
    if (this.sharedWindowStart !== undefined) return this.sharedWindowStart;
    const m = this.module(SHARED_WINDOW_PROBE, 'the shared-window probe');
    const out = this.buffer<BigUint64Array>(8);
    try {
      launchSharedWindowProbe(this.cu, m.handle, out.address);
      this.synchronize();
      this.sharedWindowStart = Number(out.read(new BigUint64Array(1))[0]);
      return this.sharedWindowStart;
    } finally {
      out.dispose();
      m.dispose();
    }
  }

  /** The first device whose name contains `match` (case-insensitive), or the first device; `cu` another driver's bindings (tests). */
  static open(match?: string, cu: CudaDriver = openCuda()): CudaContext {
    const all = listCudaDevices(cu);
    if (!all.length) throw new RuntimeInputError(`the CUDA driver (${cu.library}) sees no device`);
    const m = match?.toLowerCase();
    const d = m ? all.find((x) => `${x.platform} ${x.name}`.toLowerCase().includes(m)) : all[0];
    if (!d)
      throw new RuntimeInputError(`no CUDA device matches '${match}' (have: ${all.map((x) => x.name).join('; ')})`);
    const out: CuHandle[] = [null];
    cuCheck(cu, cu.DevicePrimaryCtxRetain(out, d.ordinal), 'cuDevicePrimaryCtxRetain');
    cuCheck(cu, cu.CtxSetCurrent(out[0]), 'cuCtxSetCurrent');
    return new CudaContext(cu, d, out[0]);
  }

  /** A device buffer holding a copy of `init`, or `init` bytes set to zero. */
  buffer<T extends ArrayBufferView>(init: T): CudaBuffer<T>;
  buffer<T extends ArrayBufferView = ArrayBufferView>(bytes: number): CudaBuffer<T>;
  buffer(init: ArrayBufferView | number): CudaBuffer {
    const size = typeof init === 'number' ? init : init.byteLength;
    if (!Number.isSafeInteger(size) || size <= 0)
      throw new RuntimeInputError(`a buffer needs a positive whole number of bytes, not ${size}`);
    if (size > this.device.totalMemory)
      throw new RuntimeInputError(
        `a buffer of ${size} bytes is more than the device's ${this.device.totalMemory} bytes of memory`,
      );
    const out = new BigUint64Array(1);
    cuCheck(this.cu, this.cu.MemAlloc(out, size), `cuMemAlloc(${size})`);
    const b = new CudaBuffer(this, out[0], size);
    if (typeof init === 'number') cuCheck(this.cu, this.cu.MemsetD8(out[0], 0, size), 'cuMemsetD8');
    else b.write(init);
    return b;
  }

  /**
   * Loads a module from PTX text or cubin bytes (cuModuleLoadDataEx, PTX compiled by the driver's
   * JIT for this device); a refusal carries the JIT's error log.
   */
  module(image: string | Uint8Array, origin = 'module'): CudaModule {
    return new CudaModule(this, loadModuleImage(this.cu, image, origin), origin);
  }

  /** Blocks until everything launched in this context has finished. */
  synchronize(): void {
    cuCheck(this.cu, this.cu.CtxSynchronize(), 'cuCtxSynchronize');
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cu.DevicePrimaryCtxRelease(this.device.ordinal);
  }
}

/** Device memory; `address` is what a pointer parameter receives (the packer reads it). */
export class CudaBuffer<T extends ArrayBufferView = ArrayBufferView> {
  /** Never set: carries the element type for the type checker. */
  declare readonly element?: T;
  private freed = false;

  constructor(
    readonly ctx: CudaContext,
    readonly address: bigint,
    readonly size: number,
  ) {
    const { cu } = ctx;
    release.register(this, () => cu.MemFree(address), this);
  }

  write(data: ArrayBufferView, bytes = data.byteLength): void {
    if (bytes > this.size) throw new RuntimeInputError(`${bytes} bytes do not fit a buffer of ${this.size}`);
    cuCheck(this.ctx.cu, this.ctx.cu.MemcpyHtoD(this.address, data, bytes), 'cuMemcpyHtoD');
  }

  /** Copies the buffer's first `into.byteLength` bytes into `into` (after the context's work has finished). */
  read<U extends ArrayBufferView>(into: U): U {
    if (into.byteLength > this.size)
      throw new RuntimeInputError(`cannot read ${into.byteLength} bytes from a buffer of ${this.size}`);
    cuCheck(this.ctx.cu, this.ctx.cu.MemcpyDtoH(into, this.address, into.byteLength), 'cuMemcpyDtoH');
    return into;
  }

  dispose(): void {
    if (this.freed) return;
    this.freed = true;
    release.unregister(this);
    this.ctx.cu.MemFree(this.address);
  }
}

/** A loaded module: its kernels by name, each with the cuda plan that packs its arguments. */
export class CudaModule {
  private unloaded = false;
  constructor(
    readonly ctx: CudaContext,
    readonly handle: CuHandle,
    readonly origin: string,
  ) {
    const { cu } = ctx;
    release.register(this, () => cu.ModuleUnload(handle), this);
  }

  kernel(name: string, plan: CudaPlan, options: CudaKernelOptions = {}): CudaKernel {
    return new CudaKernel(this, name, plan, options);
  }

  dispose(): void {
    if (this.unloaded) return;
    this.unloaded = true;
    release.unregister(this);
    this.ctx.cu.ModuleUnload(this.handle);
  }
}

/**
 * A kernel of a loaded module with its plan's packer. On construction the plan is checked against
 * cuFuncGetParamInfo where the driver has it (12.4 and later): `driverParams` holds the driver's
 * answers, and a difference is refused unless `strict: false`.
 */
export class CudaKernel {
  readonly handle: CuHandle;
  readonly plan: CudaKernelPlan;
  /** cuFuncGetParamInfo's answers, or undefined where the driver lacks the call. */
  readonly driverParams?: readonly DriverParam[];
  readonly driverDifferences: readonly string[];
  private readonly packer: SegmentPacker;
  private readonly names: readonly string[];
  /** The arguments as the packer reads them: the caller's, buffers given for integer parameters turned into addresses. Reused. */
  private readonly resolved: Record<string, unknown> = {};
  private readonly pointerWidth: ReadonlyMap<string, 4 | 8>;
  private readonly geometry = new Uint32Array(6);
  /** The global and local sizes the geometry was last checked for (0: none): a launch with the same values reuses it. */
  private readonly checkedSizes = new Float64Array(6);
  /** The names of a launch's arguments checked by one compiled switch (undefined where code generation is off): the full check only on a miss, for its message. */
  private readonly namesOk?: (args: unknown) => boolean;
  /** The launch the packer reads (geometry for pocl's appended parameters): one object, its size set per launch. */
  private readonly launchInfo: { global: readonly number[] } = { global: [1] };
  /** The local parameters (dynamicShared order): their sizes per launch, and the values the layout gives them. */
  private readonly localSizes: number[];
  private readonly planLocal: CudaLocalMemory;
  /** Per name of the packer (in its order): a local parameter, whose value placeShared sets. */
  private readonly isLocal: boolean[];
  private readonly localArgs: { local: number; offset: number }[];
  private readonly shared: SharedLayout;
  /** nvidia local memory: the kernel's dynamic shared area in the shared window (asked once, on the first launch with local arguments). */
  private sharedWindow?: number;
  /** Native memory: the parameter buffer, the kernelParams array, the extra array and its size cell. */
  private readonly native: unknown;
  private readonly nativeBytes: Uint8Array;
  /** The compiled launch writer (launch-writer.ts) where the parameters allow one, and the bytes it writes. */
  private readonly writeLaunch?: LaunchWriter;
  private readonly staged: Uint8Array;
  private readonly stagedView: DataView;
  /** The kernelParams and extra arrays' addresses, as cuLaunchKernel takes them. */
  private readonly kernelParams: bigint;
  private readonly extra: bigint;
  private readonly nativeAllocs: unknown[];
  private readonly form: CudaParamForm;
  private events?: [CuHandle, CuHandle];
  private readonly elapsed = new Float32Array(1);
  private disposed = false;

  constructor(
    readonly module: CudaModule,
    readonly name: string,
    plan: CudaPlan,
    options: CudaKernelOptions = {},
  ) {
    if (!plan.kernels.some((x) => x.name === name))
      throw new RuntimeInputError(
        `no kernel named '${name}' in the plan (have ${plan.kernels.map((x) => x.name).join(', ') || 'none'})`,
      );
    const { cu } = module.ctx;
    const out: CuHandle[] = [null];
    cuCheck(cu, cu.ModuleGetFunction(out, module.handle, name), `cuModuleGetFunction(${name})`);
    this.handle = out[0];
    const driverParams = readParamInfo(cu, this.handle);
    if (driverParams) this.driverParams = driverParams;
    // The parameters as this device's driver places them (the plan may have been made for another GPU).
    plan = placedForDevice(plan, name, module.ctx.sm, driverParams);
    const k = plan.kernels.find((x) => x.name === name)!;
    this.plan = k;
    this.form = options.form ?? 'params';
    const interpreted = options.interpreted === true;
    this.packer = cudaTarget.pack.packer(plan, name, { interpreted });
    this.names = this.packer.names;
    if (!interpreted && codegenAllowed()) this.namesOk = compileNameCheck(this.names) as (args: unknown) => boolean;
    this.planLocal = plan.localMemory;
    this.isLocal = this.names.map((n) => k.dynamicShared.includes(n));
    this.localSizes = k.dynamicShared.map(() => 0);
    this.localArgs = k.dynamicShared.map(() => ({ local: 0, offset: 0 }));
    this.shared = { values: k.dynamicShared.map(() => 0), sharedMemBytes: 0 };
    // Every name defined up front, in order (defineProperty: a parameter named __proto__ stays a
    // property): an object of one fixed shape, which the packer's for-in reads without allocating,
    // where a null-prototype dictionary would make it build a key list per launch.
    for (const n of this.names)
      Object.defineProperty(this.resolved, n, {
        value: undefined,
        writable: true,
        enumerable: true,
        configurable: false,
      });
    // Integer parameters of a pointer's width (nvcc's and Triton's PTX declare pointers so) take a CudaBuffer too.
    const widths = new Map<string, 4 | 8>();
    const pointerBytes = plan.arch === 'nvptx' ? 4 : 8;
    for (const a of k.args)
      if (a.role === 'value' && a.ptxType === (pointerBytes === 8 ? 'u64' : 'u32') && a.param !== null)
        widths.set(a.name, pointerBytes);
    this.pointerWidth = widths;
    this.driverDifferences = driverParams ? paramDifferences(k, driverParams) : [];
    if (this.driverDifferences.length && options.strict !== false) {
      // The usual cause: the parameter buffer's place in constant bank 0 differs by architecture (test/deliberate/cubin-*.md).
      const cc = module.ctx.device.computeCapability;
      throw new RuntimeInputError(
        `kernel '${name}': the cuda plan, placed for sm_${plan.sm}, and the driver's cuFuncGetParamInfo disagree:\n  ${this.driverDifferences.join('\n  ')}\n(the device is compute capability ${cc})`,
      );
    }
    const ko = koffi();
    const bytes = Math.max(1, k.paramBytes);
    this.native = ko.alloc('uint8_t', bytes);
    this.nativeBytes = new Uint8Array(ko.view(this.native, bytes));
    // Written by the launch writer, then copied whole: the native buffer changes only when a launch packed.
    this.staged = new Uint8Array(bytes);
    this.stagedView = new DataView(this.staged.buffer);
    if (!interpreted && !k.dynamicShared.length)
      this.writeLaunch = compileLaunchWriter(cudaTarget.pack.layout(plan, name), widths, CudaBuffer, bytes);
    const base = ko.address(this.native);
    const kernelParams = ko.alloc('uint64_t', Math.max(1, k.args.length));
    new BigUint64Array(ko.view(kernelParams, 8 * Math.max(1, k.args.length))).set(kernelParamsImage(k, base));
    const sizeCell = ko.alloc('uint64_t', 1);
    new BigUint64Array(ko.view(sizeCell, 8))[0] = BigInt(k.paramBytes);
    const extra = ko.alloc('uint64_t', 5);
    new BigUint64Array(ko.view(extra, 40)).set(extraImage(base, ko.address(sizeCell)));
    this.kernelParams = ko.address(kernelParams);
    this.extra = ko.address(extra);
    this.nativeAllocs = [this.native, kernelParams, sizeCell, extra];
    const allocs = this.nativeAllocs;
    release.register(this, () => allocs.forEach((p) => ko.free(p)), this);
  }

  /** Packs and launches without waiting: nothing is allocated once warm. */
  enqueue(o: CudaLaunch): void {
    this.submit(o);
  }

  /** Launches, waits, and returns the kernel's run time in ms (between two events around the launch). */
  launchAndWait(o: CudaLaunch): number {
    // Before the first event is recorded: dispose destroyed them.
    if (this.disposed) throw new RuntimeInputError(`kernel '${this.name}' has been disposed`);
    const { cu } = this.module.ctx;
    const [start, end] = (this.events ??= [this.event(), this.event()]);
    cuCheck(cu, cu.EventRecord(start, 0), 'cuEventRecord');
    this.submit(o);
    cuCheck(cu, cu.EventRecord(end, 0), 'cuEventRecord');
    const code = cu.EventSynchronize(end);
    if (code !== 0) cuCheck(cu, code, `kernel '${this.name}'`, 'the launch failed on the device');
    cuCheck(cu, cu.EventElapsedTime(this.elapsed, start, end), 'cuEventElapsedTime');
    return this.elapsed[0];
  }

  /** Launches and waits: resolves to the run time in ms. */
  run(o: CudaLaunch): Promise<number> {
    return Promise.resolve().then(() => this.launchAndWait(o));
  }

  /** The parameter buffer the last launch passed (a copy): what `extra` points at and `kernelParams` points into. */
  lastParameterBuffer(): Uint8Array {
    return this.nativeBytes.slice();
  }

  private event(): CuHandle {
    const out: CuHandle[] = [null];
    cuCheck(this.module.ctx.cu, this.module.ctx.cu.EventCreate(out, 0), 'cuEventCreate');
    return out[0];
  }

  private submit(o: CudaLaunch): void {
    // Its parameter buffers are freed: a launch would hand the driver pointers into freed memory.
    if (this.disposed) throw new RuntimeInputError(`kernel '${this.name}' has been disposed`);
    const ctx = this.module.ctx;
    if (!this.sameSizes(o.global, o.local)) this.checkGeometry(o.global, o.local);
    const write = this.writeLaunch;
    let shared = 0;
    if (write !== undefined && write(o.args, this.stagedView, ctx)) this.nativeBytes.set(this.staged);
    else shared = this.pack(o);
    const g = this.geometry;
    const form = o.form ?? this.form;
    const code = ctx.cu.LaunchKernel(
      this.handle,
      g[0],
      g[1],
      g[2],
      g[3],
      g[4],
      g[5],
      shared,
      0,
      form === 'params' ? this.kernelParams : 0,
      form === 'extra' ? this.extra : 0,
    );
    if (code !== 0)
      throw new LaunchError(
        this.name,
        `cuLaunchKernel failed: ${new CudaError(code, 'cuLaunchKernel').message.replace(/^cuLaunchKernel failed: /, '')}`,
      );
  }

  /**
   * The general path: the names checked, buffers turned into addresses in `resolved`, local blocks placed, the packer
   * run and its buffer copied into the native one; returns the dynamic shared bytes to ask for.
   */
  private pack(o: CudaLaunch): number {
    const ctx = this.module.ctx;
    if (!this.namesOk?.(o.args)) checkNames(this.name, this.names, o.args);
    const r = this.resolved;
    const shared = this.plan.dynamicShared.length ? this.placeShared(o.args) : 0;
    for (let i = 0; i < this.names.length; i++) {
      const n = this.names[i];
      const v = o.args[n];
      if (v instanceof CudaBuffer) {
        if (v.ctx !== ctx) throw new PackError(this.name, n, 'the buffer belongs to another CUDA context');
        const width = this.pointerWidth.get(n);
        if (width === 4 && v.address > 0xffff_ffffn)
          throw new PackError(this.name, n, `address ${v.address} ${NVPTX_ADDRESS_OVERFLOW}`);
        r[n] = width === 4 ? Number(v.address) : v.address;
      } else if (!this.isLocal[i]) r[n] = v;
    }
    this.launchInfo.global = o.global;
    const packed = this.packer.pack(r, this.launchInfo);
    this.nativeBytes.set(packed);
    return shared;
  }

  /** Whether `global` and `local` hold the values the geometry was last computed from (what a C host keeps between launches). */
  private sameSizes(global: readonly number[], local: readonly number[] | undefined): boolean {
    const c = this.checkedSizes;
    if (
      c[0] === 0 ||
      !Array.isArray(global) ||
      global.length > 3 ||
      (local !== undefined && (!Array.isArray(local) || local.length !== global.length))
    )
      return false;
    for (let i = 0; i < 3; i++) {
      if ((i < global.length ? global[i] : 1) !== c[i]) return false;
      if ((local === undefined ? -1 : i < local.length ? local[i] : 1) !== c[3 + i]) return false;
    }
    return true;
  }

  private checkGeometry(global: readonly number[], local: readonly number[] | undefined): void {
    const c = this.checkedSizes;
    c[0] = 0;
    cudaGeometry(this.name, global, local, this.module.ctx.limits, this.geometry);
    for (let i = 0; i < 3; i++) {
      c[i] = i < global.length ? global[i] : 1;
      c[3 + i] = local === undefined ? -1 : i < local.length ? local[i] : 1;
    }
  }

  /**
   * The local blocks of one launch (each argument `{local: bytes}`) laid out in dynamic shared
   * memory: each local parameter's value set in `resolved`, the bytes to ask for returned.
   */
  private placeShared(args: Readonly<Record<string, unknown>>): number {
    const k = this.plan;
    for (let i = 0; i < k.dynamicShared.length; i++) {
      const v = args[k.dynamicShared[i]] as { local?: unknown } | undefined;
      this.localSizes[i] = typeof v === 'object' && v !== null && typeof v.local === 'number' ? v.local : NaN;
    }
    let window = 0;
    if (this.planLocal === 'nvidia')
      window = this.sharedWindow ??= dynamicSharedWindow(this.module.ctx.dynamicSharedStart(), this.staticShared());
    const layout = sharedLayout(k, this.planLocal, this.localSizes, window, this.shared);
    for (let i = 0; i < k.dynamicShared.length; i++) {
      const a = this.localArgs[i];
      a.local = this.localSizes[i];
      a.offset = layout.values[i];
      this.resolved[k.dynamicShared[i]] = a;
    }
    return layout.sharedMemBytes;
  }

  /** CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: the kernel's static shared memory, which the dynamic area follows. */
  private staticShared(): number {
    const v = new Int32Array(1);
    cuCheck(
      this.module.ctx.cu,
      this.module.ctx.cu.FuncGetAttribute(v, 1, this.handle),
      'cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)',
    );
    return v[0];
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    release.unregister(this);
    const { cu } = this.module.ctx;
    if (this.events) for (const e of this.events) cu.EventDestroy(e);
    const ko = koffi();
    for (const p of this.nativeAllocs) ko.free(p);
  }
}
