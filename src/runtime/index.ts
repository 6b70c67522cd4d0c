export { Context, DeviceBuffer, DeviceImage, DeviceSampler, Kernel, SvmBlock, kernel, listDevices, type DeviceInfo, type KernelOptions, type LaunchOptions } from './opencl/host.js';
export { CLError, CL_ERRORS } from './opencl/cl.js';
export { TinytcKernel, type GroupValue, type MemrefValue, type TinytcLaunch } from './tinytc.js';
export { APIS, openContext, tinytcKernel, type AnyContext, type Api, type TinytcKernelOptions } from './api.js';
export { VulkanBuffer, VulkanContext, listVulkanDevices, type VulkanDeviceInfo, type VulkanOpenOptions } from './vulkan/context.js';
export { VulkanKernel, type VulkanLaunch } from './vulkan/kernel.js';
export { VulkanTinytcKernel, vulkanTinytcKernel, type VulkanMemrefValue } from './vulkan/tinytc.js';
export { VK_RESULTS, VulkanError } from './vulkan/vk.js';
export * from './pack/index.js';
