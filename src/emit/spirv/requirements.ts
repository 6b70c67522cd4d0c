import type { SpirvBuilder } from './builder.js';

/** The Vulkan feature (VkPhysicalDevice*Features member) each capability kernarg declares needs; Shader needs none. */
const FEATURE: Record<string, string | null> = {
  Shader: null,
  Float64: 'shaderFloat64',
  Int64: 'shaderInt64',
  Int16: 'shaderInt16',
  Int8: 'shaderInt8',
  StorageBuffer8BitAccess: 'storageBuffer8BitAccess',
  UniformAndStorageBuffer8BitAccess: 'uniformAndStorageBuffer8BitAccess',
  StoragePushConstant8: 'storagePushConstant8',
  StorageBuffer16BitAccess: 'storageBuffer16BitAccess',
  UniformAndStorageBuffer16BitAccess: 'uniformAndStorageBuffer16BitAccess',
  StoragePushConstant16: 'storagePushConstant16',
  PhysicalStorageBufferAddresses: 'bufferDeviceAddress',
  // Which of buffer/shared the atomics need is recorded where they are emitted.
  Int64Atomics: null,
  AtomicFloat32AddEXT: null,
  AtomicFloat64AddEXT: null,
  VariablePointersStorageBuffer: 'variablePointersStorageBuffer',
};

/** The device extensions each SPIR-V extension needs (Vulkan 1.2 has the rest in core). */
const DEVICE_EXTENSION: Record<string, string | null> = {
  SPV_KHR_non_semantic_info: 'VK_KHR_shader_non_semantic_info',
  SPV_EXT_shader_atomic_float_add: 'VK_EXT_shader_atomic_float',
  SPV_KHR_physical_storage_buffer: null,
  SPV_KHR_8bit_storage: null,
  SPV_KHR_16bit_storage: null,
};

/** What a device must offer to run a module: its capabilities, the features to enable, the device extensions. */
export interface SpirvRequirements {
  readonly capabilities: readonly string[];
  readonly vulkanFeatures: readonly string[];
  readonly vulkanExtensions: readonly string[];
}

export function requirementsOf(b: SpirvBuilder): SpirvRequirements {
  const features = new Set<string>();
  for (const c of b.capabilityNames) {
    const f = FEATURE[c];
    if (f) features.add(f);
  }
  for (const f of b.vulkanFeatures) features.add(f);
  const exts = b.extensionNames.map((e) => DEVICE_EXTENSION[e]).filter((e): e is string => Boolean(e));
  return { capabilities: b.capabilityNames, vulkanFeatures: [...features], vulkanExtensions: exts };
}
