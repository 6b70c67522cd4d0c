// What a Vulkan device must offer for a module: SPIR-V capabilities and extensions, Vulkan
// features and extensions, from the scalar types the arguments carry (per storage class), the
// images, and the builtins the kernels call.
import type { KernelModule } from '../../model/kernel-module.js';
import { has16, has8, scalarsIn } from './pod-storage.js';
import { addPhysicalRequirements } from './module-parts.js';
import type { SlotContents } from './kernel-planner.js';
import type { VulkanPlan } from './plan.js';

export interface VulkanRequirements {
  readonly capabilities: string[];
  readonly spirvExtensions: string[];
  readonly vulkanFeatures: string[];
  readonly vulkanExtensions: string[];
}

/** The union of scalarsIn's sets. */
function union(sets: Iterable<ReadonlySet<string>>): Set<string> {
  const out = new Set<string>();
  for (const s of sets) for (const x of s) out.add(x);
  return out;
}

/**
 * Capabilities, features and extensions the module needs. `contents`: the scalar types and images
 * the kernels' slots carry; `constantData`: module constants are in a storage buffer; `uses`:
 * whether some kernel calls a builtin.
 */
export function vulkanRequirements(
  module: KernelModule,
  contents: SlotContents,
  constantData: VulkanPlan['constantData'],
  printf: VulkanPlan['printf'],
  uses: (builtin: string) => boolean,
): VulkanRequirements {
  const types = union(contents.scalars.all);
  if (constantData !== undefined) for (const v of module.variables) for (const s of scalarsIn(v.type)) types.add(s);
  const caps = ['Shader'];
  const images = contents.images;
  if (contents.buffers) caps.push('VariablePointersStorageBuffer');
  if (has8(types)) caps.push('Int8');
  if (types.has('short') || types.has('ushort')) caps.push('Int16');
  if (types.has('long') || types.has('ulong')) caps.push('Int64');
  if (types.has('half')) caps.push('Float16');
  if (types.has('double')) caps.push('Float64');
  const writes = images.filter((c) => c.access !== 'read_only');
  const reads = images.filter((c) => c.access === 'read_only');
  const is1d = (c: (typeof images)[number]) => c.shape.dims === 1 && !c.shape.buffer;
  // Texel buffers (image1d_buffer_t): Dim Buffer images, as clspv's SPIRVProducerPass declares them.
  const isBuffer = (c: (typeof images)[number]) => c.shape.buffer;
  if (writes.length) caps.push('StorageImageWriteWithoutFormat');
  if (['get_image_width', 'get_image_height', 'get_image_depth', 'get_image_dim', 'get_image_array_size'].some(uses))
    caps.push('ImageQuery');
  if (writes.some(is1d)) caps.push('Image1D');
  if (reads.some(is1d)) caps.push('Sampled1D');
  if (writes.some(isBuffer)) caps.push('ImageBuffer');
  if (reads.some(isBuffer)) caps.push('SampledBuffer');
  if (
    [
      'get_sub_group_size',
      'get_num_sub_groups',
      'get_sub_group_id',
      'get_sub_group_local_id',
      'sub_group_broadcast',
      'sub_group_all',
      'sub_group_any',
      'sub_group_barrier',
    ].some(uses)
  )
    caps.push('GroupNonUniform');
  const features: string[] = [];
  if (types.has('short') || types.has('ushort')) features.push('shaderInt16');
  if (types.has('long') || types.has('ulong')) features.push('shaderInt64');
  if (types.has('double')) features.push('shaderFloat64');
  if (images.length) features.push('shaderStorageImageReadWithoutFormat', 'shaderStorageImageWriteWithoutFormat');
  const vkExt = ['VK_KHR_storage_buffer_storage_class', 'VK_KHR_variable_pointers', 'VK_KHR_shader_non_semantic_info'];
  const storage = {
    ssbo: union(contents.scalars.ssbo),
    ubo: union(contents.scalars.ubo),
    pushconstant: union(contents.scalars.pushconstant),
  };
  if (has8(storage.ssbo)) features.push('storageBuffer8BitAccess');
  if (has8(storage.ubo)) features.push('uniformAndStorageBuffer8BitAccess');
  if (has8(storage.pushconstant)) features.push('storagePushConstant8');
  if (has16(storage.ssbo)) features.push('storageBuffer16BitAccess');
  if (has16(storage.ubo)) features.push('uniformAndStorageBuffer16BitAccess');
  if (has16(storage.pushconstant)) features.push('storagePushConstant16');
  if ([storage.ssbo, storage.ubo, storage.pushconstant].some(has8)) vkExt.push('VK_KHR_8bit_storage');
  if ([storage.ssbo, storage.ubo, storage.pushconstant].some(has16)) vkExt.push('VK_KHR_16bit_storage');
  if (types.has('half')) features.push('shaderFloat16');
  if (has8(types)) features.push('shaderInt8');
  if (types.has('half') || has8(types)) vkExt.push('VK_KHR_shader_float16_int8');
  const spirvExtensions = [
    'SPV_KHR_storage_buffer_storage_class',
    'SPV_KHR_variable_pointers',
    'SPV_KHR_non_semantic_info',
  ];
  addPhysicalRequirements(contents.pointers, printf, constantData, { caps, features, vkExt, spirvExtensions });
  return { capabilities: caps, spirvExtensions, vulkanFeatures: features, vulkanExtensions: vkExt };
}
