export { Context, DeviceBuffer, DeviceImage, DeviceSampler, Kernel, SvmBlock, kernel, listDevices, type DeviceInfo, type KernelOptions, type LaunchOptions } from './opencl/host.js';
export { CLError, CL_ERRORS } from './opencl/cl.js';
export { TinytcKernel, tinytcKernel, type GroupValue, type MemrefValue, type TinytcLaunch } from './tinytc.js';
export * from './pack/index.js';
