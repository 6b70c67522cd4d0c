// The reflection instruction clspv (lib/SPIRVProducerPass.cpp) writes for each descriptor-map kind.
import type { ClspvReflectionName } from '../../emit/spirv/clspv-instructions.js';

/** The reflection instruction of each descriptor-map kind. */
export const ARG_KIND_REFLECTION = {
  buffer: 'ArgumentStorageBuffer',
  buffer_ubo: 'ArgumentUniform',
  pod: 'ArgumentPodStorageBuffer',
  pod_ubo: 'ArgumentPodUniform',
  pod_pushconstant: 'ArgumentPodPushConstant',
  pointer_pushconstant: 'ArgumentPointerPushConstant',
  pointer_ubo: 'ArgumentPointerUniform',
  ro_image: 'ArgumentSampledImage',
  wo_image: 'ArgumentStorageImage',
  storage_texel_buffer: 'ArgumentStorageTexelBuffer',
  uniform_texel_buffer: 'ArgumentUniformTexelBuffer',
  sampler: 'ArgumentSampler',
  local: 'ArgumentWorkgroup',
} as const satisfies Record<string, ClspvReflectionName>;
