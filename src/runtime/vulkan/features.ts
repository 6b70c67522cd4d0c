// Vulkan device features by name: where each lives (which VkPhysicalDevice*Features structure, which
// VkBool32), how to read what a device supports, and how to build the pNext chain that enables
// exactly a given set. Every structure is the 16-byte header (sType, pNext) then VkBool32 fields.
import type { Arena } from './arena.js';
import { ST } from './structs.js';
import type { VK, VkHandle } from './vk.js';

interface FeatureStruct {
  readonly name: string;
  readonly sType: number;
  /** A device extension the structure needs on top of the device's core version. */
  readonly extension?: string;
  readonly fields: readonly string[];
}

const words = (s: string) => s.split(/\s+/).filter(Boolean);

/** The structures kernarg reads and enables, with their fields in declaration order (vulkan_core.h). */
export const FEATURE_STRUCTS: readonly FeatureStruct[] = [
  {
    name: 'VkPhysicalDeviceFeatures',
    sType: ST.PHYSICAL_DEVICE_FEATURES_2,
    fields:
      words(`robustBufferAccess fullDrawIndexUint32 imageCubeArray independentBlend geometryShader tessellationShader
      sampleRateShading dualSrcBlend logicOp multiDrawIndirect drawIndirectFirstInstance depthClamp depthBiasClamp
      fillModeNonSolid depthBounds wideLines largePoints alphaToOne multiViewport samplerAnisotropy textureCompressionETC2
      textureCompressionASTC_LDR textureCompressionBC occlusionQueryPrecise pipelineStatisticsQuery
      vertexPipelineStoresAndAtomics fragmentStoresAndAtomics shaderTessellationAndGeometryPointSize
      shaderImageGatherExtended shaderStorageImageExtendedFormats shaderStorageImageMultisample
      shaderStorageImageReadWithoutFormat shaderStorageImageWriteWithoutFormat shaderUniformBufferArrayDynamicIndexing
      shaderSampledImageArrayDynamicIndexing shaderStorageBufferArrayDynamicIndexing shaderStorageImageArrayDynamicIndexing
      shaderClipDistance shaderCullDistance shaderFloat64 shaderInt64 shaderInt16 shaderResourceResidency
      shaderResourceMinLod sparseBinding sparseResidencyBuffer sparseResidencyImage2D sparseResidencyImage3D
      sparseResidency2Samples sparseResidency4Samples sparseResidency8Samples sparseResidency16Samples
      sparseResidencyAliased variableMultisampleRate inheritedQueries`),
  },
  {
    name: 'VkPhysicalDeviceVulkan11Features',
    sType: ST.PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
    fields:
      words(`storageBuffer16BitAccess uniformAndStorageBuffer16BitAccess storagePushConstant16 storageInputOutput16
      multiview multiviewGeometryShader multiviewTessellationShader variablePointersStorageBuffer variablePointers
      protectedMemory samplerYcbcrConversion shaderDrawParameters`),
  },
  {
    name: 'VkPhysicalDeviceVulkan12Features',
    sType: ST.PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
    fields: words(`samplerMirrorClampToEdge drawIndirectCount storageBuffer8BitAccess uniformAndStorageBuffer8BitAccess
      storagePushConstant8 shaderBufferInt64Atomics shaderSharedInt64Atomics shaderFloat16 shaderInt8 descriptorIndexing
      shaderInputAttachmentArrayDynamicIndexing shaderUniformTexelBufferArrayDynamicIndexing
      shaderStorageTexelBufferArrayDynamicIndexing shaderUniformBufferArrayNonUniformIndexing
      shaderSampledImageArrayNonUniformIndexing shaderStorageBufferArrayNonUniformIndexing
      shaderStorageImageArrayNonUniformIndexing shaderInputAttachmentArrayNonUniformIndexing
      shaderUniformTexelBufferArrayNonUniformIndexing shaderStorageTexelBufferArrayNonUniformIndexing
      descriptorBindingUniformBufferUpdateAfterBind descriptorBindingSampledImageUpdateAfterBind
      descriptorBindingStorageImageUpdateAfterBind descriptorBindingStorageBufferUpdateAfterBind
      descriptorBindingUniformTexelBufferUpdateAfterBind descriptorBindingStorageTexelBufferUpdateAfterBind
      descriptorBindingUpdateUnusedWhilePending descriptorBindingPartiallyBound descriptorBindingVariableDescriptorCount
      runtimeDescriptorArray samplerFilterMinmax scalarBlockLayout imagelessFramebuffer uniformBufferStandardLayout
      shaderSubgroupExtendedTypes separateDepthStencilLayouts hostQueryReset timelineSemaphore bufferDeviceAddress
      bufferDeviceAddressCaptureReplay bufferDeviceAddressMultiDevice vulkanMemoryModel vulkanMemoryModelDeviceScope
      vulkanMemoryModelAvailabilityVisibilityChains shaderOutputViewportIndex shaderOutputLayer
      subgroupBroadcastDynamicId`),
  },
  {
    name: 'VkPhysicalDeviceShaderAtomicFloatFeaturesEXT',
    sType: ST.PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
    extension: 'VK_EXT_shader_atomic_float',
    fields: words(`shaderBufferFloat32Atomics shaderBufferFloat32AtomicAdd shaderBufferFloat64Atomics
      shaderBufferFloat64AtomicAdd shaderSharedFloat32Atomics shaderSharedFloat32AtomicAdd shaderSharedFloat64Atomics
      shaderSharedFloat64AtomicAdd shaderImageFloat32Atomics shaderImageFloat32AtomicAdd sparseImageFloat32Atomics
      sparseImageFloat32AtomicAdd`),
  },
];

