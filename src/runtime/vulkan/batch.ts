// Queued launches gathered into one vkQueueSubmit. A submit costs the driver far more than the
// launch it carries (on an H200 about 12 µs a launch through a C host submitting each one, against
// 5 µs for an OpenCL enqueue), so VulkanKernel.enqueue adds its recorded command buffer to the
// context's batch and the batch goes to the queue as one VkSubmitInfo of many command buffers: when
// it is full, or before anything that must see the queued launches run (a sync launch, a wait, a
// buffer read or write, a release, VulkanContext.flush()). Every recording begins and ends with a
// full memory barrier (recording.ts), and barriers order the command buffers of one submission in
// their order in it, so the launches of a batch keep an in-order queue's semantics; each keeps its
// own descriptor sets and POD memory, which VulkanKernel leaves alone while the launch is queued.
import { Arena } from './arena.js';
import type { State } from './owned.js';
import { ST, structs as S } from './structs.js';
import { type VK, type VkHandle, check } from './vk.js';
import { koffi } from '../ffi.js';

/** Async launches per vkQueueSubmit unless VulkanOpenOptions.batch says otherwise. */
export const DEFAULT_BATCH = 64;
/** The most a batch may hold (its command-buffer list is this many handles at most). */
export const MAX_BATCH = 4096;

export class SubmitBatch {
  /** Launches gathered and not yet submitted. */
  queued = 0;
  private readonly arena: Arena;
  private readonly info: bigint;
  /** Arena offsets of the submit info's commandBufferCount and of the command-buffer list. */
  private readonly countAt: number;
  private readonly listAt: number;

  constructor(
    private readonly vk: VK,
    private readonly queue: VkHandle,
    private readonly state: State,
    /** Launches per submit: 1 submits each launch as it is queued. */
    readonly size: number,
  ) {
    const a = (this.arena = new Arena(256 + 8 * size));
    const list = a.alloc(8 * size);
    this.listAt = a.at(list);
    this.info = a.put(S().VkSubmitInfo, {
      sType: ST.SUBMIT_INFO,
      pNext: 0n,
      waitSemaphoreCount: 0,
      pWaitSemaphores: 0n,
      pWaitDstStageMask: 0n,
      commandBufferCount: 0,
      pCommandBuffers: list,
      signalSemaphoreCount: 0,
      pSignalSemaphores: 0n,
    });
    this.countAt = a.at(this.info) + koffi().offsetof(S().VkSubmitInfo, 'commandBufferCount');
  }

  /**
   * Queues a recorded command buffer; returns the serial its submission will have (State.submitted
   * counts submissions, so VulkanContext.pending holds it queued until a wait covers that one).
   */
  add(cb: VkHandle): number {
    const serial = this.state.submitted + 1;
    this.arena.view.setBigUint64(this.listAt + 8 * this.queued, cb, true);
    if (++this.queued === this.size) this.flush();
    return serial;
  }

  /** Submits what is queued, without a fence (nothing to do when nothing is). */
  flush(): void {
    const n = this.queued;
    if (n === 0) return;
    this.queued = 0;
    this.arena.view.setUint32(this.countAt, n, true);
    check(this.vk.QueueSubmit(this.queue, 1, this.info, null), 'vkQueueSubmit');
    this.state.submitted++;
  }

  /** Forgets what is queued, unsubmitted: the context is going away. */
  drop(): void {
    this.queued = 0;
  }

  free(): void {
    this.queued = 0;
    this.arena.free();
  }
}
