// The OpenCL objects a context hands out (buffers, images, samplers, SVM blocks), each released once:
// by dispose(), or by the finalization registry when its owner is collected.
import { type CL, type Handle, check } from './cl.js';

/** What a resource needs of its context (the Context class, structurally: no import back into host.ts). */
export interface ResourceContext {
  readonly cl: CL;
  readonly handle: Handle;
  readonly queue: Handle;
  finish(): void;
}

/** Releases what the user forgot to dispose when its owner is collected. */
export const registry = new FinalizationRegistry<() => void>((release) => {
  try {
    release();
  } catch {
    // The context may already be gone; nothing else to do.
  }
});

/** An OpenCL object released once: by dispose(), or by the registry when its owner is collected. */
export abstract class Owned {
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

export class DeviceBuffer<T extends ArrayBufferView = ArrayBufferView> extends Owned {
  /** Never set: carries the element type for the type checker. */
  declare readonly element?: T;

  constructor(
    private readonly ctx: ResourceContext,
    readonly handle: Handle,
    readonly size: number,
  ) {
    super(() => ctx.cl.ReleaseMemObject(handle));
  }

  /**
   * Reads the buffer's first `into.byteLength` bytes into `into` (after the queue's earlier commands, on an in-order
   * queue).
   */
  read<U extends ArrayBufferView>(into: U): U {
    check(
      this.ctx.cl.EnqueueReadBuffer(this.ctx.queue, this.handle, 1, 0, into.byteLength, into, 0, null, null),
      'clEnqueueReadBuffer',
    );
    return into;
  }

  write(from: ArrayBufferView): void {
    check(
      this.ctx.cl.EnqueueWriteBuffer(this.ctx.queue, this.handle, 1, 0, from.byteLength, from, 0, null, null),
      'clEnqueueWriteBuffer',
    );
  }
}

export class DeviceImage extends Owned {
  constructor(
    private readonly ctx: ResourceContext,
    readonly handle: Handle,
    readonly width: number,
    readonly height: number,
    readonly depth: number,
  ) {
    super(() => ctx.cl.ReleaseMemObject(handle));
  }

  /** Reads the whole image into `into` (its bytes must match the image's). */
  read<T extends ArrayBufferView>(into: T): T {
    const origin = new BigUint64Array(3);
    const region = BigUint64Array.of(BigInt(this.width), BigInt(this.height), BigInt(this.depth));
    check(
      this.ctx.cl.EnqueueReadImage(this.ctx.queue, this.handle, 1, origin, region, 0, 0, into, 0, null, null),
      'clEnqueueReadImage',
    );
    return into;
  }
}

export class DeviceSampler extends Owned {
  constructor(
    ctx: ResourceContext,
    readonly handle: Handle,
  ) {
    super(() => ctx.cl.ReleaseSampler(handle));
  }
}

/** A coarse-grained SVM allocation: pass `{ svm: block.ptr }` where a kernel takes a pointer to it. */
export class SvmBlock extends Owned {
  constructor(
    private readonly ctx: ResourceContext,
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
