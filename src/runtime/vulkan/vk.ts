// The Vulkan entry points kernarg uses, bound once from the loader (libvulkan.so.1). Every pointer
// parameter is `void *`: callers pass addresses of structures encoded in an Arena (bigints), or
// typed arrays. Vulkan 1.2 core exports them all from the loader.
import { koffi } from '../ffi.js';
import { RuntimeInputError } from '../../pack/errors.js';

/** VkResult values by number, for messages that name them. */
export const VK_RESULTS: Record<number, string> = {
  0: 'VK_SUCCESS',
  1: 'VK_NOT_READY',
  2: 'VK_TIMEOUT',
  3: 'VK_EVENT_SET',
  4: 'VK_EVENT_RESET',
  5: 'VK_INCOMPLETE',
  [-1]: 'VK_ERROR_OUT_OF_HOST_MEMORY',
  [-2]: 'VK_ERROR_OUT_OF_DEVICE_MEMORY',
  [-3]: 'VK_ERROR_INITIALIZATION_FAILED',
  [-4]: 'VK_ERROR_DEVICE_LOST',
  [-5]: 'VK_ERROR_MEMORY_MAP_FAILED',
  [-6]: 'VK_ERROR_LAYER_NOT_PRESENT',
  [-7]: 'VK_ERROR_EXTENSION_NOT_PRESENT',
  [-8]: 'VK_ERROR_FEATURE_NOT_PRESENT',
  [-9]: 'VK_ERROR_INCOMPATIBLE_DRIVER',
  [-10]: 'VK_ERROR_TOO_MANY_OBJECTS',
  [-11]: 'VK_ERROR_FORMAT_NOT_SUPPORTED',
  [-12]: 'VK_ERROR_FRAGMENTED_POOL',
  [-13]: 'VK_ERROR_UNKNOWN',
  [-1000069000]: 'VK_ERROR_OUT_OF_POOL_MEMORY',
  [-1000072003]: 'VK_ERROR_INVALID_EXTERNAL_HANDLE',
  [-1000161000]: 'VK_ERROR_FRAGMENTATION',
  [-1000257000]: 'VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS',
  [-1000011001]: 'VK_ERROR_VALIDATION_FAILED_EXT',
  [-1000012000]: 'VK_ERROR_INVALID_SHADER_NV',
  [-1000174001]: 'VK_ERROR_NOT_PERMITTED_KHR',
};

export class VulkanError extends Error {
  constructor(
    readonly code: number,
    readonly call: string,
    detail = '',
  ) {
    super(`${call} failed: ${VK_RESULTS[code] ?? `VkResult ${code}`}${detail ? `: ${detail}` : ''}`);
    this.name = 'VulkanError';
  }
}

export function check(code: number, call: string, detail = ''): void {
  if (code !== 0) throw new VulkanError(code, call, detail);
}

export type VkHandle = bigint;
type P = bigint | null;
type Bytes = ArrayBufferView;

