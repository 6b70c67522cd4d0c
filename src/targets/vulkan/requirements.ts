// What a Vulkan device must offer for a module: SPIR-V capabilities and extensions, Vulkan
// features and extensions, from the scalar types the arguments carry (per storage class), the
// images, and the builtins the kernels call.
import type { FunctionInfo, KernelModule } from '../../model/kernel-module.js';
import type { QualType } from '../../types/types.js';
import { type ArgClass, classifyArg } from '../../model/arg-class.js';
import { has16, has8, scalarsIn } from './pod-storage.js';
import { addPhysicalRequirements } from './today-plan.js';
import type { StorageClassName, VulkanKernelPlan, VulkanPlan } from './plan.js';

export interface VulkanRequirements {
  readonly capabilities: string[];
  readonly spirvExtensions: string[];
  readonly vulkanFeatures: string[];
  readonly vulkanExtensions: string[];
}

/**
 * The scalar names of the types, added to `to`. scalarsIn answers with shared sets (one per
 * scalar, one per record): each set is added once.
 */
function addScalars(to: Set<string>, types: Iterable<QualType>): void {
  const added = new Set<ReadonlySet<string>>();
  for (const t of types) {
    const s = scalarsIn(t);
    if (added.has(s)) continue;
    added.add(s);
    for (const x of s) to.add(x);
  }
}

function* paramTypes(kernels: readonly FunctionInfo[]): Generator<QualType> {
  for (const k of kernels) for (const p of k.params) yield p.type;
}

function imagesOf(kernels: readonly FunctionInfo[]): Extract<ArgClass, { kind: 'image' }>[] {
  const images: Extract<ArgClass, { kind: 'image' }>[] = [];
  for (const k of kernels) {
    for (const p of k.params) {
      const arg = classifyArg(p.type);
      if (arg.kind === 'image') images.push(arg);
    }
  }
  return images;
}

const hasBuffers = (plans: readonly VulkanKernelPlan[]) => plans.some((k) => k.args.some((a) => a.argKind === 'buffer' || a.argKind === 'buffer_ubo'));

/** Capabilities, features and extensions the module needs. `storageTypes`: the types each storage class carries; `uses`: whether some kernel calls a builtin. */
export function vulkanRequirements(
  module: KernelModule,
  kernels: readonly FunctionInfo[],
  plans: readonly VulkanKernelPlan[],
  storageTypes: Readonly<Record<StorageClassName, readonly QualType[]>>,
  constantData: boolean,
  printf: VulkanPlan['printf'],
  uses: (builtin: string) => boolean,
): VulkanRequirements {
  const types = new Set<string>();
  addScalars(types, paramTypes(kernels));
  if (constantData) for (const v of module.variables) for (const s of scalarsIn(v.type)) types.add(s);
  const caps = ['Shader'];
  const images = imagesOf(kernels);
  if (hasBuffers(plans)) caps.push('VariablePointersStorageBuffer');
  if (has8(types)) caps.push('Int8');
  if (types.has('short') || types.has('ushort')) caps.push('Int16');
  if (types.has('long') || types.has('ulong')) caps.push('Int64');
  if (types.has('half')) caps.push('Float16');
  if (types.has('double')) caps.push('Float64');
  const writes = images.filter((c) => c.access !== 'read_only');
  const reads = images.filter((c) => c.access === 'read_only');
  const is1d = (c: (typeof images)[number]) => c.shape.dims === 1;
  if (writes.length) caps.push('ImageStorageWriteWithoutFormat');
  if (['get_image_width', 'get_image_height', 'get_image_depth', 'get_image_dim', 'get_image_array_size'].some(uses)) caps.push('ImageQuery');
  if (writes.some(is1d)) caps.push('Image1D');
  if (reads.some(is1d)) caps.push('Sampled1D');
  if (['get_sub_group_size', 'get_num_sub_groups', 'get_sub_group_id', 'get_sub_group_local_id', 'sub_group_broadcast', 'sub_group_all', 'sub_group_any', 'sub_group_barrier'].some(uses)) caps.push('GroupNonUniform');
  const features: string[] = [];
  if (types.has('short') || types.has('ushort')) features.push('shaderInt16');
  if (types.has('long') || types.has('ulong')) features.push('shaderInt64');
  if (types.has('double')) features.push('shaderFloat64');
  if (images.length) features.push('shaderStorageImageReadWithoutFormat', 'shaderStorageImageWriteWithoutFormat');
  const vkExt = ['VK_KHR_storage_buffer_storage_class', 'VK_KHR_variable_pointers', 'VK_KHR_shader_non_semantic_info'];
  const storage = { ssbo: new Set<string>(), ubo: new Set<string>(), pushconstant: new Set<string>() };
  for (const where of ['ssbo', 'ubo', 'pushconstant'] as const) addScalars(storage[where], storageTypes[where]);
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
  const spirvExtensions = ['SPV_KHR_storage_buffer_storage_class', 'SPV_KHR_variable_pointers', 'SPV_KHR_non_semantic_info'];
  addPhysicalRequirements(plans, printf, { caps, features, vkExt, spirvExtensions });
  return { capabilities: caps, spirvExtensions, vulkanFeatures: features, vulkanExtensions: vkExt };
}
