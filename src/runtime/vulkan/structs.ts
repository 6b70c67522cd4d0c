// The Vulkan structures kernarg's host reads or writes, as koffi types (field order and types from
// vulkan_core.h; koffi computes the C layout). Handles are pointers (64-bit platforms only), so
// every handle field is 'void *' and reads back as a bigint. They are made on first use, so that
// importing the runtime does not load koffi (see ../ffi.ts).
import { koffi as loadKoffi } from '../ffi.js';

function make() {
  const koffi = loadKoffi();
  const u32 = 'uint32_t';
  const u64 = 'uint64_t';
  const ptr = 'void *';
  const header = { sType: u32, pNext: ptr };

  const limitsFields = {
    maxImageDimension1D: u32,
    maxImageDimension2D: u32,
    maxImageDimension3D: u32,
    maxImageDimensionCube: u32,
    maxImageArrayLayers: u32,
    maxTexelBufferElements: u32,
    maxUniformBufferRange: u32,
    maxStorageBufferRange: u32,
    maxPushConstantsSize: u32,
    maxMemoryAllocationCount: u32,
    maxSamplerAllocationCount: u32,
    bufferImageGranularity: u64,
    sparseAddressSpaceSize: u64,
    maxBoundDescriptorSets: u32,
    maxPerStageDescriptorSamplers: u32,
    maxPerStageDescriptorUniformBuffers: u32,
    maxPerStageDescriptorStorageBuffers: u32,
    maxPerStageDescriptorSampledImages: u32,
    maxPerStageDescriptorStorageImages: u32,
    maxPerStageDescriptorInputAttachments: u32,
    maxPerStageResources: u32,
    maxDescriptorSetSamplers: u32,
    maxDescriptorSetUniformBuffers: u32,
    maxDescriptorSetUniformBuffersDynamic: u32,
    maxDescriptorSetStorageBuffers: u32,
    maxDescriptorSetStorageBuffersDynamic: u32,
    maxDescriptorSetSampledImages: u32,
    maxDescriptorSetStorageImages: u32,
    maxDescriptorSetInputAttachments: u32,
    maxVertexInputAttributes: u32,
    maxVertexInputBindings: u32,
    maxVertexInputAttributeOffset: u32,
    maxVertexInputBindingStride: u32,
    maxVertexOutputComponents: u32,
    maxTessellationGenerationLevel: u32,
    maxTessellationPatchSize: u32,
    maxTessellationControlPerVertexInputComponents: u32,
    maxTessellationControlPerVertexOutputComponents: u32,
    maxTessellationControlPerPatchOutputComponents: u32,
    maxTessellationControlTotalOutputComponents: u32,
    maxTessellationEvaluationInputComponents: u32,
    maxTessellationEvaluationOutputComponents: u32,
    maxGeometryShaderInvocations: u32,
    maxGeometryInputComponents: u32,
    maxGeometryOutputComponents: u32,
    maxGeometryOutputVertices: u32,
    maxGeometryTotalOutputComponents: u32,
    maxFragmentInputComponents: u32,
    maxFragmentOutputAttachments: u32,
    maxFragmentDualSrcAttachments: u32,
    maxFragmentCombinedOutputResources: u32,
    maxComputeSharedMemorySize: u32,
    maxComputeWorkGroupCount: koffi.array(u32, 3),
    maxComputeWorkGroupInvocations: u32,
    maxComputeWorkGroupSize: koffi.array(u32, 3),
    subPixelPrecisionBits: u32,
    subTexelPrecisionBits: u32,
    mipmapPrecisionBits: u32,
    maxDrawIndexedIndexValue: u32,
    maxDrawIndirectCount: u32,
    maxSamplerLodBias: 'float',
    maxSamplerAnisotropy: 'float',
    maxViewports: u32,
    maxViewportDimensions: koffi.array(u32, 2),
    viewportBoundsRange: koffi.array('float', 2),
    viewportSubPixelBits: u32,
    minMemoryMapAlignment: 'size_t',
    minTexelBufferOffsetAlignment: u64,
    minUniformBufferOffsetAlignment: u64,
    minStorageBufferOffsetAlignment: u64,
    minTexelOffset: 'int32_t',
    maxTexelOffset: u32,
    minTexelGatherOffset: 'int32_t',
    maxTexelGatherOffset: u32,
    minInterpolationOffset: 'float',
    maxInterpolationOffset: 'float',
    subPixelInterpolationOffsetBits: u32,
    maxFramebufferWidth: u32,
    maxFramebufferHeight: u32,
    maxFramebufferLayers: u32,
    framebufferColorSampleCounts: u32,
    framebufferDepthSampleCounts: u32,
    framebufferStencilSampleCounts: u32,
    framebufferNoAttachmentsSampleCounts: u32,
    maxColorAttachments: u32,
    sampledImageColorSampleCounts: u32,
    sampledImageIntegerSampleCounts: u32,
    sampledImageDepthSampleCounts: u32,
    sampledImageStencilSampleCounts: u32,
    storageImageSampleCounts: u32,
    maxSampleMaskWords: u32,
    timestampComputeAndGraphics: u32,
    timestampPeriod: 'float',
    maxClipDistances: u32,
    maxCullDistances: u32,
    maxCombinedClipAndCullDistances: u32,
    discreteQueuePriorities: u32,
    pointSizeRange: koffi.array('float', 2),
    lineWidthRange: koffi.array('float', 2),
    pointSizeGranularity: 'float',
    lineWidthGranularity: 'float',
    strictLines: u32,
    standardSampleLocations: u32,
    optimalBufferCopyOffsetAlignment: u64,
    optimalBufferCopyRowPitchAlignment: u64,
    nonCoherentAtomSize: u64,
  };
  const sparseFields = {
    residencyStandard2DBlockShape: u32,
    residencyStandard2DMultisampleBlockShape: u32,
    residencyStandard3DBlockShape: u32,
    residencyAlignedMipSize: u32,
    residencyNonResidentStrict: u32,
  };

  const VkPhysicalDeviceLimits = koffi.struct('VkPhysicalDeviceLimits', limitsFields);
  const VkPhysicalDeviceSparseProperties = koffi.struct('VkPhysicalDeviceSparseProperties', sparseFields);

  const VkPhysicalDeviceProperties = koffi.struct('VkPhysicalDeviceProperties', {
    apiVersion: u32,
    driverVersion: u32,
    vendorID: u32,
    deviceID: u32,
    deviceType: u32,
    deviceName: koffi.array('char', 256),
    pipelineCacheUUID: koffi.array('uint8_t', 16),
    limits: VkPhysicalDeviceLimits,
    sparseProperties: VkPhysicalDeviceSparseProperties,
  });

  const VkExtent3D = koffi.struct('VkExtent3D', { width: u32, height: u32, depth: u32 });
  const VkQueueFamilyProperties = koffi.struct('VkQueueFamilyProperties', {
    queueFlags: u32,
    queueCount: u32,
    timestampValidBits: u32,
    minImageTransferGranularity: VkExtent3D,
  });
  const VkMemoryType = koffi.struct('VkMemoryType', { propertyFlags: u32, heapIndex: u32 });
  const VkMemoryHeap = koffi.struct('VkMemoryHeap', { size: u64, flags: u32 });
  const VkPhysicalDeviceMemoryProperties = koffi.struct('VkPhysicalDeviceMemoryProperties', {
    memoryTypeCount: u32,
    memoryTypes: koffi.array(VkMemoryType, 32),
    memoryHeapCount: u32,
    memoryHeaps: koffi.array(VkMemoryHeap, 16),
  });
  const VkExtensionProperties = koffi.struct('VkExtensionProperties', {
    extensionName: koffi.array('char', 256),
    specVersion: u32,
  });

  const VkApplicationInfo = koffi.struct('VkApplicationInfo', {
    ...header,
    pApplicationName: ptr,
    applicationVersion: u32,
    pEngineName: ptr,
    engineVersion: u32,
    apiVersion: u32,
  });
  const VkInstanceCreateInfo = koffi.struct('VkInstanceCreateInfo', {
    ...header,
    flags: u32,
    pApplicationInfo: ptr,
    enabledLayerCount: u32,
    ppEnabledLayerNames: ptr,
    enabledExtensionCount: u32,
    ppEnabledExtensionNames: ptr,
  });
  const VkDeviceQueueCreateInfo = koffi.struct('VkDeviceQueueCreateInfo', {
    ...header,
    flags: u32,
    queueFamilyIndex: u32,
    queueCount: u32,
    pQueuePriorities: ptr,
  });
  const VkDeviceCreateInfo = koffi.struct('VkDeviceCreateInfo', {
    ...header,
    flags: u32,
    queueCreateInfoCount: u32,
    pQueueCreateInfos: ptr,
    enabledLayerCount: u32,
    ppEnabledLayerNames: ptr,
    enabledExtensionCount: u32,
    ppEnabledExtensionNames: ptr,
    pEnabledFeatures: ptr,
  });
  const VkBufferCreateInfo = koffi.struct('VkBufferCreateInfo', {
    ...header,
    flags: u32,
    size: u64,
    usage: u32,
    sharingMode: u32,
    queueFamilyIndexCount: u32,
    pQueueFamilyIndices: ptr,
  });
  const VkMemoryRequirements = koffi.struct('VkMemoryRequirements', { size: u64, alignment: u64, memoryTypeBits: u32 });
  const VkMemoryAllocateInfo = koffi.struct('VkMemoryAllocateInfo', {
    ...header,
    allocationSize: u64,
    memoryTypeIndex: u32,
  });
  const VkMemoryAllocateFlagsInfo = koffi.struct('VkMemoryAllocateFlagsInfo', {
    ...header,
    flags: u32,
    deviceMask: u32,
  });
  const VkBufferDeviceAddressInfo = koffi.struct('VkBufferDeviceAddressInfo', { ...header, buffer: ptr });
  const VkShaderModuleCreateInfo = koffi.struct('VkShaderModuleCreateInfo', {
    ...header,
    flags: u32,
    codeSize: 'size_t',
    pCode: ptr,
  });
  const VkDescriptorSetLayoutBinding = koffi.struct('VkDescriptorSetLayoutBinding', {
    binding: u32,
    descriptorType: u32,
    descriptorCount: u32,
    stageFlags: u32,
    pImmutableSamplers: ptr,
  });
  const VkDescriptorSetLayoutCreateInfo = koffi.struct('VkDescriptorSetLayoutCreateInfo', {
    ...header,
    flags: u32,
    bindingCount: u32,
    pBindings: ptr,
  });
  const VkDescriptorPoolSize = koffi.struct('VkDescriptorPoolSize', { type: u32, descriptorCount: u32 });
  const VkDescriptorPoolCreateInfo = koffi.struct('VkDescriptorPoolCreateInfo', {
    ...header,
    flags: u32,
    maxSets: u32,
    poolSizeCount: u32,
    pPoolSizes: ptr,
  });
  const VkDescriptorSetAllocateInfo = koffi.struct('VkDescriptorSetAllocateInfo', {
    ...header,
    descriptorPool: ptr,
    descriptorSetCount: u32,
    pSetLayouts: ptr,
  });
  const VkDescriptorBufferInfo = koffi.struct('VkDescriptorBufferInfo', { buffer: ptr, offset: u64, range: u64 });
  const VkWriteDescriptorSet = koffi.struct('VkWriteDescriptorSet', {
    ...header,
    dstSet: ptr,
    dstBinding: u32,
    dstArrayElement: u32,
    descriptorCount: u32,
    descriptorType: u32,
    pImageInfo: ptr,
    pBufferInfo: ptr,
    pTexelBufferView: ptr,
  });
  const VkPushConstantRange = koffi.struct('VkPushConstantRange', { stageFlags: u32, offset: u32, size: u32 });
  const VkPipelineLayoutCreateInfo = koffi.struct('VkPipelineLayoutCreateInfo', {
    ...header,
    flags: u32,
    setLayoutCount: u32,
    pSetLayouts: ptr,
    pushConstantRangeCount: u32,
    pPushConstantRanges: ptr,
  });
  const VkSpecializationMapEntry = koffi.struct('VkSpecializationMapEntry', {
    constantID: u32,
    offset: u32,
    size: 'size_t',
  });
  const VkSpecializationInfo = koffi.struct('VkSpecializationInfo', {
    mapEntryCount: u32,
    pMapEntries: ptr,
    dataSize: 'size_t',
    pData: ptr,
  });
  const VkPipelineShaderStageCreateInfo = koffi.struct('VkPipelineShaderStageCreateInfo', {
    ...header,
    flags: u32,
    stage: u32,
    module: ptr,
    pName: ptr,
    pSpecializationInfo: ptr,
  });
  const VkComputePipelineCreateInfo = koffi.struct('VkComputePipelineCreateInfo', {
    ...header,
    flags: u32,
    stage: VkPipelineShaderStageCreateInfo,
    layout: ptr,
    basePipelineHandle: ptr,
    basePipelineIndex: 'int32_t',
  });
  const VkCommandPoolCreateInfo = koffi.struct('VkCommandPoolCreateInfo', {
    ...header,
    flags: u32,
    queueFamilyIndex: u32,
  });
  const VkCommandBufferAllocateInfo = koffi.struct('VkCommandBufferAllocateInfo', {
    ...header,
    commandPool: ptr,
    level: u32,
    commandBufferCount: u32,
  });
  const VkCommandBufferInheritanceInfo = koffi.struct('VkCommandBufferInheritanceInfo', {
    ...header,
    renderPass: ptr,
    subpass: u32,
    framebuffer: ptr,
    occlusionQueryEnable: u32,
    queryFlags: u32,
    pipelineStatistics: u32,
  });
  const VkCommandBufferBeginInfo = koffi.struct('VkCommandBufferBeginInfo', {
    ...header,
    flags: u32,
    pInheritanceInfo: ptr,
  });
  const VkSubmitInfo = koffi.struct('VkSubmitInfo', {
    ...header,
    waitSemaphoreCount: u32,
    pWaitSemaphores: ptr,
    pWaitDstStageMask: ptr,
    commandBufferCount: u32,
    pCommandBuffers: ptr,
    signalSemaphoreCount: u32,
    pSignalSemaphores: ptr,
  });
  const VkFenceCreateInfo = koffi.struct('VkFenceCreateInfo', { ...header, flags: u32 });
  const VkQueryPoolCreateInfo = koffi.struct('VkQueryPoolCreateInfo', {
    ...header,
    flags: u32,
    queryType: u32,
    queryCount: u32,
    pipelineStatistics: u32,
  });
  const VkBufferCopy = koffi.struct('VkBufferCopy', { srcOffset: u64, dstOffset: u64, size: u64 });
  const VkMemoryBarrier = koffi.struct('VkMemoryBarrier', { ...header, srcAccessMask: u32, dstAccessMask: u32 });
  return {
    VkPhysicalDeviceLimits,
    VkPhysicalDeviceSparseProperties,
    VkPhysicalDeviceProperties,
    VkExtent3D,
    VkQueueFamilyProperties,
    VkMemoryType,
    VkMemoryHeap,
    VkPhysicalDeviceMemoryProperties,
    VkExtensionProperties,
    VkApplicationInfo,
    VkInstanceCreateInfo,
    VkDeviceQueueCreateInfo,
    VkDeviceCreateInfo,
    VkBufferCreateInfo,
    VkMemoryRequirements,
    VkMemoryAllocateInfo,
    VkMemoryAllocateFlagsInfo,
    VkBufferDeviceAddressInfo,
    VkShaderModuleCreateInfo,
    VkDescriptorSetLayoutBinding,
    VkDescriptorSetLayoutCreateInfo,
    VkDescriptorPoolSize,
    VkDescriptorPoolCreateInfo,
    VkDescriptorSetAllocateInfo,
    VkDescriptorBufferInfo,
    VkWriteDescriptorSet,
    VkPushConstantRange,
    VkPipelineLayoutCreateInfo,
    VkSpecializationMapEntry,
    VkSpecializationInfo,
    VkPipelineShaderStageCreateInfo,
    VkComputePipelineCreateInfo,
    VkCommandPoolCreateInfo,
    VkCommandBufferAllocateInfo,
    VkCommandBufferInheritanceInfo,
    VkCommandBufferBeginInfo,
    VkSubmitInfo,
    VkFenceCreateInfo,
    VkQueryPoolCreateInfo,
    VkBufferCopy,
    VkMemoryBarrier,
  };
}

