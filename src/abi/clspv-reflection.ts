/**
 * The instructions of the NonSemantic.ClspvReflection extended instruction set (version 7), by
 * name: their opcode and the set version that introduced them. Facts from the SPIR-V registry's
 * specification and grammar (`extinst.nonsemantic.clspvreflection.grammar.json`, revision 7).
 *
 * This table is shared: the vulkan plan names each slot by its instruction (`reflection` in the
 * JSON), and the SPIR-V writer emits the same opcodes. Keep the names and numbers stable.
 */
export const CLSPV_REFLECTION = {
  Kernel: { opcode: 1, since: 1 },
  ArgumentInfo: { opcode: 2, since: 1 },
  ArgumentStorageBuffer: { opcode: 3, since: 1 },
  ArgumentUniform: { opcode: 4, since: 1 },
  ArgumentPodStorageBuffer: { opcode: 5, since: 1 },
  ArgumentPodUniform: { opcode: 6, since: 1 },
  ArgumentPodPushConstant: { opcode: 7, since: 1 },
  ArgumentSampledImage: { opcode: 8, since: 1 },
  ArgumentStorageImage: { opcode: 9, since: 1 },
  ArgumentSampler: { opcode: 10, since: 1 },
  ArgumentWorkgroup: { opcode: 11, since: 1 },
  SpecConstantWorkgroupSize: { opcode: 12, since: 1 },
  SpecConstantGlobalOffset: { opcode: 13, since: 1 },
  SpecConstantWorkDim: { opcode: 14, since: 1 },
  PushConstantGlobalOffset: { opcode: 15, since: 1 },
  PushConstantEnqueuedLocalSize: { opcode: 16, since: 1 },
  PushConstantGlobalSize: { opcode: 17, since: 1 },
  PushConstantRegionOffset: { opcode: 18, since: 1 },
  PushConstantNumWorkgroups: { opcode: 19, since: 1 },
  PushConstantRegionGroupOffset: { opcode: 20, since: 1 },
  ConstantDataStorageBuffer: { opcode: 21, since: 1 },
  ConstantDataUniform: { opcode: 22, since: 1 },
  LiteralSampler: { opcode: 23, since: 1 },
  PropertyRequiredWorkgroupSize: { opcode: 24, since: 1 },
  SpecConstantSubgroupMaxSize: { opcode: 25, since: 2 },
  ArgumentPointerPushConstant: { opcode: 26, since: 3 },
  ArgumentPointerUniform: { opcode: 27, since: 3 },
  ProgramScopeVariablesStorageBuffer: { opcode: 28, since: 3 },
  ProgramScopeVariablePointerRelocation: { opcode: 29, since: 3 },
  ImageArgumentInfoChannelOrderPushConstant: { opcode: 30, since: 3 },
  ImageArgumentInfoChannelDataTypePushConstant: { opcode: 31, since: 3 },
  ImageArgumentInfoChannelOrderUniform: { opcode: 32, since: 3 },
  ImageArgumentInfoChannelDataTypeUniform: { opcode: 33, since: 3 },
  ArgumentStorageTexelBuffer: { opcode: 34, since: 4 },
  ArgumentUniformTexelBuffer: { opcode: 35, since: 4 },
  ConstantDataPointerPushConstant: { opcode: 36, since: 5 },
  ProgramScopeVariablePointerPushConstant: { opcode: 37, since: 5 },
  PrintfInfo: { opcode: 38, since: 5 },
  PrintfBufferStorageBuffer: { opcode: 39, since: 5 },
  PrintfBufferPointerPushConstant: { opcode: 40, since: 5 },
  NormalizedSamplerMaskPushConstant: { opcode: 41, since: 6 },
  WorkgroupVariableSize: { opcode: 42, since: 7 },
} as const satisfies Record<string, { readonly opcode: number; readonly since: number }>;

export type ClspvReflectionName = keyof typeof CLSPV_REFLECTION;

/** The highest version of the instruction set this table describes. */
export const CLSPV_REFLECTION_VERSION = 7;

/** Kernel flags operand: MayUsePrintf (bit 0) is set on every kernel of a module that uses printf. */
export const CLSPV_KERNEL_FLAG_MAY_USE_PRINTF = 1;
