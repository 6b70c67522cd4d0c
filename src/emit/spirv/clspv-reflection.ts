// NonSemantic.ClspvReflection: the extended instruction set clspv embeds so runtimes can read a
// module's kernel interface (SPIRV-Registry nonsemantic/NonSemantic.ClspvReflection.asciidoc;
// numbers from the registry's grammar, revision 7). Import name as clspv writes it.

export const CLSPV_REFLECTION_IMPORT = 'NonSemantic.ClspvReflection.5';

/** Instruction numbers of the reflection instructions kernarg writes and reads. */
export const Reflection = {
  Kernel: 1,
  ArgumentInfo: 2,
  ArgumentStorageBuffer: 3,
  ArgumentUniform: 4,
  ArgumentPodStorageBuffer: 5,
  ArgumentPodUniform: 6,
  ArgumentPodPushConstant: 7,
  ArgumentWorkgroup: 11,
  SpecConstantWorkgroupSize: 12,
  PushConstantGlobalOffset: 15,
  PushConstantEnqueuedLocalSize: 16,
  PushConstantGlobalSize: 17,
  PushConstantRegionOffset: 18,
  PushConstantNumWorkgroups: 19,
  PushConstantRegionGroupOffset: 20,
  PropertyRequiredWorkgroupSize: 24,
} as const;
export type ReflectionName = keyof typeof Reflection;
