import { DEFAULT_CL_STD } from '../../options/input-options.js';
import type { OpenCLKernelPlan, OpenCLPlan } from '../../abi/plan.js';
import { formatDiagnostics } from '../../diagnostics/format.js';
import { type BuildFlag, portableBuild, shownOptions } from '../../build-input/build-input.js';
import { lowerForDriver } from '../../driver-build/lower-build.js';
import type { FileHost } from '../../frontend/opencl-c/preprocessor.js';
import {
  type LimitsOfDevice,
  type LimitsOfKernel,
  checkGeometry,
  checkLocalMemory,
  checkParameterSize,
} from '../checks/limits.js';
import { PackError, RuntimeInputError } from '../../pack/errors.js';
import type { SetArg } from '../../pack/packer.js';
import type { ArgListPacker } from '../../pack/views.js';
import { openclTarget } from '../../targets/opencl/index.js';
import { readFileSync } from 'node:fs';
import { captureLaunch } from '../capture.js';
import { CLError, type CL, type Handle, check, openCL, platformIds } from './cl.js';
import { deviceLimits, kernelLimits } from './device-limits.js';
import { infoString } from './device-info.js';
import { CL_EVENT_COMMAND_EXECUTION_STATUS, EventWaiter, LaunchEvent, type LaunchProfile } from './events.js';
import { type BuiltProgram, type ProgramSpec, buildProgram } from './program.js';
import { DeviceBuffer, DeviceImage, DeviceSampler, SvmBlock, registry } from './resources.js';

export { DeviceBuffer, DeviceImage, DeviceSampler, SvmBlock } from './resources.js';

const CL_PLATFORM_NAME = 0x0902;
const CL_DEVICE_NAME = 0x102b;
const CL_DEVICE_VERSION = 0x102f;
const CL_DEVICE_TYPE_ALL = 0xffffffffn;
const CL_QUEUE_PROFILING_ENABLE = 2n;
const CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE = 1n;
const CL_MEM_READ_WRITE = 1n;
const CL_MEM_COPY_HOST_PTR = 0x20n;

export interface DeviceInfo {
  readonly platform: string;
  readonly name: string;
  readonly version: string;
  readonly handle: Handle;
  readonly platformHandle: Handle;
}

/** Every OpenCL device of every platform. */
export function listDevices(): DeviceInfo[] {
  const cl = openCL();
  const platforms = platformIds(cl);
  const out: DeviceInfo[] = [];
  for (const p of platforms) {
    const platform = infoString((s, o, r) => cl.GetPlatformInfo(p, CL_PLATFORM_NAME, s, o, r), 'clGetPlatformInfo');
    const dn = [0];
    if (cl.GetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, null, dn) !== 0 || dn[0] === 0) continue;
    const devices: (Handle | null)[] = new Array(dn[0]).fill(null);
    check(cl.GetDeviceIDs(p, CL_DEVICE_TYPE_ALL, dn[0], devices, null), 'clGetDeviceIDs');
    for (const d of devices as Handle[]) {
      const name = infoString((s, o, r) => cl.GetDeviceInfo(d, CL_DEVICE_NAME, s, o, r), 'clGetDeviceInfo');
      const version = infoString((s, o, r) => cl.GetDeviceInfo(d, CL_DEVICE_VERSION, s, o, r), 'clGetDeviceInfo');
      out.push({ platform, name, version, handle: d, platformHandle: p });
    }
  }
  return out;
}

/** A device buffer; `T` is the typed array a kernel's pointer argument reads (typed bindings check it). */
export interface ContextOptions {
  /** An out-of-order queue: launches run in any order unless one names another in `waitFor`. */
  readonly outOfOrder?: boolean;
}

/** One device's context and profiling queue (in order unless asked otherwise). */
export class Context {
  readonly cl: CL;
  readonly handle: Handle;
  readonly queue: Handle;
  /** Settles awaited launch events off the main thread. */
  readonly waiter: EventWaiter;
  private disposed = false;

