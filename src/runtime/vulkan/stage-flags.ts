// Vulkan's shader-stage, pipeline-stage and access bits that the runtime's barriers and layouts name (the values of
// VkShaderStageFlagBits, VkPipelineStageFlagBits and VkAccessFlagBits), and the command-buffer usage bit its
// recordings use, in one place.
/** VK_SHADER_STAGE_COMPUTE_BIT, and the pipeline stages. */
export const SHADER_STAGE_COMPUTE = 0x20;
export const STAGE_COMPUTE = 0x800;
export const STAGE_TRANSFER = 0x1000;
export const STAGE_HOST = 0x4000;
export const ACCESS_SHADER_READ = 0x20;
export const ACCESS_SHADER_WRITE = 0x40;
export const ACCESS_HOST_WRITE = 0x4000;
export const ACCESS_TRANSFER_READ = 0x800;
export const ACCESS_TRANSFER_WRITE = 0x1000;
export const ACCESS_HOST_READ = 0x2000;
/** The stages a full barrier waits on and blocks: compute, transfer and host. */
export const ALL_STAGES = STAGE_COMPUTE | STAGE_TRANSFER | STAGE_HOST;
/** What a full barrier makes visible: every shader, transfer and host write ... */
export const ALL_WRITES = ACCESS_SHADER_WRITE | ACCESS_TRANSFER_WRITE | ACCESS_HOST_WRITE;
/** ... to every later read and write. */
export const ALL_READS_AND_WRITES =
  ACCESS_SHADER_READ | ACCESS_SHADER_WRITE | ACCESS_TRANSFER_READ | ACCESS_TRANSFER_WRITE | ACCESS_HOST_READ;
/**
 * VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT: queued launches of one state resubmit one command buffer (recording.ts),
 * and execute one secondary command buffer several times in a batch and in batches in flight (secondary.ts).
 */
export const SIMULTANEOUS_USE = 4;
