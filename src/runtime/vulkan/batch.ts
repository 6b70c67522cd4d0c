// Queued launches gathered into one vkQueueSubmit. A submit costs the driver far more than the
// launch it carries (on an H200 about 12 µs a launch through a C host submitting each one, against
// 5 µs for an OpenCL enqueue), so VulkanKernel.enqueue hands its recording to the context's batch,
// and the batch goes to the queue in one submit: when it is full, or before anything that must see
// the queued launches run (a sync launch, a wait, a buffer read or write, a release,
// VulkanContext.flush()). Three ways (BatchWay, from VulkanOpenOptions.recordBatch):
// - record (true; the default on a GPU, batchWay): each launch's commands (barrier, pipeline, its recording's sets, push
//   constants, dispatch) recorded into the batch's own command buffer, one of a ring of RING, each
//   with a fence that is waited on before the command buffer is begun again; a barrier closes the
//   batch. On an H200 an empty kernel's queued launch took 2.24 and 3.81 µs so in two runs (C host 2.10,
//   OpenCL 5.71 and 7.27): below OpenCL in both, the C host's pace in one (docs/benchmarks.md).
// - secondary ('secondary'): each launch's commands recorded once per recording state into a
//   secondary command buffer of the recording (secondary.ts), its handle written into a list; the
//   batch's ring command buffer is that list in one vkCmdExecuteCommands and the closing barrier.
//   A warm queued launch makes no Vulkan call; the batch makes five (begin, execute, barrier, end, submit).
//   Half the recorded batch's CPU a launch on an H200, but 5.45 µs a launch against its 2.20-2.24 (C host making
//   the same calls 5.41-5.47, at 64 and 256 a batch alike): NVIDIA's cost is per command buffer, secondary or not
//   (docs/benchmarks.md). On lavapipe it spent less CPU than record: the default on a CPU device.
// - list (false): each launch's own recorded command buffer, its handle written into a list, the list
//   submitted as one VkSubmitInfo. Every recording begins and ends with a full memory barrier
//   (recording.ts), and barriers order the command buffers of one submission in their order in it.
//   6.38 µs a launch on the H200: the driver's cost is per command buffer, not per submit.
// Every way the launches keep an in-order queue's semantics, and each its own descriptor sets and
// POD memory, which VulkanKernel leaves alone while the launch is queued.
import { assertNever } from '../../assert-never.js';
import { RuntimeInputError } from '../../pack/errors.js';
import { Arena } from './arena.js';
import { waitForFence } from './fence-wait.js';
import type { State } from './owned.js';
import { SIMULTANEOUS_USE } from './stage-flags.js';
import { ST, structs as S } from './structs.js';
import { type VK, type VkHandle, check } from './vk.js';
import { koffi } from '../ffi.js';

/** Async launches per vkQueueSubmit unless VulkanOpenOptions.batch says otherwise. */
export const DEFAULT_BATCH = 64;
/** The most a batch may hold (its command-buffer list is this many handles at most). */
export const MAX_BATCH = 4096;
/** Command buffers a recorded batch cycles through: a fourth batch waits for the first. */
export const RING = 4;

/** How a batch holds its launches (see above): VulkanOpenOptions.recordBatch true, 'secondary', false. */
export type BatchWay = 'record' | 'secondary' | 'list';

/**
 * The way VulkanOpenOptions.recordBatch names; anything else is refused. Left out, by the device's type
 * (VulkanDeviceInfo.type): on a CPU device (lavapipe) the secondaries, which spent the least CPU a queued launch there
 * (0.855× and 0.878× the recorded batch's in two runs, docs/benchmarks.md), and what the device runs is the same CPU;
 * on a GPU the recorded batch (on an H200 the secondaries took 2.4× its time a launch: NVIDIA's cost is per command
 * buffer).
 */
export function batchWay(recordBatch: unknown, deviceType: string): BatchWay {
  if (recordBatch === undefined) return deviceType === 'CPU' ? 'secondary' : 'record';
  if (recordBatch === true) return 'record';
  if (recordBatch === false) return 'list';
  if (recordBatch === 'secondary') return 'secondary';
  throw new RuntimeInputError(`recordBatch must be true, false or 'secondary', not ${String(recordBatch)}`);
}

/**
 * A queued launch as the batch takes it: its recorded command buffer, its commands recorded into another, or its
 * commands in a secondary command buffer of its own (begun with `beginInfo` where it is recorded).
 */
export interface Batchable {
  readonly cb: VkHandle;
  recordInto(cb: VkHandle): void;
  secondary(beginInfo: bigint): VkHandle;
}

/** What a record or secondary batch needs from its context: command buffers and fences of its own, and the full barrier. */
export interface BatchRing {
  readonly device: VkHandle;
  readonly cbs: readonly VkHandle[];
  readonly fences: readonly VkHandle[];
  barrier(cb: VkHandle): void;
}