  constructor(
    readonly device: DeviceInfo,
    readonly options: ContextOptions = {},
  ) {
    this.cl = openCL();
    this.waiter = new EventWaiter(this.cl);
    const err = [0];
    this.handle = this.cl.CreateContext(null, 1, [device.handle], null, null, err);
    check(err[0], 'clCreateContext');
    this.queue = this.cl.CreateCommandQueue(
      this.handle,
      device.handle,
      CL_QUEUE_PROFILING_ENABLE | (options.outOfOrder ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0n),
      err,
    );
    check(err[0], 'clCreateCommandQueue');
    const { cl, handle, queue } = this;
    registry.register(
      this,
      () => {
        cl.ReleaseCommandQueue(queue);
        cl.ReleaseContext(handle);
      },
      this,
    );
  }

  /** Picks a device whose platform or name contains `match` (case-insensitive); the first device when none is given. */
  static open(match?: string, options: ContextOptions = {}): Context {
    const all = listDevices();
    if (!all.length)
      throw new RuntimeInputError('no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)');
    const m = match?.toLowerCase();
    const d = m ? all.find((x) => `${x.platform} ${x.name}`.toLowerCase().includes(m)) : all[0];
    if (!d)
      throw new RuntimeInputError(
        `no OpenCL device matches '${match}' (have: ${all.map((x) => `${x.platform} / ${x.name}`).join('; ')})`,
      );
    return new Context(d, options);
  }

  /** The device's limits every launch is checked against (queried once). */
  get limits(): LimitsOfDevice {
    return deviceLimits(this.cl, this.device);
  }

  /** A buffer holding a copy of `init`, or `init` uninitialised bytes (`ctx.buffer<Float32Array>(4 * n)`). */
  buffer<T extends ArrayBufferView>(init: T): DeviceBuffer<T>;
  buffer<T extends ArrayBufferView = ArrayBufferView>(bytes: number): DeviceBuffer<T>;
  buffer(init: ArrayBufferView | number): DeviceBuffer {
    const err = [0];
    const size = typeof init === 'number' ? init : init.byteLength;
    if (!Number.isSafeInteger(size) || size <= 0)
      throw new RuntimeInputError(`a buffer needs a positive whole number of bytes, not ${size}`);
    if (size > this.limits.maxMemAllocSize)
      throw new RuntimeInputError(
        `a buffer of ${size} bytes is more than the device allocates in one piece (CL_DEVICE_MAX_MEM_ALLOC_SIZE ${this.limits.maxMemAllocSize})`,
      );
    const h = this.cl.CreateBuffer(
      this.handle,
      CL_MEM_READ_WRITE | (typeof init === 'number' ? 0n : CL_MEM_COPY_HOST_PTR),
      size,
      typeof init === 'number' ? null : init,
      err,
    );
    check(err[0], 'clCreateBuffer');
    return new DeviceBuffer(this, h, size);
  }

  /** Builds OpenCL C for this device (through the build cache); a failed build throws a BuildError with the log. */
  build(source: string, options = '', origin = 'program.cl'): Handle {
    return buildProgram(this, { source, options, origin }).handle;
  }

  /**
   * A 1-, 2- or 3-D image from host data. `channelOrder` and `channelType` are cl_channel_order and
   * cl_channel_type values (CL_RGBA 0x10B5, CL_FLOAT 0x10DE, ...).
   */
  image(desc: {
    width: number;
    height?: number;
    depth?: number;
    channelOrder: number;
    channelType: number;
    data?: ArrayBufferView;
  }): DeviceImage {
    const dims = desc.depth ? 3 : desc.height ? 2 : 1;
    const d = Buffer.alloc(72);
    d.writeUInt32LE(dims === 3 ? 0x10f2 : dims === 2 ? 0x10f1 : 0x10f4, 0);
    d.writeBigUInt64LE(BigInt(desc.width), 8);
    d.writeBigUInt64LE(BigInt(desc.height ?? 1), 16);
    d.writeBigUInt64LE(BigInt(desc.depth ?? 1), 24);
    const err = [0];
    const flags = CL_MEM_READ_WRITE | (desc.data ? CL_MEM_COPY_HOST_PTR : 0n);
    const h = this.cl.CreateImage(
      this.handle,
      flags,
      Uint32Array.of(desc.channelOrder, desc.channelType),
      d,
      desc.data ?? null,
      err,
    );
    check(err[0], 'clCreateImage');
    return new DeviceImage(this, h, desc.width, desc.height ?? 1, desc.depth ?? 1);
  }