const HEADER = 16;

/** The structure holding a feature, or undefined for a name Vulkan does not have (here). */
export function featureStruct(name: string): FeatureStruct | undefined {
  return FEATURE_STRUCTS.find((s) => s.fields.includes(name));
}

/** Builds a chain of the given structures in `arena`, fields set from `on`; returns the head's address. */
function chain(
  arena: Arena,
  structs: readonly FeatureStruct[],
  on: (s: FeatureStruct, field: string) => boolean,
): { head: bigint; at: Map<FeatureStruct, bigint> } {
  const at = new Map<FeatureStruct, bigint>();
  let next = 0n;
  for (const s of [...structs].reverse()) {
    const addr = arena.alloc(HEADER + 4 * s.fields.length);
    const o = arena.at(addr);
    arena.view.setUint32(o, s.sType, true);
    arena.view.setBigUint64(o + 8, next, true);
    s.fields.forEach((f, i) => arena.view.setUint32(o + HEADER + 4 * i, on(s, f) ? 1 : 0, true));
    at.set(s, addr);
    next = addr;
  }
  return { head: next, at };
}

/** The features a physical device supports (the structures whose extension it lacks are left out). */
export function supportedFeatures(vk: VK, pd: VkHandle, arena: Arena, extensions: ReadonlySet<string>): Set<string> {
  const structs = FEATURE_STRUCTS.filter((s) => !s.extension || extensions.has(s.extension));
  const mark = arena.mark();
  const { head, at } = chain(arena, structs, () => false);
  vk.GetPhysicalDeviceFeatures2(pd, head);
  const out = new Set<string>();
  for (const [s, addr] of at) {
    const o = arena.at(addr);
    s.fields.forEach((f, i) => {
      if (arena.view.getUint32(o + HEADER + 4 * i, true)) out.add(f);
    });
  }
  arena.reset(mark);
  return out;
}

/** A VkPhysicalDeviceFeatures2 chain enabling exactly `enabled`, and the extensions its structures need. */
export function enableChain(arena: Arena, enabled: ReadonlySet<string>): { head: bigint; extensions: string[] } {
  const structs = FEATURE_STRUCTS.filter((s, i) => i < 3 || s.fields.some((f) => enabled.has(f)));
  const { head } = chain(arena, structs, (_, f) => enabled.has(f));
  return { head, extensions: structs.flatMap((s) => (s.extension ? [s.extension] : [])) };
}
