// One recorded launch of a kernel: a command buffer recorded once, with descriptor sets and POD
// memory of its own, and the state it was recorded with (pipeline, work-groups, bound buffers,
// push constants, timestamps or not). A launch whose state equals a recording's submits that
// command buffer again as it is, as a C host that records once and resubmits does: nothing is
// recorded, no descriptor written, no structure encoded. Vulkan forbids re-recording a command
// buffer, or writing the descriptor sets it binds, while a submission of it is pending, so a
// queued recording is never changed: queued launches with other arguments take another.
import type { Arena } from './arena.js';
import { type VulkanBuffer, type VulkanContext } from './context.js';
import { SecondaryCommands } from './secondary.js';
import { SHADER_STAGE_COMPUTE, SIMULTANEOUS_USE } from './stage-flags.js';
import { ST, structs as S } from './structs.js';
import { type VkHandle, check } from './vk.js';

const STAGE_TOP = 0x1;
const STAGE_BOTTOM = 0x2000;
const BIND_COMPUTE = 1;
const WHOLE_SIZE = 0xffffffffffffffffn;
export { SIMULTANEOUS_USE };

/** What every recording of one kernel shares. */
export interface RecordingFrame {
  readonly ctx: VulkanContext;
  readonly arena: Arena;
  /** The descriptor pool (0n when the kernel binds no set), with room for every recording's sets. */
  readonly pool: VkHandle;
  /** The set layouts, an array of handles in the arena. */
  readonly layouts: bigint;
  readonly nSets: number;
  readonly pipelineLayout: VkHandle;
  readonly queryPool: VkHandle;
  /** A VkCommandBufferBeginInfo with SIMULTANEOUS_USE, in the arena. */
  readonly beginInfo: bigint;
  readonly bindings: readonly { readonly set: number; readonly binding: number; readonly type: number }[];
  /** Made objects the kernel releases (its releaser settles the queue first). */
  readonly made: { readonly cbs: VkHandle[]; readonly pods: VulkanBuffer[] };
}

/** One launch's state, gathered by the kernel into objects of its own before it looks for a recording. */
export interface LaunchState {
  pipeline: VkHandle;
  readonly groups: [number, number, number];
  timed: boolean;
  /** Per binding: the buffer's id (VulkanOwned.id) and handle; -1 and 0n for a binding of POD bytes. */
  readonly ids: number[];
  readonly handles: VkHandle[];
  /** Per binding: the packer's POD bytes (undefined for a buffer binding). */
  readonly pods: (Uint8Array | undefined)[];
  /** The push-constant bytes (undefined without a push-constant range). */
  push: Uint8Array | undefined;
}

export class Recording {
  readonly cb: VkHandle;
  /** Its VkSubmitInfo in the arena. */
  readonly submitInfo: bigint;
  /** The serial of its last submission (VulkanContext.pending tells whether it may be running). */
  serial = 0;
  lastUse = 0;
  private readonly sets: bigint = 0n;
  private readonly writes: bigint = 0n;
  /** Per binding: the arena offset of its VkDescriptorBufferInfo. */
  private readonly infoAt: number[] = [];
  /** The mapped POD memory, and each POD binding's offset in it (-1 for a buffer binding). */
  private readonly podMemory: Uint8Array | undefined;
  private readonly podAt: number[] = [];
  private valid = false;
  private pipeline: VkHandle = 0n;
  private readonly groups: [number, number, number] = [0, 0, 0];
  private timed = false;
  private readonly ids: number[];
  private readonly pods: Uint8Array[];
  private readonly push: Uint8Array;
  /** Its launch commands in a secondary command buffer (recordBatch 'secondary'), recorded on first use. */
  private readonly second: SecondaryCommands;

  constructor(
    private readonly f: RecordingFrame,
    s: LaunchState,
  ) {
    const { ctx, arena: a } = f;
    const { vk, vkDevice: device } = ctx;
    this.cb = ctx.commandBuffer();
    f.made.cbs.push(this.cb);
    this.second = new SecondaryCommands(ctx, f.made.cbs);
    this.submitInfo = a.put(S().VkSubmitInfo, {
      sType: ST.SUBMIT_INFO,
      pNext: 0n,
      waitSemaphoreCount: 0,
      pWaitSemaphores: 0n,
      pWaitDstStageMask: 0n,
      commandBufferCount: 1,
      pCommandBuffers: a.array('void *', [this.cb]),
      signalSemaphoreCount: 0,
      pSignalSemaphores: 0n,
    });
    const n = f.bindings.length;
    this.ids = new Array<number>(n).fill(-2);
    this.pods = s.pods.map((p) => new Uint8Array(p ? p.length : 0));
    this.push = new Uint8Array(s.push ? s.push.length : 0);
    // The POD blocks of this recording, one slice each in one host-visible buffer, at offsets the device allows.
    const align = Math.max(ctx.limits.minStorageBufferOffsetAlignment, ctx.limits.minUniformBufferOffsetAlignment, 4);
    let podBytes = 0;
    const slices = s.pods.map((p) => {
      if (!p) return 0;
      const size = Math.ceil(Math.max(p.length, 4) / align) * align;
      podBytes += size;
      return size;
    });
    let pod: VulkanBuffer | undefined;
    if (podBytes) {
      pod = ctx.buffer(podBytes, { host: true });
      f.made.pods.push(pod);
      this.podMemory = pod.mapped!;
    }
    if (!f.nSets) return;
    this.sets = a.alloc(8 * f.nSets);
    check(
      vk.AllocateDescriptorSets(
        device,
        a.put(S().VkDescriptorSetAllocateInfo, {
          sType: ST.DESCRIPTOR_SET_ALLOCATE_INFO,
          pNext: 0n,
          descriptorPool: f.pool,
          descriptorSetCount: f.nSets,
          pSetLayouts: f.layouts,
        }),
        this.sets,
      ),
      'vkAllocateDescriptorSets',
    );
    let at = 0;
    const infos = f.bindings.map((_, i) => {
      this.podAt.push(slices[i] ? at : -1);
      const info = slices[i]
        ? { buffer: pod!.handle, offset: at, range: slices[i] }
        : { buffer: 0n, offset: 0, range: WHOLE_SIZE };
      at += slices[i];
      const addr = a.put(S().VkDescriptorBufferInfo, info);
      this.infoAt.push(a.at(addr));
      return addr;
    });
    this.writes = a.array(
      S().VkWriteDescriptorSet,
      f.bindings.map((b, i) => ({
        sType: ST.WRITE_DESCRIPTOR_SET,
        pNext: 0n,
        dstSet: a.u64(this.sets + BigInt(8 * b.set)),
        dstBinding: b.binding,
        dstArrayElement: 0,
        descriptorCount: 1,
        descriptorType: b.type,
        pImageInfo: 0n,
        pBufferInfo: infos[i],
        pTexelBufferView: 0n,
      })),
    );
  }

