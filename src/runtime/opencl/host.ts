import type { OpenCLKernelPlan, OpenCLPlan } from '../../abi/plan.js';
import { formatDiagnostics } from '../../diagnostics/format.js';
import { lower } from '../../lower.js';
import { type LimitsOfDevice, type LimitsOfKernel, checkGeometry, checkLocalMemory, checkParameterSize } from '../checks/limits.js';
import { PackError, RuntimeInputError } from '../pack/errors.js';
import { type OpenCLPacker, openclPacker } from '../pack/packer.js';
import { CLError, type CL, type Handle, check, openCL } from './cl.js';
import { deviceLimits, kernelLimits } from './device-limits.js';

const CL_PLATFORM_NAME = 0x0902;
const CL_DEVICE_NAME = 0x102b;
const CL_DEVICE_VERSION = 0x102f;
const CL_DEVICE_TYPE_ALL = 0xffffffffn;
const CL_QUEUE_PROFILING_ENABLE = 2n;
const CL_PROGRAM_BUILD_LOG = 0x1183;
const CL_PROFILING_COMMAND_START = 0x1282;
const CL_PROFILING_COMMAND_END = 0x1283;
const CL_MEM_READ_WRITE = 1n;
const CL_MEM_COPY_HOST_PTR = 0x20n;

/** Releases what the user forgot to dispose when its owner is collected. */
const registry = new FinalizationRegistry<() => void>((release) => {
  try {
    release();
  } catch {
    // The context may already be gone; nothing else to do.
  }
});

/** An OpenCL object released once: by dispose(), or by the registry when its owner is collected. */
abstract class Owned {
  private released = false;
  constructor(private readonly release: () => void) {
    registry.register(this, release, this);
  }

  dispose(): void {
    if (this.released) return;
    this.released = true;
    registry.unregister(this);
    this.release();
  }
}

