import { type LimitsOfDevice } from '../checks/limits.js';
import { RuntimeInputError } from '../../pack/errors.js';
import { CLError, type CL, type Handle, check, openCL, platformIds } from './cl.js';
import { deviceLimits } from './device-limits.js';
import { infoString } from './device-info.js';
import { EventWaiter } from './events.js';
import { buildProgram } from './program.js';
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
        `a buffer of ${size} bytes is more than the device allocates in one piece ` +
          `(CL_DEVICE_MAX_MEM_ALLOC_SIZE ${this.limits.maxMemAllocSize})`,
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

  /**
   * A sampler: normalized coordinates, addressing (CL_ADDRESS_* 0x1130..0x1134) and filter (CL_FILTER_* 0x1140/0x1141).
   */
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
        `shared virtual memory of ${size} bytes: the device allocates 1 to ${this.limits.maxMemAllocSize} bytes in ` +
          `one piece (CL_DEVICE_MAX_MEM_ALLOC_SIZE)`,
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