  /** Recorded with this pipeline, geometry, buffers, push constants and timestamps (the POD blocks aside). */
  sameShape(s: LaunchState): boolean {
    if (!this.valid || this.pipeline !== s.pipeline || this.timed !== s.timed) return false;
    const g = this.groups;
    if (g[0] !== s.groups[0] || g[1] !== s.groups[1] || g[2] !== s.groups[2]) return false;
    const ids = this.ids;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== s.ids[i]) return false;
    return s.push === undefined || same(this.push, s.push);
  }

  /** Its POD blocks hold these bytes. */
  samePods(s: LaunchState): boolean {
    for (let i = 0; i < this.pods.length; i++) {
      const p = s.pods[i];
      if (p && !same(this.pods[i], p)) return false;
    }
    return true;
  }

  /** Writes the launch's POD bytes into this recording's memory (it must not be pending). */
  writePods(s: LaunchState): void {
    for (let i = 0; i < this.pods.length; i++) {
      const p = s.pods[i];
      if (!p) continue;
      this.pods[i].set(p);
      this.podMemory!.set(p, this.podAt[i]);
    }
  }

  /**
   * Records this launch's commands into a batch's command buffer (batch.ts, recordBatch): a barrier, then what
   * record() put into its own, bound to its own sets and POD memory; the batch closes with a barrier.
   */
  recordInto(cb: VkHandle): void {
    const f = this.f;
    const vk = f.ctx.vk;
    f.ctx.barrier(cb);
    vk.CmdBindPipeline(cb, BIND_COMPUTE, this.pipeline);
    if (f.nSets) vk.CmdBindDescriptorSets(cb, BIND_COMPUTE, f.pipelineLayout, 0, f.nSets, this.sets, 0, null);
    if (this.push.length)
      vk.CmdPushConstants(cb, f.pipelineLayout, SHADER_STAGE_COMPUTE, 0, this.push.length, this.push);
    vk.CmdDispatch(cb, this.groups[0], this.groups[1], this.groups[2]);
  }

  /**
   * Its launch commands (recordInto's) in a secondary command buffer of its own, recorded once per record() on the
   * first call, with `beginInfo` (batch.ts, recordBatch 'secondary'); it must not be pending when that call records.
   */
  secondary(beginInfo: bigint): VkHandle {
    return this.second.handle(beginInfo, this);
  }

  /** Forgets the recorded state: the next launch records again. */
  invalidate(): void {
    this.valid = false;
    this.second.invalidate();
  }

  /** Records the launch (this recording must not be pending): its buffers into its sets, its PODs, the commands. */
  record(s: LaunchState): void {
    const f = this.f;
    const { vk, vkDevice: device } = f.ctx;
    const a = f.arena;
    this.invalidate();
    if (f.nSets) {
      for (let i = 0; i < this.ids.length; i++)
        if (this.podAt[i] < 0) a.view.setBigUint64(this.infoAt[i], s.handles[i], true);
      vk.UpdateDescriptorSets(device, f.bindings.length, this.writes, 0, null);
    }
    this.writePods(s);
    const cb = this.cb;
    check(vk.BeginCommandBuffer(cb, f.beginInfo), 'vkBeginCommandBuffer');
    if (s.timed) vk.CmdResetQueryPool(cb, f.queryPool, 0, 2);
    f.ctx.barrier(cb);
    vk.CmdBindPipeline(cb, BIND_COMPUTE, s.pipeline);
    if (f.nSets) vk.CmdBindDescriptorSets(cb, BIND_COMPUTE, f.pipelineLayout, 0, f.nSets, this.sets, 0, null);
    if (s.push) vk.CmdPushConstants(cb, f.pipelineLayout, SHADER_STAGE_COMPUTE, 0, s.push.length, s.push);
    if (s.timed) vk.CmdWriteTimestamp(cb, STAGE_TOP, f.queryPool, 0);
    vk.CmdDispatch(cb, s.groups[0], s.groups[1], s.groups[2]);
    if (s.timed) vk.CmdWriteTimestamp(cb, STAGE_BOTTOM, f.queryPool, 1);
    f.ctx.barrier(cb);
    check(vk.EndCommandBuffer(cb), 'vkEndCommandBuffer');
    this.pipeline = s.pipeline;
    this.timed = s.timed;
    this.groups[0] = s.groups[0];
    this.groups[1] = s.groups[1];
    this.groups[2] = s.groups[2];
    for (let i = 0; i < this.ids.length; i++) this.ids[i] = s.ids[i];
    if (s.push) this.push.set(s.push);
    this.valid = true;
  }
}

function same(x: Uint8Array, y: Uint8Array): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