  /** A sampler: normalized coordinates, addressing (CL_ADDRESS_* 0x1130..0x1134) and filter (CL_FILTER_* 0x1140/0x1141). */
  sampler(o: { normalized?: boolean; addressing?: number; filter?: number } = {}): DeviceSampler {
    const props = BigUint64Array.of(
      0x1152n,
      o.normalized ? 1n : 0n,
      0x1153n,
      BigInt(o.addressing ?? 0x1131),
      0x1154n,
      BigInt(o.filter ?? 0x1140),
      0n,
    );
    const err = [0];
    const h = this.cl.CreateSamplerWithProperties(this.handle, props, err);
    check(err[0], 'clCreateSamplerWithProperties');
    return new DeviceSampler(this, h);
  }

  /** Coarse-grained SVM: a device pointer the host can fill through map/unmap. */
  svm(size: number): SvmBlock {
    if (!Number.isSafeInteger(size) || size <= 0 || size > this.limits.maxMemAllocSize)
      throw new RuntimeInputError(
        `shared virtual memory of ${size} bytes: the device allocates 1 to ${this.limits.maxMemAllocSize} bytes in one piece (CL_DEVICE_MAX_MEM_ALLOC_SIZE)`,
      );
    const ptr = this.cl.SVMAlloc(this.handle, CL_MEM_READ_WRITE, size, 0);
    if (!ptr)
      throw new CLError(
        -4,
        'clSVMAlloc',
        `could not allocate ${size} bytes of shared virtual memory (the device may not support SVM)`,
      );
    return new SvmBlock(this, ptr, size);
  }

  /** Blocks until every command on the queue has finished. */
  finish(): void {
    check(this.cl.Finish(this.queue), 'clFinish');
  }

  /** Resolves when every command on the queue has finished, without blocking the thread. */
  idle(): Promise<void> {
    check(this.cl.Flush(this.queue), 'clFlush');
    return new Promise((resolve, reject) =>
      this.cl.FinishAsync(this.queue, (e, code) =>
        e ? reject(e) : code !== 0 ? reject(new CLError(code, 'clFinish')) : resolve(),
      ),
    );
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    registry.unregister(this);
    this.cl.ReleaseCommandQueue(this.queue);
    this.cl.ReleaseContext(this.handle);
  }
}

export interface LaunchOptions {
  readonly args: Readonly<Record<string, unknown>>;
  readonly global: readonly number[];
  readonly local?: readonly number[];
  readonly globalOffset?: readonly number[];
  /** Launches that must finish first (what an out-of-order queue needs; harmless on an in-order one). */
  readonly waitFor?: readonly LaunchEvent[];
}

/** How a Kernel's program is built: the cache, the source's origin and build input, a shared program, launch capture. */
export interface KernelBuild extends Partial<Omit<ProgramSpec, 'source' | 'options'>> {
  /** A program already built from the same source (kernels of one module share it). */
  readonly program?: BuiltProgram;
  /** A folder to write one capture file per launch into; default KERNARG_CAPTURE; false: none. */
  readonly capture?: string | false;
}

/** Writes `v` (a non-negative safe integer) into element `i` of a size_t array without making a BigInt. */
function setSize(words: Uint32Array, i: number, v: number): void {
  words[2 * i] = v >>> 0;
  words[2 * i + 1] = Math.floor(v / 0x1_0000_0000) >>> 0;
}

