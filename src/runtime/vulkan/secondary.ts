// A recording's launch commands (barrier, pipeline, sets, push constants, dispatch) recorded once
// into a secondary command buffer of its own, for a batch made of vkCmdExecuteCommands
// (VulkanOpenOptions.recordBatch 'secondary', batch.ts): a queued launch whose recording is
// unchanged makes no Vulkan call at all, its secondary's handle is written into the batch's list.
// Recorded on first use after the recording was (re)recorded: the recording is then not pending
// (recording.ts re-records only such), so neither is its secondary, nor is it in a batch not yet
// submitted. SIMULTANEOUS_USE: one secondary runs several times in one batch and in batches in flight.
import type { VulkanContext } from './context.js';
import { check, type VkHandle } from './vk.js';

export class SecondaryCommands {
  private cb: VkHandle = 0n;
  private valid = false;

  constructor(
    private readonly ctx: VulkanContext,
    /** The kernel's made command buffers, which the secondary joins (freed on its release). */
    private readonly made: VkHandle[],
  ) {}

  /** The recording changed: the next handle() records again. */
  invalidate(): void {
    this.valid = false;
  }

  /**
   * The secondary command buffer, first begun with `beginInfo` (a VkCommandBufferBeginInfo with inheritance info and
   * SIMULTANEOUS_USE, batch.ts) and filled by `launch.recordInto` where it is not recorded yet.
   */
  handle(beginInfo: bigint, launch: { recordInto(cb: VkHandle): void }): VkHandle {
    if (this.valid) return this.cb;
    const vk = this.ctx.vk;
    if (this.cb === 0n) {
      this.cb = this.ctx.commandBuffer(true);
      this.made.push(this.cb);
    }
    check(vk.BeginCommandBuffer(this.cb, beginInfo), 'vkBeginCommandBuffer');
    launch.recordInto(this.cb);
    check(vk.EndCommandBuffer(this.cb), 'vkEndCommandBuffer');
    this.valid = true;
    return this.cb;
  }
}
