// Device buffers of a Vulkan context: made in device-local memory (host-mapped where that memory is
// host-visible, else reached through the context's staging buffer), read, written and released.
import { koffi } from '../ffi.js';
import { RuntimeInputError } from '../../pack/errors.js';
import type { Arena } from './arena.js';
import type { VulkanDeviceInfo } from './instance.js';
import { type State, VulkanOwned, settle } from './owned.js';
import { ST, structs as S } from './structs.js';
import { type VK, type VkHandle, check } from './vk.js';

const MEM_DEVICE_LOCAL = 1;
const MEM_HOST_VISIBLE = 2;
const MEM_HOST_COHERENT = 4;
const MEM_HOST_CACHED = 8;
const USAGE_TRANSFER_SRC = 1;
const USAGE_TRANSFER_DST = 2;
const USAGE_UNIFORM = 0x10;
const USAGE_STORAGE = 0x20;
const USAGE_DEVICE_ADDRESS = 0x20000;
const ALLOCATE_DEVICE_ADDRESS = 2;

/** What a buffer uses of its context (VulkanContext): the device, the queue, and the staging copies. */
export interface BufferContext {
  readonly vk: VK;
  readonly vkDevice: VkHandle;
  readonly queue: VkHandle;
  readonly state: State;
  finish(): void;
  staged(size: number, fill: (staging: VulkanBuffer) => void, after?: (bytes: Uint8Array) => void): void;
  copy(src: VulkanBuffer, dst: VulkanBuffer, size: number): void;
}

/** What making a buffer reads of its context besides: the device's memory types and enabled features. */
export interface BufferMaker extends BufferContext {
  readonly device: VulkanDeviceInfo;
  readonly enabled: ReadonlySet<string>;
  readonly memoryTypes: readonly { flags: number; heap: number }[];
}

/** Made outside the constructor, so that the closure does not hold the buffer (see kernel.ts's releaser). */
function bufferReleaser(ctx: BufferContext, handle: VkHandle, memory: VkHandle): () => void {
  const { vk, vkDevice, queue, state } = ctx;
  return () => {
    // A launch still queued may read it.
    settle(vk, queue, state);
    vk.DestroyBuffer(vkDevice, handle, null);
    vk.FreeMemory(vkDevice, memory, null);
  };
}

export class VulkanBuffer extends VulkanOwned {
  /** Host view of the memory when it is host-visible (lavapipe, integrated and ReBAR GPUs). */
  readonly mapped: Uint8Array | undefined;

  constructor(
    private readonly ctx: BufferContext,
    readonly handle: VkHandle,
    readonly memory: VkHandle,
    readonly size: number,
    mapped: Uint8Array | undefined,
    /** The buffer's device address (0n when the context has no buffer device addresses). */
    readonly address: bigint,
  ) {
    super(ctx, bufferReleaser(ctx, handle, memory));
    this.mapped = mapped;
  }

  /** Reads the first `into.byteLength` bytes. */
  read<T extends ArrayBufferView>(into: T): T {
    // After every launch queued before it, as on an in-order queue.
    this.ctx.finish();
    const dst = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
    if (this.mapped) dst.set(this.mapped.subarray(0, dst.length));
    else
      this.ctx.staged(
        dst.length,
        (staging) => this.ctx.copy(this, staging, dst.length),
        (bytes) => dst.set(bytes),
      );
    return into;
  }

  write(from: ArrayBufferView): void {
    const src = new Uint8Array(from.buffer, from.byteOffset, from.byteLength);
    if (src.length > this.size) throw new RuntimeInputError(`${src.length} bytes do not fit a buffer of ${this.size}`);
    this.ctx.finish();
    if (this.mapped) this.mapped.set(src);
    else
      this.ctx.staged(src.length, (staging) => {
        staging.mapped!.set(src);
        this.ctx.copy(staging, this, src.length);
      });
  }
}

/** The first memory type allowed by `bits` with all of `want` (then with `fallback`). */
function memoryType(ctx: BufferMaker, bits: number, want: number, fallback: number): number {
  for (const flags of [want, fallback]) {
    const i = ctx.memoryTypes.findIndex((t, i) => (bits & (1 << i)) !== 0 && (t.flags & flags) === flags);
    if (i >= 0) return i;
  }
  throw new RuntimeInputError(`Vulkan device ${ctx.device.name} has no memory type for a buffer`);
}