/** Whether the first `size` bytes of `a` and `b` are equal (a loop: values are a few bytes, and this runs per launch). */
function sameBytes(a: Uint8Array, b: Uint8Array, size: number): boolean {
  for (let i = 0; i < size; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Copies the first `size` bytes of `from` into `to` (a subarray to copy from would allocate a view). */
function copyBytes(to: Uint8Array, from: Uint8Array, size: number): void {
  for (let i = 0; i < size; i++) to[i] = from[i];
}

/** A kernel built for one context, with the packer of its clSetKernelArg plan. */
export class Kernel {
  private readonly handle: Handle;
  readonly program: BuiltProgram;
  private readonly packer: ArgListPacker;
  private readonly sizes = new BigUint64Array(3);
  private readonly locals = new BigUint64Array(3);
  private readonly offsets = new BigUint64Array(3);
  private readonly sizeWords = new Uint32Array(this.sizes.buffer);
  private readonly localWords = new Uint32Array(this.locals.buffer);
  private readonly offsetWords = new Uint32Array(this.offsets.buffer);
  private readonly eventOut = new BigUint64Array(1);
  /** A memory object's handle as clSetKernelArg reads it (a typed array: koffi converts a JS array per call). */
  private readonly memArg = new BigUint64Array(1);
  /**
   * What each argument index was last set to on this kernel object (which only this Kernel sets):
   * a value's bytes, a local size, or the buffer/image/sampler object (or SVM block). OpenCL keeps
   * an argument's value on the kernel until it is set again, and an enqueue captures the values
   * it runs with, so an argument whose bytes are unchanged needs no clSetKernelArg.
   */
  private readonly lastValue: (Uint8Array | undefined)[] = [];
  private readonly lastLocal: number[] = [];
  private readonly lastObject: unknown[] = [];
  private readonly kernelPlan: OpenCLKernelPlan;
  private readonly kernelLimits: LimitsOfKernel;
  private readonly deviceLimits: LimitsOfDevice;
  private readonly nonUniform: boolean;
  private readonly ownsProgram: boolean;
  /** Where captures go (null: not capturing). */
  readonly captureDir: string | null;
  private disposed = false;

  constructor(
    readonly ctx: Context,
    readonly name: string,
    readonly plan: OpenCLPlan,
    readonly source: string,
    readonly buildOptions = '',
    build: KernelBuild = {},
  ) {
    this.packer = openclTarget.pack.packer(plan, name);
    this.kernelPlan = plan.kernels.find((k) => k.name === name)!;
    this.deviceLimits = ctx.limits;
    checkParameterSize(this.kernelPlan, this.deviceLimits);
    // Non-uniform work-groups: OpenCL C 2.0+ builds on devices that take them, unless the build forbids them.
    this.nonUniform =
      ctx.limits.nonUniformWorkGroups &&
      /-cl-std=CL[23]\./.test(buildOptions) &&
      !/-cl-uniform-work-group-size/.test(buildOptions);
    this.ownsProgram = !build.program;
    this.program =
      build.program ??
      buildProgram(ctx, { source, options: buildOptions, origin: build.origin ?? `${name}.cl`, ...build });
    this.captureDir = build.capture === false ? null : (build.capture ?? process.env.KERNARG_CAPTURE ?? null) || null;
    const err = [0];
    this.handle = ctx.cl.CreateKernel(this.program.handle, name, err);
    check(err[0], `clCreateKernel(${name})`);
    this.kernelLimits = kernelLimits(ctx.cl, this.handle, ctx.device.handle);
    const { cl } = ctx;
    const { handle } = this;
    const program = this.ownsProgram ? this.program.handle : null;
    registry.register(
      this,
      () => {
        cl.ReleaseKernel(handle);
        if (program) cl.ReleaseProgram(program);
      },
      this,
    );
  }

  /** SVM blocks the kernel reaches through pointers stored in other SVM blocks (tinytc groups). */
  useIndirectSvm(blocks: readonly SvmBlock[]): void {
    const ptrs = BigUint64Array.from(blocks.map((b) => b.ptr));
    check(
      this.ctx.cl.SetKernelExecInfo(this.handle, 0x11b6, ptrs.byteLength, ptrs),
      'clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS)',
    );
  }

  /**
   * Sets every argument from `args` (validated against the plan) and enqueues, without waiting:
   * `await` the event, or call `.wait()`, for the launch to finish.
   */
  launch(o: LaunchOptions): LaunchEvent {
    this.submit(o, true);
    return new LaunchEvent(this.ctx.cl, this.ctx.waiter, this.name, this.eventOut[0]);
  }

  /**
   * The same as launch() without an event: nothing is allocated once warm. Wait for a batch with
   * `ctx.finish()` (or `await ctx.idle()`), or for a later launch's event on an in-order queue.
   */
  enqueue(o: LaunchOptions): void {
    this.submit(o, false);
  }

  /**
   * Launches, blocks until the kernel has run, and returns its run time in ms (start to end
   * counters); the event is released here. The synchronous path without an event object: once
   * warm it allocates only the event handle's BigInt (no LaunchEvent, no finalizer entry).
   */
  launchAndWait(o: LaunchOptions): number {
    this.submit(o, true);
    const { cl, waiter } = this.ctx;
    const event = this.eventOut[0];
    waiter.one[0] = event;
    const code = cl.WaitForEvents(1, waiter.one);
    try {
      if (code !== 0) {
        check(cl.GetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, waiter.statusOut, null), 'clGetEventInfo');
        const status = waiter.statusOut[0];
        throw new CLError(
          code,
          `kernel '${this.name}'`,
          status < 0 ? `the launch failed on the device with status ${status}` : '',
        );
      }
      return waiter.runTimeMs(event);
    } finally {
      cl.ReleaseEvent(event);
    }
  }

  /** Launches and waits (without blocking the thread): resolves to the launch's profile. */
  run(o: LaunchOptions): Promise<LaunchProfile> {
    return Promise.resolve(this.launch(o));
  }

  /** Throws the refusal for local memory the device lacks (apart from submit: no closure there, so no context per call). */
  private refuseLocalMemory(packed: readonly SetArg[]): never {
    const locals = packed
      .filter((a) => a.kind === 'local')
      .map((a) => ({ name: this.kernelPlan.args[a.index].name, size: a.size }));
    checkLocalMemory(this.name, locals, this.deviceLimits, this.kernelLimits);
    throw new Error('unreachable: checkLocalMemory refuses what refuseLocalMemory is called for');
  }

  private submit(o: LaunchOptions, wantEvent: boolean): void {
    const cl = this.ctx.cl;
    // Geometry, then values, then local memory: every check before the first OpenCL call.
    const local = checkGeometry(
      this.kernelPlan,
      o.global,
      o.local,
      this.deviceLimits,
      this.kernelLimits,
      this.nonUniform,
      o.globalOffset,
    );
    const packed = this.packer.pack(o.args);
    let localBytes = this.kernelLimits.staticLocalMemSize;
    for (let i = 0; i < packed.length; i++) {
      const a = packed[i];
      if (a.kind === 'local') localBytes += a.size;
      else if (a.kind !== 'value') {
        const h = a.handle as { handle?: unknown; svm?: unknown };
        if (typeof h.svm !== 'bigint' && typeof h.handle !== 'bigint')
          throw new PackError(
            this.name,
            this.kernelPlan.args[a.index].name,
            `expected a device ${a.resource} of this context, got ${Array.isArray(h) ? 'an array' : 'an object'}`,
          );
      }
    }
    if (localBytes > this.deviceLimits.localMemSize) this.refuseLocalMemory(packed);
    // Error messages are built only on failure: a template string per call would allocate.
    let code = 0;
    for (let i = 0; i < packed.length; i++) {
      const a = packed[i];
      const at = a.index;
      if (a.kind === 'value') {
        const last = this.lastValue[at];
        if (last !== undefined && sameBytes(last, a.bytes, a.size)) continue;
        code = cl.SetKernelArg(this.handle, at, a.size, a.bytes);
        if (code === 0) copyBytes(last ?? (this.lastValue[at] = new Uint8Array(a.size)), a.bytes, a.size);
      } else if (a.kind === 'local') {
        if (this.lastLocal[at] === a.size) continue;
        code = cl.SetKernelArg(this.handle, at, a.size, null);
        if (code === 0) this.lastLocal[at] = a.size;
      } else {
        // The same live object is the same cl_mem (or SVM pointer): a different object is set again even
        // where a released handle's address was reused, since drivers may resolve the object at set time.
        if (this.lastObject[at] === a.handle) continue;
        const h = a.handle as { handle?: unknown; svm?: unknown };
        if (typeof h.svm === 'bigint') code = cl.SetKernelArgSVMPointer(this.handle, at, h.svm);
        else {
          this.memArg[0] = h.handle as Handle;
          code = cl.SetKernelArgMem(this.handle, at, 8, this.memArg);
        }
        if (code === 0) this.lastObject[at] = a.handle;
      }
      if (code !== 0) {
        this.forgetArg(at);
        check(code, `clSetKernelArg(${this.name}, ${at})`);
      }
    }
    const dims = o.global.length;
    for (let i = 0; i < dims; i++) {
      setSize(this.sizeWords, i, o.global[i]);
      setSize(this.localWords, i, local ? local[i] : 1);
      setSize(this.offsetWords, i, o.globalOffset ? o.globalOffset[i] : 0);
    }
    if (this.captureDir) captureLaunch(this, packed, o, this.captureDir);
    const waits = o.waitFor && o.waitFor.length ? BigUint64Array.from(o.waitFor, (e) => e.handle) : null;
    code = cl.EnqueueNDRangeKernelAfter(
      this.ctx.queue,
      this.handle,
      dims,
      o.globalOffset ? this.offsets : null,
      this.sizes,
      local ? this.locals : null,
      waits ? waits.length : 0,
      waits,
      wantEvent ? this.eventOut : null,
    );
    if (code !== 0) check(code, `clEnqueueNDRangeKernel(${this.name})`);
  }

  /** After a failed clSetKernelArg the argument's state on the kernel is unknown: set it next time. */
  private forgetArg(index: number): void {
    this.lastValue[index] = undefined;
    this.lastLocal[index] = -1;
    this.lastObject[index] = undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    registry.unregister(this);
    this.ctx.cl.ReleaseKernel(this.handle);
    if (this.ownsProgram) this.ctx.cl.ReleaseProgram(this.program.handle);
  }
}

export interface KernelOptions {
  readonly context?: Context;
  /** Device substring, when no context is given. */
  readonly device?: string;
  readonly std?: 'CL1.2' | 'CL2.0' | 'CL3.0';
  readonly buildOptions?: string;
  /** Folders to search for `#include` (kernarg's preprocessor and the driver's `-I`). */
  readonly includeDirs?: readonly string[];
  /** false turns the build cache off; a string names its folder (default KERNARG_CACHE_DIR). */
  readonly cache?: boolean | string;
  /** A folder to write one capture per launch into (default KERNARG_CAPTURE); false: none. */
  readonly capture?: string | false;
  /** Where the source came from, for build errors (default `<name>.cl`). */
  readonly origin?: string;
}

/** Headers from the file system (a file that cannot be read is one not found: the search goes on). */
const diskHost: FileHost = {
  readFile(p) {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};

/**
 * Compiles OpenCL C with kernarg (its plan validates and packs every launch) and with the
 * device's compiler: `const k = await kernel(source, 'saxpy'); await k.launch({ args, global })`.
 */
export async function kernel(source: string, name: string, options: KernelOptions = {}): Promise<Kernel> {
  const origin = options.origin ?? `${name}.cl`;
  const flags: BuildFlag[] = [
    { kind: 'std', std: options.std ?? DEFAULT_CL_STD },
    ...(options.includeDirs ?? []).map((dir): BuildFlag => ({ kind: 'include', dir })),
  ];
  // One reading of the files for kernarg's plan and the driver's build: the headers read are the tree the driver gets.
  const { result: r, input } = lowerForDriver(origin, source, diskHost, flags, options.buildOptions);
  if (!r.plan) throw new RuntimeInputError(`kernarg cannot lower '${name}':\n${formatDiagnostics(r.diagnostics)}`);
  const ctx = options.context ?? Context.open(options.device);
  const portable = portableBuild(input, process.cwd());
  return new Kernel(ctx, name, r.plan as OpenCLPlan, source, shownOptions(portable.input), {
    origin,
    build: portable.input,
    shownAs: portable.root,
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
    ...(options.capture !== undefined ? { capture: options.capture } : {}),
  });
}
