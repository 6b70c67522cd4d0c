// The Vulkan instance and its physical devices: creating the instance, listing the devices, and
// the per-device queries a context makes before it creates its logical device (extensions, compute
// queue family, memory types).
import { RuntimeInputError } from '../../pack/errors.js';
import { Arena } from './arena.js';
import { ST, structs as S } from './structs.js';
import { type VK, type VkHandle, check, openVulkan } from './vk.js';

export const API_1_2 = (1 << 22) | (2 << 12);
export const API_1_3 = (1 << 22) | (3 << 12);
const QUEUE_COMPUTE = 2;
const DEVICE_TYPES = ['other', 'integrated GPU', 'discrete GPU', 'virtual GPU', 'CPU'];

export interface VulkanDeviceInfo {
  /** 'Vulkan', so code that names a platform (OpenCL's) can name this one too. */
  readonly platform: string;
  readonly name: string;
  /** The device's Vulkan version, e.g. '1.3.230'. */
  readonly version: string;
  readonly type: string;
  readonly apiVersion: number;
}

const version = (v: number) => `${v >>> 22}.${(v >>> 12) & 0x3ff}.${v & 0xfff}`;

export interface Physical {
  handle: VkHandle;
  info: VulkanDeviceInfo;
}

/** The Vulkan version kernarg asks the instance for: 1.3 where the loader has it, else 1.2. */
export function instanceVersion(vk: VK, arena: Arena): number {
  const out = arena.alloc(4);
  const loader = vk.EnumerateInstanceVersion(out) === 0 ? arena.u32(out) : API_1_2;
  return loader >= API_1_3 ? API_1_3 : API_1_2;
}

export function createInstance(vk: VK, arena: Arena, validation: boolean): VkHandle {
  const app = arena.put(S().VkApplicationInfo, {
    sType: ST.APPLICATION_INFO,
    pNext: 0n,
    pApplicationName: arena.cstr('kernarg'),
    applicationVersion: 1,
    pEngineName: arena.cstr('kernarg'),
    engineVersion: 1,
    apiVersion: instanceVersion(vk, arena),
  });
  const layers = validation ? ['VK_LAYER_KHRONOS_validation'] : [];
  const info = arena.put(S().VkInstanceCreateInfo, {
    sType: ST.INSTANCE_CREATE_INFO,
    pNext: 0n,
    flags: 0,
    pApplicationInfo: app,
    enabledLayerCount: layers.length,
    ppEnabledLayerNames: arena.strings(layers),
    enabledExtensionCount: 0,
    ppEnabledExtensionNames: 0n,
  });
  const out = arena.alloc(8);
  const code = vk.CreateInstance(info, null, out);
  if (code === -9)
    throw new RuntimeInputError(
      'no Vulkan driver: vkCreateInstance failed with VK_ERROR_INCOMPATIBLE_DRIVER (install mesa-vulkan-drivers for ' +
        'lavapipe, or check VK_ICD_FILENAMES / VK_DRIVER_FILES)',
    );
  if (code === -6)
    throw new RuntimeInputError(
      'vkCreateInstance failed with VK_ERROR_LAYER_NOT_PRESENT: the validation layer is not installed ' +
        '(vulkan-validationlayers)',
    );
  check(code, 'vkCreateInstance');
  return arena.u64(out);
}

export function physicalDevices(vk: VK, instance: VkHandle, arena: Arena): Physical[] {
  const count = arena.alloc(4);
  check(vk.EnumeratePhysicalDevices(instance, count, null), 'vkEnumeratePhysicalDevices');
  const n = arena.u32(count);
  const list = arena.alloc(8 * Math.max(n, 1));
  if (n) check(vk.EnumeratePhysicalDevices(instance, count, list), 'vkEnumeratePhysicalDevices');
  const out: Physical[] = [];
  for (let i = 0; i < n; i++) {
    const handle = arena.u64(list + BigInt(8 * i));
    const props = arena.alloc(1024);
    vk.GetPhysicalDeviceProperties(handle, props);
    const p = arena.read<{ apiVersion: number; deviceName: string; deviceType: number }>(
      props,
      S().VkPhysicalDeviceProperties,
    );
    out.push({
      handle,
      info: {
        platform: 'Vulkan',
        name: p.deviceName,
        version: version(p.apiVersion),
        type: DEVICE_TYPES[p.deviceType] ?? 'other',
        apiVersion: p.apiVersion,
      },
    });
  }
  return out;
}