export interface VK {
  EnumerateInstanceVersion(out: P): number;
  CreateInstance(info: P, alloc: null, out: P): number;
  DestroyInstance(i: VkHandle, alloc: null): void;
  EnumeratePhysicalDevices(i: VkHandle, count: P, out: P): number;
  GetPhysicalDeviceProperties(d: VkHandle, out: P): void;
  GetPhysicalDeviceQueueFamilyProperties(d: VkHandle, count: P, out: P): void;
  GetPhysicalDeviceMemoryProperties(d: VkHandle, out: P): void;
  GetPhysicalDeviceFeatures2(d: VkHandle, out: P): void;
  EnumerateDeviceExtensionProperties(d: VkHandle, layer: null, count: P, out: P): number;
  CreateDevice(pd: VkHandle, info: P, alloc: null, out: P): number;
  DestroyDevice(d: VkHandle, alloc: null): void;
  GetDeviceQueue(d: VkHandle, family: number, index: number, out: P): void;
  DeviceWaitIdle(d: VkHandle): number;
  CreateBuffer(d: VkHandle, info: P, alloc: null, out: P): number;
  DestroyBuffer(d: VkHandle, b: VkHandle, alloc: null): void;
  GetBufferMemoryRequirements(d: VkHandle, b: VkHandle, out: P): void;
  AllocateMemory(d: VkHandle, info: P, alloc: null, out: P): number;
  FreeMemory(d: VkHandle, m: VkHandle, alloc: null): void;
  BindBufferMemory(d: VkHandle, b: VkHandle, m: VkHandle, offset: number): number;
  MapMemory(d: VkHandle, m: VkHandle, offset: number, size: bigint, flags: number, out: P): number;
  UnmapMemory(d: VkHandle, m: VkHandle): void;
  GetBufferDeviceAddress(d: VkHandle, info: P): bigint | number;
  CreateShaderModule(d: VkHandle, info: P, alloc: null, out: P): number;
  DestroyShaderModule(d: VkHandle, m: VkHandle, alloc: null): void;
  CreateDescriptorSetLayout(d: VkHandle, info: P, alloc: null, out: P): number;
  DestroyDescriptorSetLayout(d: VkHandle, l: VkHandle, alloc: null): void;
  CreateDescriptorPool(d: VkHandle, info: P, alloc: null, out: P): number;
  DestroyDescriptorPool(d: VkHandle, p: VkHandle, alloc: null): void;
  AllocateDescriptorSets(d: VkHandle, info: P, out: P): number;
  UpdateDescriptorSets(d: VkHandle, nWrites: number, writes: P, nCopies: number, copies: null): void;
  CreatePipelineLayout(d: VkHandle, info: P, alloc: null, out: P): number;
  DestroyPipelineLayout(d: VkHandle, l: VkHandle, alloc: null): void;
  CreateComputePipelines(d: VkHandle, cache: null, n: number, info: P, alloc: null, out: P): number;
  DestroyPipeline(d: VkHandle, p: VkHandle, alloc: null): void;
  CreateCommandPool(d: VkHandle, info: P, alloc: null, out: P): number;
  DestroyCommandPool(d: VkHandle, p: VkHandle, alloc: null): void;
  AllocateCommandBuffers(d: VkHandle, info: P, out: P): number;
  FreeCommandBuffers(d: VkHandle, pool: VkHandle, n: number, cbs: P): void;
  BeginCommandBuffer(c: VkHandle, info: P): number;
  EndCommandBuffer(c: VkHandle): number;
  CmdBindPipeline(c: VkHandle, point: number, p: VkHandle): void;
  CmdBindDescriptorSets(
    c: VkHandle,
    point: number,
    layout: VkHandle,
    first: number,
    n: number,
    sets: P,
    nDyn: number,
    dyn: null,
  ): void;
  CmdPushConstants(c: VkHandle, layout: VkHandle, stages: number, offset: number, size: number, values: Bytes): void;
  CmdDispatch(c: VkHandle, x: number, y: number, z: number): void;
  CmdExecuteCommands(c: VkHandle, n: number, cbs: P): void;
  CmdCopyBuffer(c: VkHandle, src: VkHandle, dst: VkHandle, n: number, regions: P): void;
  CmdPipelineBarrier(
    c: VkHandle,
    src: number,
    dst: number,
    dep: number,
    nMem: number,
    mem: P,
    nBuf: number,
    buf: null,
    nImg: number,
    img: null,
  ): void;
  CmdResetQueryPool(c: VkHandle, pool: VkHandle, first: number, n: number): void;
  CmdWriteTimestamp(c: VkHandle, stage: number, pool: VkHandle, query: number): void;
  CreateQueryPool(d: VkHandle, info: P, alloc: null, out: P): number;
  DestroyQueryPool(d: VkHandle, p: VkHandle, alloc: null): void;
  GetQueryPoolResults(
    d: VkHandle,
    p: VkHandle,
    first: number,
    n: number,
    size: number,
    data: Bytes,
    stride: number,
    flags: number,
  ): number;
  CreateFence(d: VkHandle, info: P, alloc: null, out: P): number;
  DestroyFence(d: VkHandle, f: VkHandle, alloc: null): void;
  ResetFences(d: VkHandle, n: number, fences: P): number;
  WaitForFences(d: VkHandle, n: number, fences: P, all: number, timeout: bigint): number;
  QueueSubmit(q: VkHandle, n: number, submits: P, fence: VkHandle | null): number;
  QueueWaitIdle(q: VkHandle): number;
}