let made: ReturnType<typeof make> | undefined;

/** The koffi struct types, made once. */
export function structs(): ReturnType<typeof make> {
  return (made ??= make());
}

/** VkStructureType values. */
export const ST = {
  APPLICATION_INFO: 0,
  INSTANCE_CREATE_INFO: 1,
  DEVICE_QUEUE_CREATE_INFO: 2,
  DEVICE_CREATE_INFO: 3,
  SUBMIT_INFO: 4,
  MEMORY_ALLOCATE_INFO: 5,
  FENCE_CREATE_INFO: 8,
  QUERY_POOL_CREATE_INFO: 11,
  BUFFER_CREATE_INFO: 12,
  SHADER_MODULE_CREATE_INFO: 16,
  PIPELINE_SHADER_STAGE_CREATE_INFO: 18,
  COMPUTE_PIPELINE_CREATE_INFO: 29,
  PIPELINE_LAYOUT_CREATE_INFO: 30,
  DESCRIPTOR_SET_LAYOUT_CREATE_INFO: 32,
  DESCRIPTOR_POOL_CREATE_INFO: 33,
  DESCRIPTOR_SET_ALLOCATE_INFO: 34,
  WRITE_DESCRIPTOR_SET: 35,
  COMMAND_POOL_CREATE_INFO: 39,
  COMMAND_BUFFER_ALLOCATE_INFO: 40,
  COMMAND_BUFFER_INHERITANCE_INFO: 41,
  COMMAND_BUFFER_BEGIN_INFO: 42,
  MEMORY_BARRIER: 46,
  PHYSICAL_DEVICE_FEATURES_2: 1000059000,
  MEMORY_ALLOCATE_FLAGS_INFO: 1000060000,
  PHYSICAL_DEVICE_VULKAN_1_1_FEATURES: 49,
  PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: 51,
  BUFFER_DEVICE_ADDRESS_INFO: 1000244001,
  PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT: 1000260000,
} as const;
