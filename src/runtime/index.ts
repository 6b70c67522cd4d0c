export {
  Context,
  DeviceBuffer,
  DeviceImage,
  DeviceSampler,
  SvmBlock,
  listDevices,
  type ContextOptions,
  type DeviceInfo,
} from './opencl/host.js';
export { Kernel, type KernelBuild, type LaunchOptions } from './opencl/kernel.js';
export { kernel, type KernelOptions } from './opencl/compile-kernel.js';
export { CLError, CL_ERRORS } from './opencl/cl.js';
export { LaunchEvent, type LaunchProfile } from './opencl/events.js';
export { BuildError, buildProgram, type BuiltProgram, type CacheOutcome, type ProgramSpec } from './opencl/program.js';
export { describePlatforms, type DeviceReport, type PlatformReport } from './opencl/device-info.js';
export {
  BoundKernel,
  BoundTinytcKernel,
  bindProgram,
  type BindOptions,
  type BoundLaunch,
  type EmbeddedProgram,
  type GroupOf,
  type LocalMemory,
  type MemrefOf,
} from './bindings.js';
export { type Capture, type CapturedArg } from './capture.js';
export type { BuildFlag, BuildInput } from '../build-input/build-input.js';
export { parseCapture, replayCapture, type ReplayedBuffer } from './replay.js';
export { TinytcKernel, type GroupValue, type MemrefValue, type TinytcLaunch } from './tinytc.js';
export { APIS, openContext, tinytcKernel, type AnyContext, type Api, type TinytcKernelOptions } from './api.js';
export {
  VulkanBuffer,
  VulkanContext,
  listVulkanDevices,
  type VulkanDeviceInfo,
  type VulkanOpenOptions,
} from './vulkan/context.js';
export { VulkanKernel } from './vulkan/kernel.js';
export type { SpecEntry, VulkanKernelOptions, VulkanLaunch } from './vulkan/kernel-options.js';
export { VulkanShader, specBytes, type ShaderGeometry, type ShaderOptions, type ShaderRun } from './vulkan/shader.js';
export { VulkanTinytcKernel, vulkanTinytcKernel, type VulkanMemrefValue } from './vulkan/tinytc.js';
export { VK_RESULTS, VulkanError } from './vulkan/vk.js';
export * from '../pack/index.js';
export { TARGET_RECORDS, targetNamed } from '../targets/index.js';
export * from './cuda/index.js';
