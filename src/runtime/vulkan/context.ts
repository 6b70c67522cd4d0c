// A Vulkan instance, one physical device chosen by substring, its logical device and compute queue,
// buffers with their memory, and one-shot submissions. Every object the context creates is
// released once: by its dispose(), by a FinalizationRegistry when its owner is collected, or by
// the context's dispose().
import { RuntimeInputError } from '../../pack/errors.js';
import { Arena } from './arena.js';
import { enableChain, featureStruct, supportedFeatures } from './features.js';
import {
  API_1_2,
  API_1_3,
  type VulkanDeviceInfo,
  computeQueue,
  createInstance,
  deviceExtensions,
  instanceVersion,
  memoryProperties,
  physicalDevices,
} from './instance.js';
import { ST, structs as S } from './structs.js';
import { type VK, type VkHandle, VulkanError, check, openVulkan } from './vk.js';
import { VulkanBuffer, makeBuffer } from './buffer.js';
import { KERNARG_FEATURES, type Limits, type VulkanOpenOptions } from './open-options.js';
import { type State, registry, settle } from './owned.js';
import { fencePolls, waitForFence } from './fence-wait.js';
import { type Batchable, DEFAULT_BATCH, MAX_BATCH, RING, SubmitBatch, batchWay } from './batch.js';
import * as flags from './stage-flags.js';

/** A forgotten context's release, made outside its constructor so that it does not hold the context. */
function contextReleaser(
  vk: VK,
  state: State,
  instance: VkHandle,
  device: VkHandle,
  pool: VkHandle,
  fence: VkHandle,
  arena: Arena,
  batch: SubmitBatch,
): () => void {
  return () => {
    // Launches queued and never submitted are dropped: nothing can read what they would write.
    batch.drop();
    vk.DeviceWaitIdle(device);
    state.completed = state.submitted;
    for (const release of [...state.children.values()]) release();
    state.alive = false;
    batch.free();
    vk.DestroyFence(device, fence, null);
    vk.DestroyCommandPool(device, pool, null);
    vk.DestroyDevice(device, null);
    vk.DestroyInstance(instance, null);
    arena.free();
  };
}

/** A full memory barrier (earlier shader, transfer and host writes before later reads and writes) into `cb`. */
function recordBarrier(vk: VK, barrierInfo: bigint, cb: VkHandle): void {
  vk.CmdPipelineBarrier(cb, flags.ALL_STAGES, flags.ALL_STAGES, 0, 1, barrierInfo, 0, null, 0, null);
}

/** The barrier as a function that holds no context (a batch keeps it: see contextReleaser). */
function fullBarrier(vk: VK, barrierInfo: bigint): (cb: VkHandle) => void {
  return (cb) => recordBarrier(vk, barrierInfo, cb);
}

export class VulkanContext {
  readonly vk: VK;
  readonly state: State = { alive: true, children: new Map(), nextId: 0, submitted: 0, completed: 0 };
  readonly instance: VkHandle;
  readonly physical: VkHandle;
  readonly vkDevice: VkHandle;
  readonly queue: VkHandle;
  readonly queueFamily: number;
  readonly device: VulkanDeviceInfo;
  /** How often a sync launch polls its fence before blocking (fence-wait.ts): none on a CPU device. */
  private readonly fencePolls: number;
  /** The version the context uses: the lower of the device's and the instance's (1.2 or 1.3). */
  readonly apiVersion: number;
  readonly limits: Limits;
  readonly timestampBits: number;
  /** Features the physical device has (less `withoutFeatures`), and those the logical device enables. */
  readonly supported: ReadonlySet<string>;
  readonly enabled: ReadonlySet<string>;
  /** Device extensions the physical device offers, and those enabled. */
  readonly extensions: ReadonlySet<string>;
  readonly enabledExtensions: ReadonlySet<string>;
  readonly memoryTypes: readonly { flags: number; heap: number }[];
  private readonly arena = new Arena(1 << 16);
  private readonly commandPool: VkHandle;
  private readonly oneShot: VkHandle;
  private readonly fence: VkHandle;
  private readonly barrierInfo: bigint = 0n;
  /** Async launches gathered for one vkQueueSubmit (batch.ts). */
  private readonly batch: SubmitBatch | undefined;
  private staging: VulkanBuffer | undefined;
  private readonly alwaysStage: boolean;
  private disposed = false;