/**
 * A storage (and uniform) buffer in device-local memory, host-mapped when that memory is
 * host-visible; `host: true` asks for host-visible memory (staging, POD blocks).
 */
export function makeBuffer(
  ctx: BufferMaker,
  /** The context's scratch memory for the create infos. */
  a: Arena,
  /** Never map device-local memory (VulkanOpenOptions.staging). */
  alwaysStage: boolean,
  dataOrSize: ArrayBufferView | number,
  options: { host?: boolean } = {},
): VulkanBuffer {
  const size = typeof dataOrSize === 'number' ? dataOrSize : dataOrSize.byteLength;
  if (!Number.isSafeInteger(size) || size < 0)
    throw new RuntimeInputError(`a buffer size must be a non-negative integer, not ${size}`);
  const vk = ctx.vk;
  const mark = a.mark();
  const bda = ctx.enabled.has('bufferDeviceAddress');
  const usage =
    USAGE_STORAGE | USAGE_UNIFORM | USAGE_TRANSFER_SRC | USAGE_TRANSFER_DST | (bda ? USAGE_DEVICE_ADDRESS : 0);
  const out = a.alloc(8);
  check(
    vk.CreateBuffer(
      ctx.vkDevice,
      a.put(S().VkBufferCreateInfo, {
        sType: ST.BUFFER_CREATE_INFO,
        pNext: 0n,
        flags: 0,
        size: Math.max(size, 4),
        usage,
        sharingMode: 0,
        queueFamilyIndexCount: 0,
        pQueueFamilyIndices: 0n,
      }),
      null,
      out,
    ),
    'vkCreateBuffer',
  );
  const handle = a.u64(out);
  let memory = 0n;
  try {
    const req = a.alloc(24);
    vk.GetBufferMemoryRequirements(ctx.vkDevice, handle, req);
    const r = a.read<{ size: number; memoryTypeBits: number }>(req, S().VkMemoryRequirements);
    const hostFlags = MEM_HOST_VISIBLE | MEM_HOST_COHERENT;
    const type = options.host
      ? memoryType(ctx, r.memoryTypeBits, hostFlags | MEM_HOST_CACHED, hostFlags)
      : memoryType(ctx, r.memoryTypeBits, MEM_DEVICE_LOCAL, 0);
    const flagsInfo = bda
      ? a.put(S().VkMemoryAllocateFlagsInfo, {
          sType: ST.MEMORY_ALLOCATE_FLAGS_INFO,
          pNext: 0n,
          flags: ALLOCATE_DEVICE_ADDRESS,
          deviceMask: 0,
        })
      : 0n;
    check(
      vk.AllocateMemory(
        ctx.vkDevice,
        a.put(S().VkMemoryAllocateInfo, {
          sType: ST.MEMORY_ALLOCATE_INFO,
          pNext: flagsInfo,
          allocationSize: r.size,
          memoryTypeIndex: type,
        }),
        null,
        out,
      ),
      'vkAllocateMemory',
      `${size} bytes`,
    );
    memory = a.u64(out);
    check(vk.BindBufferMemory(ctx.vkDevice, handle, memory, 0), 'vkBindBufferMemory');
    let mapped: Uint8Array | undefined;
    if ((ctx.memoryTypes[type].flags & hostFlags) === hostFlags && (options.host || !alwaysStage)) {
      check(vk.MapMemory(ctx.vkDevice, memory, 0, ~0n & 0xffffffffffffffffn, 0, out), 'vkMapMemory');
      mapped = new Uint8Array(koffiView(a.u64(out), size));
    }
    const address = bda
      ? BigInt(
          vk.GetBufferDeviceAddress(
            ctx.vkDevice,
            a.put(S().VkBufferDeviceAddressInfo, { sType: ST.BUFFER_DEVICE_ADDRESS_INFO, pNext: 0n, buffer: handle }),
          ),
        )
      : 0n;
    a.reset(mark);
    const b = new VulkanBuffer(ctx, handle, memory, size, mapped, address);
    if (typeof dataOrSize !== 'number') b.write(dataOrSize);
    return b;
  } catch (e) {
    if (memory) vk.FreeMemory(ctx.vkDevice, memory, null);
    vk.DestroyBuffer(ctx.vkDevice, handle, null);
    a.reset(mark);
    throw e;
  }
}

function koffiView(ptr: bigint, size: number): ArrayBuffer {
  return koffi().view(ptr as never, Math.max(size, 1));
}
