// The runtime side of `kernarg gen-ts` for CUDA: a generated module embeds its plan and its PTX
// (or cubin) and calls bindCudaModule, which loads the image into a context and binds each kernel
// with the plan's packer. The plan is read back through the cuda schema, so a module edited by
// hand into an inconsistent plan is refused before anything is launched.
import { readCudaPlan } from '../../targets/cuda/schema.js';
import type { CudaContext, CudaKernel, CudaModule } from './host.js';
import type { CudaKernelOptions, CudaLaunch } from './launch-options.js';

/** What a generated CUDA module embeds. */
export interface EmbeddedCudaModule {
  readonly origin: string;
  readonly generator: string;
  /** PTX text, or a cubin's bytes in base64: one of the two. */
  readonly ptx?: string;
  readonly cubin?: string;
  /** The cuda plan in kernarg's JSON form. */
  readonly plan: unknown;
}

export type CudaBindOptions = CudaKernelOptions;

export interface BoundCudaLaunch<A> extends Omit<CudaLaunch, 'args'> {
  readonly args: A;
}

/** One kernel of a generated module: launches take its arguments by name and type. */
export class BoundCudaKernel<A> {
  constructor(readonly kernel: CudaKernel) {}

  /** Launches and waits; the kernel's run time in ms. */
  launch(o: BoundCudaLaunch<A>): number {
    return this.kernel.launchAndWait(o as CudaLaunch);
  }

  /** Launches without waiting (ctx.synchronize() waits for a batch); nothing is allocated once warm. */
  enqueue(o: BoundCudaLaunch<A>): void {
    this.kernel.enqueue(o as CudaLaunch);
  }

  dispose(): void {
    this.kernel.dispose();
  }
}

/**
 * Loads an embedded module into `ctx` and binds every kernel of its plan; `module` is the loaded module, for disposal.
 */
export function bindCudaModule(
  ctx: CudaContext,
  embedded: EmbeddedCudaModule,
  options: CudaBindOptions = {},
): Record<string, BoundCudaKernel<unknown>> & { readonly module: CudaModule } {
  const plan = readCudaPlan(embedded.plan);
  const image = embedded.ptx ?? Uint8Array.from(Buffer.from(embedded.cubin ?? '', 'base64'));
  const module = ctx.module(image, embedded.origin);
  const out: Record<string, BoundCudaKernel<unknown>> = Object.create(null);
  for (const k of plan.kernels) out[k.name] = new BoundCudaKernel(module.kernel(k.name, plan, options));
  return Object.defineProperty(out, 'module', { value: module, enumerable: false }) as Record<
    string,
    BoundCudaKernel<unknown>
  > & { readonly module: CudaModule };
}
