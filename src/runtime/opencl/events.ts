import { CLError, type CL, type Handle, check } from './cl.js';

export const CL_EVENT_COMMAND_EXECUTION_STATUS = 0x11d3;
const CL_COMPLETE = 0;
const CL_PROFILING_COMMAND_QUEUED = 0x1280;

/** A launch's profiling counters, in nanoseconds of the device's clock, and its run time in ms. */
export interface LaunchProfile {
  readonly kernel: string;
  readonly queued: bigint;
  readonly submit: bigint;
  readonly start: bigint;
  readonly end: bigint;
  /** end − start, in milliseconds. */
  readonly timeMs: number;
}

const released = new FinalizationRegistry<{ cl: CL; handle: Handle }>((e) => {
  try {
    e.cl.ReleaseEvent(e.handle);
  } catch {
    // The driver may be unloading; nothing else to do.
  }
});

/**
 * One enqueued launch. `await event` (or `.wait()`) waits for it; `.profile()` reads its
 * counters once it has run. The cl_event is released by `release()` or when the object is
 * collected.
 */
export class LaunchEvent implements PromiseLike<LaunchProfile> {
  /** The cl_event, as the wait lists of later launches take it. */
  readonly handle: Handle;
  private finished = false;
  private result: LaunchProfile | undefined;
  private freed = false;

  constructor(
    private readonly cl: CL,
    private readonly waiter: EventWaiter,
    readonly kernel: string,
    handle: Handle,
  ) {
    this.handle = handle;
    released.register(this, { cl, handle }, this);
  }

  /** True once the command has completed (or failed). Never blocks. */
  get done(): boolean {
    if (this.finished) return true;
    const status = this.status();
    if (status <= CL_COMPLETE) this.finished = true;
    return this.finished;
  }

  /** The command's execution status: CL_COMPLETE (0), a negative error, or 1..3 while pending. */
  status(): number {
    const out = this.waiter.statusOut;
    check(this.cl.GetEventInfo(this.handle, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, out, null), 'clGetEventInfo');
    return out[0];
  }

  /** Blocks until the launch has run; throws when the device reports it failed. */
  wait(): this {
    if (this.finished) return this;
    this.waiter.one[0] = this.handle;
    const code = this.cl.WaitForEvents(1, this.waiter.one);
    this.finished = true;
    this.failIfError(code);
    return this;
  }

  /** Queued, submit, start and end in ns (waits for the launch first). */
  profile(): LaunchProfile {
    if (this.result) return this.result;
    this.wait();
    const t = new BigUint64Array(4);
    for (let i = 0; i < 4; i++)
      check(
        this.cl.GetEventProfilingInfo(this.handle, CL_PROFILING_COMMAND_QUEUED + i, 8, t.subarray(i, i + 1), null),
        'clGetEventProfilingInfo',
      );
    this.result = {
      kernel: this.kernel,
      queued: t[0],
      submit: t[1],
      start: t[2],
      end: t[3],
      timeMs: Number(t[3] - t[2]) / 1e6,
    };
    return this.result;
  }

  /** The kernel's run time in ms (waits for the launch first; reads only the start and end counters). */
  get timeMs(): number {
    if (this.result) return this.result.timeMs;
    this.wait();
    return this.waiter.runTimeMs(this.handle);
  }

  then<A = LaunchProfile, B = never>(
    onDone?: ((p: LaunchProfile) => A | PromiseLike<A>) | null,
    onError?: ((e: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return new Promise<LaunchProfile>((resolve, reject) => {
      if (this.done) {
        try {
          this.failIfError(this.status() < 0 ? -14 : 0);
          resolve(this.profile());
        } catch (e) {
          reject(e);
        }
        return;
      }
      this.waiter.add(this, () => {
        try {
          this.finished = true;
          this.failIfError(this.status() < 0 ? -14 : 0);
          resolve(this.profile());
        } catch (e) {
          reject(e);
        }
      });
    }).then(onDone, onError);
  }

  /** Releases the cl_event (the launch itself runs on regardless). */
  release(): void {
    if (this.freed) return;
    this.freed = true;
    released.unregister(this);
    this.cl.ReleaseEvent(this.handle);
  }

  private failIfError(code: number): void {
    if (code === 0) return;
    const status = this.status();
    throw new CLError(
      code,
      `kernel '${this.kernel}'`,
      status < 0 ? `the launch failed on the device with status ${status}` : '',
    );
  }
}

/**
 * Waits for events off the main thread, one clWaitForEvents at a time, oldest first: when it
 * returns, that event and the run of later ones that have completed too are settled.
 */
export class EventWaiter {
  readonly one: Handle[] = [0n];
  readonly statusOut = new Int32Array(1);
  readonly times = new BigUint64Array(2);
  /** The start and end counters, one element each (views made once: a subarray per call would allocate). */
  private readonly startOut = this.times.subarray(0, 1);
  private readonly endOut = this.times.subarray(1, 2);
  private readonly timeWords = new Uint32Array(this.times.buffer);
  private readonly pending: { event: LaunchEvent; settle: () => void }[] = [];
  private readonly asyncList = new BigUint64Array(1);
  private busy = false;
  /** Index of the oldest unsettled entry in `pending`. */
  private head = 0;

  constructor(private readonly cl: CL) {}

  /**
   * A finished event's run time in ms (end − start counters), read into preallocated memory and
   * computed from 32-bit halves: no BigInt is made.
   */
  runTimeMs(event: Handle): number {
    check(
      this.cl.GetEventProfilingInfo(event, CL_PROFILING_COMMAND_QUEUED + 2, 8, this.startOut, null),
      'clGetEventProfilingInfo',
    );
    check(
      this.cl.GetEventProfilingInfo(event, CL_PROFILING_COMMAND_QUEUED + 3, 8, this.endOut, null),
      'clGetEventProfilingInfo',
    );
    const w = this.timeWords;
    return ((w[3] - w[1]) * 4294967296 + (w[2] - w[0])) / 1e6;
  }

  add(event: LaunchEvent, settle: () => void): void {
    this.pending.push({ event, settle });
    this.pump();
  }

  private pump(): void {
    if (this.busy || this.head === this.pending.length) return;
    this.busy = true;
    this.asyncList[0] = this.pending[this.head].event.handle;
    this.cl.WaitForEventsAsync(1, this.asyncList, () => {
      this.busy = false;
      // The awaited event has finished; settle it and every one after it that has finished too
      // (all of them, on an in-order queue), stopping at the first still running.
      this.pending[this.head++].settle();
      while (this.head < this.pending.length && this.pending[this.head].event.done) this.pending[this.head++].settle();
      if (this.head === this.pending.length) {
        this.pending.length = 0;
        this.head = 0;
      } else if (this.head > 1024 && this.head * 2 > this.pending.length) {
        this.pending.splice(0, this.head);
        this.head = 0;
      }
      this.pump();
    });
  }
}
