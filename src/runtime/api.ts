// The API switch: one tinytcKernel() and one context opener for OpenCL and Vulkan, so callers (the
// CLI, tests, benchmarks) name the API once and use the same logical arguments on both.
import type { VulkanTargetOptions } from '../targets/vulkan/lower.js';
import { Context } from './opencl/host.js';
import { type TinytcKernel, tinytcKernel as openclTinytcKernel } from './tinytc.js';
import { VulkanContext } from './vulkan/context.js';
import { type VulkanTinytcKernel, vulkanTinytcKernel } from './vulkan/tinytc.js';

export const APIS = ['opencl', 'vulkan'] as const;
export type Api = (typeof APIS)[number];
export type AnyContext = Context | VulkanContext;

/** Opens the first device of `api` whose name (or OpenCL platform) contains `device`. */
export function openContext(api: Api, device?: string): AnyContext {
  return api === 'vulkan' ? VulkanContext.open(device) : Context.open(device);
}

/** OpenCL's options (OpenCL C, group tables, build cache, capture, build options) and Vulkan's. */
export type TinytcKernelOptions = NonNullable<Parameters<typeof openclTinytcKernel>[3]> & {
  /** Vulkan: the SPIR-V to run instead of kernarg's. */
  readonly spirv?: Uint32Array;
  /** Vulkan: clspv's options for the plan (where the PODs go: `podUbo`, `podPushConstant`, `podArgs: 'auto'`). */
  readonly vulkan?: VulkanTargetOptions;
};

/** A tinytc function built for the context's device, through OpenCL C or SPIR-V by the context's API. */
export function tinytcKernel(
  ctx: VulkanContext,
  ir: string,
  name: string,
  options?: TinytcKernelOptions,
): VulkanTinytcKernel;
export function tinytcKernel(ctx: Context, ir: string, name: string, options?: TinytcKernelOptions): TinytcKernel;
export function tinytcKernel(
  ctx: AnyContext,
  ir: string,
  name: string,
  options?: TinytcKernelOptions,
): TinytcKernel | VulkanTinytcKernel;
export function tinytcKernel(
  ctx: AnyContext,
  ir: string,
  name: string,
  options: TinytcKernelOptions = {},
): TinytcKernel | VulkanTinytcKernel {
  const { spirv, vulkan, ...opencl } = options;
  if (ctx instanceof VulkanContext)
    return vulkanTinytcKernel(ctx, ir, name, {
      path: options.path,
      spirv,
      vulkan,
      ...(options.blas ? { blas: options.blas } : {}),
    });
  return openclTinytcKernel(ctx, ir, name, opencl);
}