function infoString(get: (size: number, out: Buffer | null, ret: number[] | null) => number, call: string): string {
  const size = [0];
  check(get(0, null, size), call);
  const buf = Buffer.alloc(size[0]);
  check(get(size[0], buf, null), call);
  return buf.toString('utf8').replace(/\0+$/, '');
}

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
  const n = [0];
  const code = cl.GetPlatformIDs(0, null, n);
  if (code === -1001 || n[0] === 0) return [];
  check(code, 'clGetPlatformIDs');
  const platforms: (Handle | null)[] = new Array(n[0]).fill(null);
  check(cl.GetPlatformIDs(n[0], platforms, null), 'clGetPlatformIDs');
  const out: DeviceInfo[] = [];
  for (const p of platforms as Handle[]) {
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

export class DeviceBuffer extends Owned {
  constructor(
    private readonly ctx: Context,
    readonly handle: Handle,
    readonly size: number,
  ) {
    super(() => ctx.cl.ReleaseMemObject(handle));
  }

  /** Reads the whole buffer (or `size` bytes) into a new or given typed array. */
  read<T extends ArrayBufferView>(into: T): T {
    check(this.ctx.cl.EnqueueReadBuffer(this.ctx.queue, this.handle, 1, 0, into.byteLength, into, 0, null, null), 'clEnqueueReadBuffer');
    return into;
  }

  write(from: ArrayBufferView): void {
    check(this.ctx.cl.EnqueueWriteBuffer(this.ctx.queue, this.handle, 1, 0, from.byteLength, from, 0, null, null), 'clEnqueueWriteBuffer');
  }
}

export class DeviceImage extends Owned {
  constructor(private readonly ctx: Context, readonly handle: Handle, readonly width: number, readonly height: number, readonly depth: number) {
    super(() => ctx.cl.ReleaseMemObject(handle));
  }

  /** Reads the whole image into `into` (its bytes must match the image's). */
  read<T extends ArrayBufferView>(into: T): T {
    const origin = new BigUint64Array(3);
    const region = BigUint64Array.of(BigInt(this.width), BigInt(this.height), BigInt(this.depth));
    check(this.ctx.cl.EnqueueReadImage(this.ctx.queue, this.handle, 1, origin, region, 0, 0, into, 0, null, null), 'clEnqueueReadImage');
    return into;
  }
}

export class DeviceSampler extends Owned {
  constructor(ctx: Context, readonly handle: Handle) {
    super(() => ctx.cl.ReleaseSampler(handle));
  }
}

/** A coarse-grained SVM allocation: pass `{ svm: block.ptr }` where a kernel takes a pointer to it. */
export class SvmBlock extends Owned {
  constructor(
    private readonly ctx: Context,
    readonly ptr: Handle,
    readonly size: number,
  ) {
    super(() => ctx.cl.SVMFree(ctx.handle, ptr));
  }

  get svm(): Handle {
    return this.ptr;
  }

  /** Maps the block, lets `fn` read or write its bytes, and unmaps it. */
  access<T>(fn: (bytes: Uint8Array) => T): T {
    const cl = this.ctx.cl;
    check(cl.EnqueueSVMMap(this.ctx.queue, 1, 3n, this.ptr, this.size, 0, null, null), 'clEnqueueSVMMap');
    try {
      return fn(new Uint8Array(cl.view(this.ptr, this.size)));
    } finally {
      check(cl.EnqueueSVMUnmap(this.ctx.queue, this.ptr, 0, null, null), 'clEnqueueSVMUnmap');
      this.ctx.finish();
    }
  }
}

/** One device's context and in-order profiling queue. */
export class Context {
  readonly cl: CL;
  readonly handle: Handle;
  readonly queue: Handle;
  private disposed = false;

  constructor(readonly device: DeviceInfo) {
    this.cl = openCL();
    const err = [0];
    this.handle = this.cl.CreateContext(null, 1, [device.handle], null, null, err);
    check(err[0], 'clCreateContext');
    this.queue = this.cl.CreateCommandQueue(this.handle, device.handle, CL_QUEUE_PROFILING_ENABLE, err);
    check(err[0], 'clCreateCommandQueue');
    const { cl, handle, queue } = this;
    registry.register(this, () => {
      cl.ReleaseCommandQueue(queue);
      cl.ReleaseContext(handle);
    }, this);
  }

  /** Picks a device whose platform or name contains `match` (case-insensitive); the first device when none is given. */
  static open(match?: string): Context {
    const all = listDevices();
    if (!all.length) throw new RuntimeInputError('no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)');
    const m = match?.toLowerCase();
    const d = m ? all.find((x) => `${x.platform} ${x.name}`.toLowerCase().includes(m)) : all[0];
    if (!d) throw new RuntimeInputError(`no OpenCL device matches '${match}' (have: ${all.map((x) => `${x.platform} / ${x.name}`).join('; ')})`);
    return new Context(d);
  }

  /** The device's limits every launch is checked against (queried once). */
  get limits(): LimitsOfDevice {
    return deviceLimits(this.cl, this.device);
  }

  buffer(init: ArrayBufferView | number): DeviceBuffer {
    const err = [0];
    const size = typeof init === 'number' ? init : init.byteLength;
    if (!Number.isSafeInteger(size) || size <= 0) throw new RuntimeInputError(`a buffer needs a positive whole number of bytes, not ${size}`);
    if (size > this.limits.maxMemAllocSize) throw new RuntimeInputError(`a buffer of ${size} bytes is more than the device allocates in one piece (CL_DEVICE_MAX_MEM_ALLOC_SIZE ${this.limits.maxMemAllocSize})`);
    const h = this.cl.CreateBuffer(this.handle, CL_MEM_READ_WRITE | (typeof init === 'number' ? 0n : CL_MEM_COPY_HOST_PTR), size, typeof init === 'number' ? null : init, err);
    check(err[0], 'clCreateBuffer');
    return new DeviceBuffer(this, h, size);
  }

  /** Builds OpenCL C for this device; a failed build throws with the build log. */
  build(source: string, options = ''): Handle {
    const err = [0];
    const p = this.cl.CreateProgramWithSource(this.handle, 1, [source], null, err);
    check(err[0], 'clCreateProgramWithSource');
    const code = this.cl.BuildProgram(p, 1, [this.device.handle], options, null, null);
    if (code !== 0) {
      const log = infoString((s, o, r) => this.cl.GetProgramBuildInfo(p, this.device.handle, CL_PROGRAM_BUILD_LOG, s, o, r), 'clGetProgramBuildInfo');
      this.cl.ReleaseProgram(p);
      throw new CLError(code, 'clBuildProgram', log);
    }
    return p;
  }

  /**
   * A 1-, 2- or 3-D image from host data. `channelOrder` and `channelType` are cl_channel_order and
   * cl_channel_type values (CL_RGBA 0x10B5, CL_FLOAT 0x10DE, ...).
   */
  image(desc: { width: number; height?: number; depth?: number; channelOrder: number; channelType: number; data?: ArrayBufferView }): DeviceImage {
    const dims = desc.depth ? 3 : desc.height ? 2 : 1;
    const d = Buffer.alloc(72);
    d.writeUInt32LE(dims === 3 ? 0x10f2 : dims === 2 ? 0x10f1 : 0x10f4, 0);
    d.writeBigUInt64LE(BigInt(desc.width), 8);
    d.writeBigUInt64LE(BigInt(desc.height ?? 1), 16);
    d.writeBigUInt64LE(BigInt(desc.depth ?? 1), 24);
    const err = [0];
    const flags = CL_MEM_READ_WRITE | (desc.data ? CL_MEM_COPY_HOST_PTR : 0n);
    const h = this.cl.CreateImage(this.handle, flags, Uint32Array.of(desc.channelOrder, desc.channelType), d, desc.data ?? null, err);
    check(err[0], 'clCreateImage');
    return new DeviceImage(this, h, desc.width, desc.height ?? 1, desc.depth ?? 1);
  }

  /** A sampler: normalized coordinates, addressing (CL_ADDRESS_* 0x1130..0x1134) and filter (CL_FILTER_* 0x1140/0x1141). */
  sampler(o: { normalized?: boolean; addressing?: number; filter?: number } = {}): DeviceSampler {
    const props = BigUint64Array.of(0x1152n, o.normalized ? 1n : 0n, 0x1153n, BigInt(o.addressing ?? 0x1131), 0x1154n, BigInt(o.filter ?? 0x1140), 0n);
    const err = [0];
    const h = this.cl.CreateSamplerWithProperties(this.handle, props, err);
    check(err[0], 'clCreateSamplerWithProperties');
    return new DeviceSampler(this, h);
  }

  /** Coarse-grained SVM: a device pointer the host can fill through map/unmap. */
  svm(size: number): SvmBlock {
    if (!Number.isSafeInteger(size) || size <= 0 || size > this.limits.maxMemAllocSize) throw new RuntimeInputError(`shared virtual memory of ${size} bytes: the device allocates 1 to ${this.limits.maxMemAllocSize} bytes in one piece (CL_DEVICE_MAX_MEM_ALLOC_SIZE)`);
    const ptr = this.cl.SVMAlloc(this.handle, CL_MEM_READ_WRITE, size, 0);
    if (!ptr) throw new CLError(-4, 'clSVMAlloc', `could not allocate ${size} bytes of shared virtual memory (the device may not support SVM)`);
    return new SvmBlock(this, ptr, size);
  }

  finish(): void {
    check(this.cl.Finish(this.queue), 'clFinish');
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
}

/** A kernel built for one context, with the packer of its clSetKernelArg plan. */
export class Kernel {
  private readonly handle: Handle;
  private readonly program: Handle;
  private readonly packer: OpenCLPacker;
  private readonly sizes = new BigUint64Array(3);
  private readonly locals = new BigUint64Array(3);
  private readonly offsets = new BigUint64Array(3);
  private readonly event: (Handle | null)[] = [null];
  private readonly memArg: Handle[] = [0n];
  private readonly times = new BigUint64Array(1);
  private readonly waitList: Handle[] = [0n];
  private readonly result = { timeMs: 0 };
  private readonly kernelPlan: OpenCLKernelPlan;
  private readonly kernelLimits: LimitsOfKernel;
  private readonly nonUniform: boolean;
  private disposed = false;

  constructor(readonly ctx: Context, readonly name: string, readonly plan: OpenCLPlan, source: string, buildOptions = '') {
    this.packer = openclPacker(plan, name);
    this.kernelPlan = plan.kernels.find((k) => k.name === name)!;
    checkParameterSize(this.kernelPlan, ctx.limits);
    // Non-uniform work-groups: OpenCL C 2.0+ builds on devices that take them, unless the build forbids them.
    this.nonUniform = ctx.limits.nonUniformWorkGroups && /-cl-std=CL[23]\./.test(buildOptions) && !/-cl-uniform-work-group-size/.test(buildOptions);
    this.program = ctx.build(source, buildOptions);
    const err = [0];
    this.handle = ctx.cl.CreateKernel(this.program, name, err);
    check(err[0], `clCreateKernel(${name})`);
    this.kernelLimits = kernelLimits(ctx.cl, this.handle, ctx.device.handle);
    const { cl } = ctx;
    const { handle, program } = this;
    registry.register(this, () => {
      cl.ReleaseKernel(handle);
      cl.ReleaseProgram(program);
    }, this);
  }

  /** SVM blocks the kernel reaches through pointers stored in other SVM blocks (tinytc groups). */
  useIndirectSvm(blocks: readonly SvmBlock[]): void {
    const ptrs = BigUint64Array.from(blocks.map((b) => b.ptr));
    check(this.ctx.cl.SetKernelExecInfo(this.handle, 0x11b6, ptrs.byteLength, ptrs), 'clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS)');
  }

  /** Sets every argument from `args` (validated against the plan), enqueues, waits; returns the kernel time in ms. */
  launch(o: LaunchOptions): { readonly timeMs: number } {
    const cl = this.ctx.cl;
    const local = checkGeometry(this.kernelPlan, o.global, o.local, this.ctx.limits, this.kernelLimits, this.nonUniform, o.globalOffset);
    const packed = this.packer.pack(o.args);
    let localBytes = this.kernelLimits.staticLocalMemSize;
    for (const a of packed) if (a.kind === 'local') localBytes += a.size;
    if (localBytes > this.ctx.limits.localMemSize) checkLocalMemory(this.name, packed.filter((a) => a.kind === 'local').map((a) => ({ name: this.kernelPlan.args[a.index].name, size: a.size })), this.ctx.limits, this.kernelLimits);
    for (const a of packed) {
      if (a.kind === 'value') check(cl.SetKernelArg(this.handle, a.index, a.size, a.bytes), `clSetKernelArg(${this.name}, ${a.index})`);
      else if (a.kind === 'local') check(cl.SetKernelArg(this.handle, a.index, a.size, null), `clSetKernelArg(${this.name}, ${a.index})`);
      else {
        const h = a.handle as { handle?: unknown; svm?: unknown };
        if (typeof h.svm === 'bigint') {
          check(cl.SetKernelArgSVMPointer(this.handle, a.index, h.svm), `clSetKernelArgSVMPointer(${this.name}, ${a.index})`);
          continue;
        }
        if (typeof h.handle !== 'bigint') throw new PackError(this.name, this.kernelPlan.args[a.index].name, `expected a device ${a.kind} of this context, got ${Array.isArray(h) ? 'an array' : 'an object'}`);
        this.memArg[0] = h.handle;
        check(cl.SetKernelArgMem(this.handle, a.index, 8, this.memArg), `clSetKernelArg(${this.name}, ${a.index})`);
      }
    }
    const dims = o.global.length;
    for (let i = 0; i < dims; i++) {
      this.sizes[i] = BigInt(o.global[i]);
      this.locals[i] = BigInt(local?.[i] ?? 1);
      this.offsets[i] = BigInt(o.globalOffset?.[i] ?? 0);
    }
    check(cl.EnqueueNDRangeKernel(this.ctx.queue, this.handle, dims, o.globalOffset ? this.offsets : null, this.sizes, local ? this.locals : null, 0, null, this.event), `clEnqueueNDRangeKernel(${this.name})`);
    const ev = this.event[0] as Handle;
    this.waitList[0] = ev;
    check(cl.WaitForEvents(1, this.waitList), 'clWaitForEvents');
    this.result.timeMs = 0;
    if (cl.GetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, 8, this.times, null) === 0) {
      const start = this.times[0];
      check(cl.GetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 8, this.times, null), 'clGetEventProfilingInfo');
      this.result.timeMs = Number(this.times[0] - start) / 1e6;
    }
    cl.ReleaseEvent(ev);
    return this.result;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    registry.unregister(this);
    this.ctx.cl.ReleaseKernel(this.handle);
    this.ctx.cl.ReleaseProgram(this.program);
  }
}

export interface KernelOptions {
  readonly context?: Context;
  /** Device substring, when no context is given. */
  readonly device?: string;
  readonly std?: 'CL1.2' | 'CL2.0' | 'CL3.0';
  readonly buildOptions?: string;
}

/**
 * Compiles OpenCL C with kernarg (its plan validates and packs every launch) and with the
 * device's compiler: `const k = await kernel(source, 'saxpy'); await k.launch({ args, global })`.
 */
export async function kernel(source: string, name: string, options: KernelOptions = {}): Promise<Kernel> {
  const std = options.std ?? 'CL1.2';
  const r = lower(`${name}.cl`, source, { readFile: () => undefined }, { target: 'opencl', format: 'json', std });
  if (!r.plan) throw new RuntimeInputError(`kernarg cannot lower '${name}':\n${formatDiagnostics(r.diagnostics)}`);
  const ctx = options.context ?? Context.open(options.device);
  return new Kernel(ctx, name, r.plan as OpenCLPlan, source, `-cl-std=${std} ${options.buildOptions ?? ''}`.trim());
}