/** Every Vulkan device the loader finds (an empty list when there is no driver). */
export function listVulkanDevices(): VulkanDeviceInfo[] {
  const vk = openVulkan();
  const arena = new Arena(1 << 16);
  try {
    let instance: VkHandle;
    try {
      instance = createInstance(vk, arena, false);
    } catch (e) {
      if (e instanceof RuntimeInputError && /no Vulkan driver/.test(e.message)) return [];
      throw e;
    }
    try {
      return physicalDevices(vk, instance, arena).map((d) => d.info);
    } finally {
      vk.DestroyInstance(instance, null);
    }
  } finally {
    arena.free();
  }
}

/** The device extensions a physical device offers. */
export function deviceExtensions(vk: VK, physical: VkHandle, a: Arena): Set<string> {
  const count = a.alloc(4);
  check(vk.EnumerateDeviceExtensionProperties(physical, null, count, null), 'vkEnumerateDeviceExtensionProperties');
  const n = a.u32(count);
  // NVIDIA's driver lists a few hundred extensions of 260 bytes each, more than the context's
  // arena holds: they are read through a scratch arena of their own size, freed at once.
  const scratch = new Arena(260 * Math.max(n, 1));
  try {
    const list = scratch.alloc(260 * Math.max(n, 1));
    check(vk.EnumerateDeviceExtensionProperties(physical, null, count, list), 'vkEnumerateDeviceExtensionProperties');
    const out = new Set<string>();
    for (let i = 0; i < a.u32(count); i++)
      out.add(scratch.read<{ extensionName: string }>(list + BigInt(260 * i), S().VkExtensionProperties).extensionName);
    return out;
  } finally {
    scratch.free();
  }
}

/** The first queue family with compute, and its timestamp bits. */
export function computeQueue(
  vk: VK,
  physical: VkHandle,
  a: Arena,
  deviceName: string,
): { family: number; timestampBits: number } {
  const count = a.alloc(4);
  vk.GetPhysicalDeviceQueueFamilyProperties(physical, count, null);
  const n = a.u32(count);
  const list = a.alloc(24 * Math.max(n, 1));
  vk.GetPhysicalDeviceQueueFamilyProperties(physical, count, list);
  for (let i = 0; i < n; i++) {
    const q = a.read<{ queueFlags: number; timestampValidBits: number }>(
      list + BigInt(24 * i),
      S().VkQueueFamilyProperties,
    );
    if (q.queueFlags & QUEUE_COMPUTE) return { family: i, timestampBits: q.timestampValidBits };
  }
  throw new RuntimeInputError(`Vulkan device ${deviceName} has no compute queue`);
}

/** The physical device's memory types: property flags and heap index. */
export function memoryProperties(vk: VK, physical: VkHandle, a: Arena): { flags: number; heap: number }[] {
  const addr = a.alloc(1024);
  vk.GetPhysicalDeviceMemoryProperties(physical, addr);
  const m = a.read<{ memoryTypeCount: number; memoryTypes: { propertyFlags: number; heapIndex: number }[] }>(
    addr,
    S().VkPhysicalDeviceMemoryProperties,
  );
  return Array.from(m.memoryTypes)
    .slice(0, m.memoryTypeCount)
    .map((t) => ({ flags: t.propertyFlags, heap: t.heapIndex }));
}
