// What a caller may ask of a Vulkan context when opening it, the features kernarg's SPIR-V may need,
// and the device limits a context reads.
/** The features kernarg's SPIR-V may need; a context enables those of them its device has. */
export const KERNARG_FEATURES = [
  'shaderInt8',
  'shaderInt16',
  'shaderInt64',
  'shaderFloat64',
  'storageBuffer8BitAccess',
  'uniformAndStorageBuffer8BitAccess',
  'storagePushConstant8',
  'storageBuffer16BitAccess',
  'uniformAndStorageBuffer16BitAccess',
  'storagePushConstant16',
  'variablePointersStorageBuffer',
  'variablePointers',
  'bufferDeviceAddress',
  'shaderBufferInt64Atomics',
  'shaderSharedInt64Atomics',
  'shaderBufferFloat32AtomicAdd',
  'shaderSharedFloat32AtomicAdd',
  'shaderBufferFloat64AtomicAdd',
  'shaderSharedFloat64AtomicAdd',
  'vulkanMemoryModel',
  'vulkanMemoryModelDeviceScope',
  // tinytc v0.4's subgroup reductions and scans of 64-bit integers and halves (codegen/spirv/subgroup-operations.ts).
  'shaderSubgroupExtendedTypes',
] as const;

export interface VulkanOpenOptions {
  /** Enable exactly these features (an error names any the device lacks); default: KERNARG_FEATURES the device has. */
  readonly features?: readonly string[];
  /** Treat these features as absent, as on a smaller device. */
  readonly withoutFeatures?: readonly string[];
  /** Enable VK_LAYER_KHRONOS_validation (also KERNARG_VK_VALIDATION=1). */
  readonly validation?: boolean;
  /**
   * Never map device-local memory, as on a discrete GPU without resizable BAR: buffers move through a staging buffer.
   */
  readonly staging?: boolean;
  /**
   * Async launches (VulkanKernel.enqueue) gathered into one vkQueueSubmit, 1 to 4096 (default 64): the batch is
   * submitted when full, or by flush(), finish(), a sync launch, or a buffer's read or write. 1 submits each launch.
   */
  readonly batch?: number;
  /**
   * How a batch holds its launches (src/runtime/vulkan/batch.ts). Left out: 'secondary' on a CPU device (lavapipe),
   * true on a GPU (batchWay). true: each queued launch's commands are
   * recorded into the batch's own command buffer, one command buffer a submit (four or five Vulkan calls a launch);
   * 'secondary': each launch state's commands are recorded once into a secondary command buffer, and the batch's
   * command buffer executes the queued launches' secondaries in one vkCmdExecuteCommands (no Vulkan call a warm
   * launch; on an H200 5.45 µs a queued launch against the recorded batch's 2.20-2.24 in two runs, NVIDIA's cost
   * being per command buffer); false: the launches' own recorded command buffers are submitted as a list (on an H200
   * the list took 6.38 µs a queued launch against the recorded batch's 2.24 in one run, 6.47 against 3.81 in another).
   */
  readonly recordBatch?: boolean | 'secondary';
}

export interface Limits {
  readonly maxPushConstantsSize: number;
  readonly maxComputeWorkGroupSize: readonly number[];
  readonly maxComputeWorkGroupCount: readonly number[];
  readonly maxComputeWorkGroupInvocations: number;
  readonly maxComputeSharedMemorySize: number;
  readonly timestampPeriod: number;
  readonly minStorageBufferOffsetAlignment: number;
  readonly minUniformBufferOffsetAlignment: number;
}