let bound: VK | undefined;

/** Loads the Vulkan loader and binds the entry points; a clear error when there is none. */
export function openVulkan(): VK {
  if (bound) return bound;
  let lib: ReturnType<ReturnType<typeof koffi>['load']>;
  try {
    lib = koffi().load(process.platform === 'darwin' ? 'libvulkan.1.dylib' : 'libvulkan.so.1');
  } catch (e) {
    throw new RuntimeInputError(
      `cannot load the Vulkan loader (libvulkan.so.1): install libvulkan1 and a driver (mesa-vulkan-drivers gives ` +
        `lavapipe). ${(e as Error).message}`,
    );
  }
  const v = 'void *';
  const sig: Record<keyof VK, string> = {
    EnumerateInstanceVersion: `int vkEnumerateInstanceVersion(${v})`,
    CreateInstance: `int vkCreateInstance(${v}, ${v}, ${v})`,
    DestroyInstance: `void vkDestroyInstance(${v}, ${v})`,
    EnumeratePhysicalDevices: `int vkEnumeratePhysicalDevices(${v}, ${v}, ${v})`,
    GetPhysicalDeviceProperties: `void vkGetPhysicalDeviceProperties(${v}, ${v})`,
    GetPhysicalDeviceQueueFamilyProperties: `void vkGetPhysicalDeviceQueueFamilyProperties(${v}, ${v}, ${v})`,
    GetPhysicalDeviceMemoryProperties: `void vkGetPhysicalDeviceMemoryProperties(${v}, ${v})`,
    GetPhysicalDeviceFeatures2: `void vkGetPhysicalDeviceFeatures2(${v}, ${v})`,
    EnumerateDeviceExtensionProperties: `int vkEnumerateDeviceExtensionProperties(${v}, ${v}, ${v}, ${v})`,
    CreateDevice: `int vkCreateDevice(${v}, ${v}, ${v}, ${v})`,
    DestroyDevice: `void vkDestroyDevice(${v}, ${v})`,
    GetDeviceQueue: `void vkGetDeviceQueue(${v}, uint32_t, uint32_t, ${v})`,
    DeviceWaitIdle: `int vkDeviceWaitIdle(${v})`,
    CreateBuffer: `int vkCreateBuffer(${v}, ${v}, ${v}, ${v})`,
    DestroyBuffer: `void vkDestroyBuffer(${v}, ${v}, ${v})`,
    GetBufferMemoryRequirements: `void vkGetBufferMemoryRequirements(${v}, ${v}, ${v})`,
    AllocateMemory: `int vkAllocateMemory(${v}, ${v}, ${v}, ${v})`,
    FreeMemory: `void vkFreeMemory(${v}, ${v}, ${v})`,
    BindBufferMemory: `int vkBindBufferMemory(${v}, ${v}, ${v}, uint64_t)`,
    MapMemory: `int vkMapMemory(${v}, ${v}, uint64_t, uint64_t, uint32_t, ${v})`,
    UnmapMemory: `void vkUnmapMemory(${v}, ${v})`,
    GetBufferDeviceAddress: `uint64_t vkGetBufferDeviceAddress(${v}, ${v})`,
    CreateShaderModule: `int vkCreateShaderModule(${v}, ${v}, ${v}, ${v})`,
    DestroyShaderModule: `void vkDestroyShaderModule(${v}, ${v}, ${v})`,
    CreateDescriptorSetLayout: `int vkCreateDescriptorSetLayout(${v}, ${v}, ${v}, ${v})`,
    DestroyDescriptorSetLayout: `void vkDestroyDescriptorSetLayout(${v}, ${v}, ${v})`,
    CreateDescriptorPool: `int vkCreateDescriptorPool(${v}, ${v}, ${v}, ${v})`,
    DestroyDescriptorPool: `void vkDestroyDescriptorPool(${v}, ${v}, ${v})`,
    AllocateDescriptorSets: `int vkAllocateDescriptorSets(${v}, ${v}, ${v})`,
    UpdateDescriptorSets: `void vkUpdateDescriptorSets(${v}, uint32_t, ${v}, uint32_t, ${v})`,
    CreatePipelineLayout: `int vkCreatePipelineLayout(${v}, ${v}, ${v}, ${v})`,
    DestroyPipelineLayout: `void vkDestroyPipelineLayout(${v}, ${v}, ${v})`,
    CreateComputePipelines: `int vkCreateComputePipelines(${v}, ${v}, uint32_t, ${v}, ${v}, ${v})`,
    DestroyPipeline: `void vkDestroyPipeline(${v}, ${v}, ${v})`,
    CreateCommandPool: `int vkCreateCommandPool(${v}, ${v}, ${v}, ${v})`,
    DestroyCommandPool: `void vkDestroyCommandPool(${v}, ${v}, ${v})`,
    AllocateCommandBuffers: `int vkAllocateCommandBuffers(${v}, ${v}, ${v})`,
    FreeCommandBuffers: `void vkFreeCommandBuffers(${v}, ${v}, uint32_t, ${v})`,
    BeginCommandBuffer: `int vkBeginCommandBuffer(${v}, ${v})`,
    EndCommandBuffer: `int vkEndCommandBuffer(${v})`,
    CmdBindPipeline: `void vkCmdBindPipeline(${v}, uint32_t, ${v})`,
    CmdBindDescriptorSets:
      `void vkCmdBindDescriptorSets(${v}, uint32_t, ${v}, uint32_t, uint32_t, ${v}, ` + `uint32_t, ${v})`,
    CmdPushConstants: `void vkCmdPushConstants(${v}, ${v}, uint32_t, uint32_t, uint32_t, ${v})`,
    CmdDispatch: 'void vkCmdDispatch(void *, uint32_t, uint32_t, uint32_t)',
    CmdExecuteCommands: `void vkCmdExecuteCommands(${v}, uint32_t, ${v})`,
    CmdCopyBuffer: `void vkCmdCopyBuffer(${v}, ${v}, ${v}, uint32_t, ${v})`,
    CmdPipelineBarrier:
      `void vkCmdPipelineBarrier(${v}, uint32_t, uint32_t, uint32_t, uint32_t, ${v}, ` +
      `uint32_t, ${v}, uint32_t, ${v})`,
    CmdResetQueryPool: `void vkCmdResetQueryPool(${v}, ${v}, uint32_t, uint32_t)`,
    CmdWriteTimestamp: `void vkCmdWriteTimestamp(${v}, uint32_t, ${v}, uint32_t)`,
    CreateQueryPool: `int vkCreateQueryPool(${v}, ${v}, ${v}, ${v})`,
    DestroyQueryPool: `void vkDestroyQueryPool(${v}, ${v}, ${v})`,
    GetQueryPoolResults: `int vkGetQueryPoolResults(${v}, ${v}, uint32_t, uint32_t, size_t, ${v}, uint64_t, uint32_t)`,
    CreateFence: `int vkCreateFence(${v}, ${v}, ${v}, ${v})`,
    DestroyFence: `void vkDestroyFence(${v}, ${v}, ${v})`,
    ResetFences: `int vkResetFences(${v}, uint32_t, ${v})`,
    WaitForFences: `int vkWaitForFences(${v}, uint32_t, ${v}, uint32_t, uint64_t)`,
    QueueSubmit: `int vkQueueSubmit(${v}, uint32_t, ${v}, ${v})`,
    QueueWaitIdle: `int vkQueueWaitIdle(${v})`,
  };
  const api: Record<string, unknown> = {};
  for (const [name, proto] of Object.entries(sig)) api[name] = lib.func(proto);
  bound = api as unknown as VK;
  return bound;
}
