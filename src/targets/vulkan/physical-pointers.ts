// clspv's physical storage buffer pointers (lib/PhysicalPointerArgsPass.cpp): what the device needs for them.

/**
 * What `--physical-storage-buffers` asks of the device (SPIR-V capability and extension, Vulkan feature and extension).
 */
export const PHYSICAL_STORAGE_REQUIREMENTS = {
  capabilities: ['PhysicalStorageBufferAddresses', 'Int64'],
  spirvExtensions: ['SPV_KHR_physical_storage_buffer'],
  vulkanFeatures: ['bufferDeviceAddress', 'shaderInt64'],
  vulkanExtensions: ['VK_KHR_buffer_device_address'],
} as const;
