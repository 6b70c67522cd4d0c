export {
  Context,
  DeviceBuffer,
  DeviceImage,
  DeviceSampler,
  Kernel,
  SvmBlock,
  kernel,
  listDevices,
  type ContextOptions,
  type DeviceInfo,
  type KernelBuild,
  type KernelOptions,
  type LaunchOptions,
} from './opencl/host.js';
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
export { VulkanKernel, type SpecEntry, type VulkanKernelOptions, type VulkanLaunch } from './vulkan/kernel.js';
export { VulkanShader, specBytes, type ShaderGeometry, type ShaderOptions, type ShaderRun } from './vulkan/shader.js';
export { VulkanTinytcKernel, vulkanTinytcKernel, type VulkanMemrefValue } from './vulkan/tinytc.js';
export { VK_RESULTS, VulkanError } from './vulkan/vk.js';
export * from '../pack/index.js';
export { TARGET_RECORDS, targetNamed } from '../targets/index.js';
export * from './cuda/index.js';