  /** Opens the first Vulkan device whose name contains `filter` (case-insensitive); the first one without. */
  static open(filter?: string, options: VulkanOpenOptions = {}): VulkanContext {
    return new VulkanContext(filter, options);
  }

  private constructor(filter: string | undefined, o: VulkanOpenOptions) {
    this.vk = openVulkan();
    const vk = this.vk;
    const a = this.arena;
    const validation = o.validation ?? process.env.KERNARG_VK_VALIDATION === '1';
    this.alwaysStage = o.staging ?? false;
    const batchSize = o.batch ?? DEFAULT_BATCH;
    if (!Number.isSafeInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH)
      throw new RuntimeInputError(`batch must be a whole number of launches from 1 to ${MAX_BATCH}, not ${batchSize}`);
    this.instance = createInstance(vk, a, validation);
    try {
      const all = physicalDevices(vk, this.instance, a);
      if (all.length === 0)
        throw new RuntimeInputError('no Vulkan device: the loader found a driver but no physical device');
      const chosen = filter ? all.find((d) => d.info.name.toLowerCase().includes(filter.toLowerCase())) : all[0];
      if (!chosen)
        throw new RuntimeInputError(
          `no Vulkan device matches '${filter}' (have ${all.map((d) => d.info.name).join(', ')})`,
        );
      this.physical = chosen.handle;
      this.device = chosen.info;
      this.fencePolls = fencePolls(chosen.info.type);
      if (chosen.info.apiVersion < API_1_2)
        throw new RuntimeInputError(
          `Vulkan device ${chosen.info.name} supports Vulkan ${chosen.info.version}; kernarg needs 1.2`,
        );
      this.apiVersion = Math.min(chosen.info.apiVersion & ~0xfff, instanceVersion(vk, a));
      const props = a.alloc(1024);
      vk.GetPhysicalDeviceProperties(this.physical, props);
      const p = a.read<{
        limits: Limits & {
          maxComputeWorkGroupSize: ArrayLike<number>;
          maxComputeWorkGroupCount: ArrayLike<number>;
          minStorageBufferOffsetAlignment: number | bigint;
          minUniformBufferOffsetAlignment: number | bigint;
        };
      }>(props, S().VkPhysicalDeviceProperties);
      this.limits = {
        maxPushConstantsSize: p.limits.maxPushConstantsSize,
        maxComputeWorkGroupSize: Array.from(p.limits.maxComputeWorkGroupSize),
        maxComputeWorkGroupCount: Array.from(p.limits.maxComputeWorkGroupCount),
        maxComputeWorkGroupInvocations: p.limits.maxComputeWorkGroupInvocations,
        maxComputeSharedMemorySize: p.limits.maxComputeSharedMemorySize,
        timestampPeriod: p.limits.timestampPeriod,
        minStorageBufferOffsetAlignment: Number(p.limits.minStorageBufferOffsetAlignment),
        minUniformBufferOffsetAlignment: Number(p.limits.minUniformBufferOffsetAlignment),
      };
      this.extensions = deviceExtensions(vk, this.physical, a);
      const without = new Set(o.withoutFeatures ?? []);
      for (const f of [...without, ...(o.features ?? [])])
        if (!featureStruct(f)) throw new RuntimeInputError(`unknown Vulkan feature '${f}'`);
      this.supported = new Set(
        [...supportedFeatures(vk, this.physical, a, this.extensions)].filter((f) => !without.has(f)),
      );
      const wanted = o.features ?? KERNARG_FEATURES.filter((f) => this.supported.has(f));
      const missing = wanted.filter((f) => !this.supported.has(f));
      if (missing.length)
        throw new RuntimeInputError(
          `Vulkan device ${this.device.name} lacks the feature${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
        );
      this.enabled = new Set(wanted);
      ({ family: this.queueFamily, timestampBits: this.timestampBits } = computeQueue(
        vk,
        this.physical,
        a,
        this.device.name,
      ));
      const chain = enableChain(a, this.enabled);
      const extensions = [...new Set(chain.extensions)];
      for (const e of extensions)
        if (!this.extensions.has(e))
          throw new RuntimeInputError(`Vulkan device ${this.device.name} lacks the extension ${e}`);
      // Extensions the SPIR-V may need that are not core in 1.2 are enabled where offered.
      for (const e of ['VK_KHR_shader_non_semantic_info'])
        if (this.extensions.has(e) && this.apiVersion < API_1_3) extensions.push(e);
      this.enabledExtensions = new Set(extensions);
      const priority = a.alloc(4);
      a.view.setFloat32(a.at(priority), 1, true);
      const queueInfo = a.put(S().VkDeviceQueueCreateInfo, {
        sType: ST.DEVICE_QUEUE_CREATE_INFO,
        pNext: 0n,
        flags: 0,
        queueFamilyIndex: this.queueFamily,
        queueCount: 1,
        pQueuePriorities: priority,
      });
      const info = a.put(S().VkDeviceCreateInfo, {
        sType: ST.DEVICE_CREATE_INFO,
        pNext: chain.head,
        flags: 0,
        queueCreateInfoCount: 1,
        pQueueCreateInfos: queueInfo,
        enabledLayerCount: 0,
        ppEnabledLayerNames: 0n,
        enabledExtensionCount: extensions.length,
        ppEnabledExtensionNames: a.strings(extensions),
        pEnabledFeatures: 0n,
      });
      const out = a.alloc(8);
      check(vk.CreateDevice(this.physical, info, null, out), 'vkCreateDevice', this.device.name);
      this.vkDevice = a.u64(out);
      vk.GetDeviceQueue(this.vkDevice, this.queueFamily, 0, out);
      this.queue = a.u64(out);
      this.memoryTypes = memoryProperties(vk, this.physical, a);
      check(
        vk.CreateCommandPool(
          this.vkDevice,
          a.put(S().VkCommandPoolCreateInfo, {
            sType: ST.COMMAND_POOL_CREATE_INFO,
            pNext: 0n,
            flags: 2,
            queueFamilyIndex: this.queueFamily,
          }),
          null,
          out,
        ),
        'vkCreateCommandPool',
      );
      this.commandPool = a.u64(out);
      this.oneShot = this.commandBuffer();
      this.fence = this.createFence();
      a.reset();
      // Kept for the context's life: the barrier every submission uses.
      this.barrierInfo = a.put(S().VkMemoryBarrier, {
        sType: ST.MEMORY_BARRIER,
        pNext: 0n,
        srcAccessMask: flags.ALL_WRITES,
        dstAccessMask: flags.ALL_READS_AND_WRITES,
      });
      const way = batchWay(o.recordBatch, this.device.type);
      const ring =
        way !== 'list'
          ? {
              device: this.vkDevice,
              cbs: Array.from({ length: RING }, () => this.commandBuffer()),
              fences: Array.from({ length: RING }, () => this.createFence()),
              barrier: fullBarrier(vk, this.barrierInfo),
            }
          : undefined;
      this.batch = this.state.batch = new SubmitBatch(vk, this.queue, this.state, batchSize, way, ring);
    } catch (e) {
      this.destroyAll();
      throw e;
    }
    registry.register(
      this,
      contextReleaser(
        this.vk,
        this.state,
        this.instance,
        this.vkDevice,
        this.commandPool,
        this.fence,
        this.arena,
        this.batch!,
      ),
      this,
    );
  }

  /** A primary (or secondary) command buffer from the context's pool (freed with the pool). */
  commandBuffer(secondary = false): VkHandle {
    const a = this.arena;
    const mark = a.mark();
    const out = a.alloc(8);
    check(
      this.vk.AllocateCommandBuffers(
        this.vkDevice,
        a.put(S().VkCommandBufferAllocateInfo, {
          sType: ST.COMMAND_BUFFER_ALLOCATE_INFO,
          pNext: 0n,
          commandPool: this.commandPool,
          level: secondary ? 1 : 0,
          commandBufferCount: 1,
        }),
        out,
      ),
      'vkAllocateCommandBuffers',
    );
    const cb = a.u64(out);
    a.reset(mark);
    return cb;
  }

  freeCommandBuffer(cb: VkHandle): void {
    const a = this.arena;
    const mark = a.mark();
    const list = a.alloc(8);
    a.view.setBigUint64(a.at(list), cb, true);
    this.vk.FreeCommandBuffers(this.vkDevice, this.commandPool, 1, list);
    a.reset(mark);
  }

  createFence(): VkHandle {
    const a = this.arena;
    const mark = a.mark();
    const out = a.alloc(8);
    check(
      this.vk.CreateFence(
        this.vkDevice,
        a.put(S().VkFenceCreateInfo, { sType: ST.FENCE_CREATE_INFO, pNext: 0n, flags: 0 }),
        null,
        out,
      ),
      'vkCreateFence',
    );
    const f = a.u64(out);
    a.reset(mark);
    return f;
  }

  /**
   * A storage (and uniform) buffer in device-local memory, host-mapped when that memory is
   * host-visible; `host: true` asks for host-visible memory (staging, POD blocks).
   */
  buffer(dataOrSize: ArrayBufferView | number, options: { host?: boolean } = {}): VulkanBuffer {
    this.alive();
    return makeBuffer(this, this.arena, this.alwaysStage, dataOrSize, options);
  }

  /** Runs `fill` with a host-visible staging buffer of at least `size` bytes, then `after` on its bytes. */
  staged(size: number, fill: (staging: VulkanBuffer) => void, after?: (bytes: Uint8Array) => void): void {
    if (!this.staging || this.staging.size < size) {
      this.staging?.dispose();
      this.staging = this.buffer(Math.max(size, 1 << 20), { host: true });
    }
    fill(this.staging);
    after?.(this.staging.mapped!.subarray(0, size));
  }

  /** Copies `size` bytes between buffers and waits. */
  copy(src: VulkanBuffer, dst: VulkanBuffer, size: number): void {
    const a = this.arena;
    const mark = a.mark();
    const region = a.put(S().VkBufferCopy, { srcOffset: 0, dstOffset: 0, size });
    this.submitOnce((cb) => {
      this.barrier(cb);
      this.vk.CmdCopyBuffer(cb, src.handle, dst.handle, 1, region);
      this.barrier(cb);
    });
    a.reset(mark);
  }

  /** A full memory barrier: earlier shader, transfer and host writes before later reads and writes. */
  barrier(cb: VkHandle): void {
    recordBarrier(this.vk, this.barrierInfo, cb);
  }

  /** Records commands into the context's one-shot command buffer, submits them and waits. */
  submitOnce(record: (cb: VkHandle) => void): void {
    this.alive();
    const a = this.arena;
    const mark = a.mark();
    const cb = this.oneShot;
    check(
      this.vk.BeginCommandBuffer(
        cb,
        a.put(S().VkCommandBufferBeginInfo, {
          sType: ST.COMMAND_BUFFER_BEGIN_INFO,
          pNext: 0n,
          flags: 1,
          pInheritanceInfo: 0n,
        }),
      ),
      'vkBeginCommandBuffer',
    );
    record(cb);
    check(this.vk.EndCommandBuffer(cb), 'vkEndCommandBuffer');
    const cbs = a.alloc(8);
    a.view.setBigUint64(a.at(cbs), cb, true);
    const slot = a.alloc(8);
    a.view.setBigUint64(a.at(slot), this.fence, true);
    this.submit(
      a.put(S().VkSubmitInfo, {
        sType: ST.SUBMIT_INFO,
        pNext: 0n,
        waitSemaphoreCount: 0,
        pWaitSemaphores: 0n,
        pWaitDstStageMask: 0n,
        commandBufferCount: 1,
        pCommandBuffers: cbs,
        signalSemaphoreCount: 0,
        pSignalSemaphores: 0n,
      }),
      this.fence,
      slot,
    );
    a.reset(mark);
  }

  /** Submits one VkSubmitInfo (by address), waits on `fence` (whose handle `fenceSlot` holds), resets it. */
  submit(submitInfo: bigint, fence: VkHandle, fenceSlot: bigint): void {
    const vk = this.vk;
    const state = this.state;
    // The queued launches go first, as on an in-order queue; the fence's wait then covers them too.
    this.batch!.flush();
    check(vk.QueueSubmit(this.queue, 1, submitInfo, fence), 'vkQueueSubmit');
    const serial = ++state.submitted;
    waitForFence(vk, this.vkDevice, fenceSlot, this.fencePolls);
    // The fence's wait covers every submission made before this one too (vkQueueSubmit's fence signal operation).
    state.completed = serial;
    check(vk.ResetFences(this.vkDevice, 1, fenceSlot), 'vkResetFences');
  }

  /**
   * Queues a recorded launch for the next batched vkQueueSubmit (batch.ts: submitted when the batch is full, or by
   * flush(), finish(), a sync launch, a buffer read or write); returns the serial its submission will have.
   */
  enqueue(launch: Batchable): number {
    return this.batch!.add(launch);
  }

  /** Submits the launches queued so far without waiting for them (finish() submits them and waits). */
  flush(): void {
    this.alive();
    this.batch!.flush();
  }

  /** Launches queued and not yet submitted (0 with batch: 1). */
  queuedLaunches(): number {
    return this.batch?.queued ?? 0;
  }

  /** Whether the submission with this serial may still be running. */
  pending(serial: number): boolean {
    return serial > this.state.completed;
  }

  /** Waits until every submission so far has finished (nothing to do when none is pending). */
  finish(): void {
    settle(this.vk, this.queue, this.state);
  }

  /** 1 while the context keeps a staging buffer for memory the host cannot map, else 0. */
  stagingBuffers(): number {
    return this.staging ? 1 : 0;
  }

  /** Objects created through this context and not yet released (buffers, kernels, their memory, the staging buffer). */
  liveObjects(): number {
    return this.state.children.size;
  }

  private alive(): void {
    if (this.disposed) throw new RuntimeInputError('this Vulkan context has been disposed');
  }

  private destroyAll(): void {
    const vk = this.vk;
    this.batch?.drop();
    if (this.vkDevice) {
      vk.DeviceWaitIdle(this.vkDevice);
      this.state.completed = this.state.submitted;
      for (const release of [...this.state.children.values()]) release();
      this.state.alive = false;
      this.batch?.free();
      if (this.fence) vk.DestroyFence(this.vkDevice, this.fence, null);
      if (this.commandPool) vk.DestroyCommandPool(this.vkDevice, this.commandPool, null);
      vk.DestroyDevice(this.vkDevice, null);
    }
    this.state.alive = false;
    if (this.instance) vk.DestroyInstance(this.instance, null);
    this.arena.free();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    registry.unregister(this);
    this.staging = undefined;
    this.destroyAll();
  }
}

export { VulkanError };
export { VulkanBuffer } from './buffer.js';
export { KERNARG_FEATURES, type VulkanOpenOptions } from './open-options.js';
export { VulkanOwned } from './owned.js';
export { listVulkanDevices, type VulkanDeviceInfo } from './instance.js';
