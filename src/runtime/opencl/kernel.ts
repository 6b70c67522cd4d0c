// A kernel built for one OpenCL context, with the packer of its clSetKernelArg plan: its launches
// (blocking, queued, awaited), the arguments it sets only when they change, and its release.
import type { OpenCLKernelPlan, OpenCLPlan } from '../../abi/plan.js';
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
import { captureLaunch } from '../capture.js';
import { CLError, type CL, type Handle, check } from './cl.js';
import { deviceLimits, kernelLimits } from './device-limits.js';
import { CL_EVENT_COMMAND_EXECUTION_STATUS, LaunchEvent, type LaunchProfile } from './events.js';
import { type BuiltProgram, type ProgramSpec, buildProgram } from './program.js';
import { SvmBlock, registry } from './resources.js';
import type { Context } from './host.js';

export interface LaunchOptions {
  readonly args: Readonly<Record<string, unknown>>;
  readonly global: readonly number[];
  readonly local?: readonly number[];
  readonly globalOffset?: readonly number[];
  /** Launches that must finish first (what an out-of-order queue needs; harmless on an in-order one). */
  readonly waitFor?: readonly LaunchEvent[];
}

/**
 * How a Kernel's program is built: the cache, the source's origin and build input, a shared program, launch capture.
 */
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

/**
 * Whether the first `size` bytes of `a` and `b` are equal (a loop: values are a few bytes, and this runs per launch).
 */
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

  /**
   * Throws the refusal for local memory the device lacks (apart from submit: no closure there, so no context per call).
   */
  private refuseLocalMemory(packed: readonly SetArg[]): never {
    const locals = packed
      .filter((a) => a.kind === 'local')
      .map((a) => ({ name: this.kernelPlan.args[a.index].name, size: a.size }));
    checkLocalMemory(this.name, locals, this.deviceLimits, this.kernelLimits);
    throw new Error('unreachable: checkLocalMemory refuses what refuseLocalMemory is called for');
  }

  private submit(o: LaunchOptions, wantEvent: boolean): void {
    // A released cl_kernel is no handle to set arguments on: the driver's answer to one is undefined.
    if (this.disposed) throw new RuntimeInputError(`kernel '${this.name}' has been disposed`);
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