export class SubmitBatch {
  /** Launches gathered and not yet submitted. */
  queued = 0;
  private readonly arena: Arena;
  private readonly info: bigint;
  /** Arena offsets of the submit info's commandBufferCount and of the command-buffer list. */
  private readonly countAt: number;
  private readonly listAt: number;
  /** The command-buffer list's address. */
  private readonly list: bigint;
  /** record: each ring slot's fence handle in the arena (what vkWaitForFences reads), and whether it is to be waited on. */
  private readonly fenceSlots: bigint[] = [];
  private readonly fenced: boolean[] = [];
  private readonly beginInfo: bigint = 0n;
  /** secondary: the begin info of a launch's secondary command buffer (inheritance info, SIMULTANEOUS_USE). */
  private readonly secondaryBegin: bigint = 0n;
  private slot = 0;

  constructor(
    private readonly vk: VK,
    private readonly queue: VkHandle,
    private readonly state: State,
    /** Launches per submit: 1 submits each launch as it is queued. */
    readonly size: number,
    readonly way: BatchWay,
    /** Needed by record and secondary. */
    private readonly ring?: BatchRing,
  ) {
    if (way !== 'list' && !ring) throw new Error(`internal: a ${way} batch needs a ring`);
    const a = (this.arena = new Arena(768 + 8 * size));
    const list = (this.list = a.alloc(8 * size));
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
    if (ring) {
      for (const f of ring.fences) {
        this.fenceSlots.push(a.array('void *', [f]));
        this.fenced.push(false);
      }
      // ONE_TIME_SUBMIT: a batch's command buffer is submitted once, then begun again.
      this.beginInfo = a.put(S().VkCommandBufferBeginInfo, {
        sType: ST.COMMAND_BUFFER_BEGIN_INFO,
        pNext: 0n,
        flags: 1,
        pInheritanceInfo: 0n,
      });
      if (way === 'secondary')
        this.secondaryBegin = a.put(S().VkCommandBufferBeginInfo, {
          sType: ST.COMMAND_BUFFER_BEGIN_INFO,
          pNext: 0n,
          flags: SIMULTANEOUS_USE,
          pInheritanceInfo: a.put(S().VkCommandBufferInheritanceInfo, {
            sType: ST.COMMAND_BUFFER_INHERITANCE_INFO,
            pNext: 0n,
            renderPass: 0n,
            subpass: 0,
            framebuffer: 0n,
            occlusionQueryEnable: 0,
            queryFlags: 0,
            pipelineStatistics: 0,
          }),
        });
    }
  }

  /**
   * Queues a launch; returns the serial its submission will have (State.submitted counts
   * submissions, so VulkanContext.pending holds it queued until a wait covers that one).
   */
  add(launch: Batchable): number {
    const serial = this.state.submitted + 1;
    const way = this.way;
    switch (way) {
      case 'record': {
        const ring = this.ring!;
        if (this.queued === 0) this.begin(ring);
        launch.recordInto(ring.cbs[this.slot]);
        break;
      }
      case 'secondary':
        this.arena.view.setBigUint64(this.listAt + 8 * this.queued, launch.secondary(this.secondaryBegin), true);
        break;
      case 'list':
        this.arena.view.setBigUint64(this.listAt + 8 * this.queued, launch.cb, true);
        break;
      default:
        assertNever(way);
    }
    if (++this.queued === this.size) this.flush();
    return serial;
  }

  /** Begins the ring's next command buffer, once the submission that last used it has finished. */
  private begin(ring: BatchRing): void {
    const s = this.slot;
    if (this.fenced[s]) {
      waitForFence(this.vk, ring.device, this.fenceSlots[s], 0);
      check(this.vk.ResetFences(ring.device, 1, this.fenceSlots[s]), 'vkResetFences');
      this.fenced[s] = false;
    }
    check(this.vk.BeginCommandBuffer(ring.cbs[s], this.beginInfo), 'vkBeginCommandBuffer');
  }

  /** Submits what is queued, without waiting (nothing to do when nothing is). */
  flush(): void {
    const n = this.queued;
    if (n === 0) return;
    this.queued = 0;
    const way = this.way;
    let fence: VkHandle | null = null;
    switch (way) {
      case 'record':
      case 'secondary': {
        const ring = this.ring!;
        const s = this.slot;
        const cb = ring.cbs[s];
        if (way === 'secondary') {
          // The list holds the launches' secondaries until they are recorded here; then the one primary.
          this.begin(ring);
          this.vk.CmdExecuteCommands(cb, n, this.list);
        }
        ring.barrier(cb);
        check(this.vk.EndCommandBuffer(cb), 'vkEndCommandBuffer');
        this.arena.view.setBigUint64(this.listAt, cb, true);
        this.arena.view.setUint32(this.countAt, 1, true);
        fence = ring.fences[s];
        this.fenced[s] = true;
        this.slot = (s + 1) % ring.cbs.length;
        break;
      }
      case 'list':
        this.arena.view.setUint32(this.countAt, n, true);
        break;
      default:
        assertNever(way);
    }
    check(this.vk.QueueSubmit(this.queue, 1, this.info, fence), 'vkQueueSubmit');
    this.state.submitted++;
  }

  /** Forgets what is queued, unsubmitted: the context is going away. */
  drop(): void {
    this.queued = 0;
  }

  /** Destroys the ring's fences (before the device) and frees the arena. */
  free(): void {
    this.queued = 0;
    if (this.ring) for (const f of this.ring.fences) this.vk.DestroyFence(this.ring.device, f, null);
    this.arena.free();
  }
}
