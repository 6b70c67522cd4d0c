// One entry point of a SPIR-V module, set up as the vulkan plan says: descriptor set layouts and
// sets for its bindings, the pipeline layout with the module's push-constant range, a compute
// pipeline per set of specialization constants, and a command buffer recorded per launch. The
// bytes come from the vulkan packer; a warm launch allocates nothing.
import type { VulkanKernelPlan, VulkanPlan } from '../../targets/vulkan/lower.js';
import { PackError, RuntimeInputError } from '../../pack/errors.js';
import type { BindingsPacker } from '../../pack/views.js';
import { vulkanTarget } from '../../targets/vulkan/index.js';
import { Arena } from './arena.js';
import { SHADER_STAGE_COMPUTE, VulkanBuffer, type VulkanContext, VulkanOwned } from './context.js';
import { moduleNeeds } from './module-needs.js';
import { ST, structs as S } from './structs.js';
import { type VkHandle, check } from './vk.js';

const DESCRIPTOR_TYPE: Record<string, number> = { buffer: 7, pod: 7, buffer_ubo: 6, pod_ubo: 6, pointer_ubo: 6 };
/** Slots in the kernel's POD block: values, and (--physical-storage-buffers) buffer addresses. */
const inPodBlock = (argKind: string) => argKind.startsWith('pod') || argKind.startsWith('pointer_');
const STAGE_TOP = 0x1;
const STAGE_BOTTOM = 0x2000;
const BIND_COMPUTE = 1;
const QUERY_64 = 1;
const QUERY_WAIT = 2;
const WHOLE_SIZE = 0xffffffffffffffffn;

export interface VulkanLaunch {
  readonly args: Readonly<Record<string, unknown>>;
  /** Work-items per dimension (1 to 3), a multiple of the work-group size in each. */
  readonly global: readonly number[];
  /** The work-group size where the module leaves it to spec constants 0–2 (default 1, 1, 1). */
  readonly local?: readonly number[];
}

/** A specialization constant's data, fixed when the pipeline is made: its SpecId and its bytes (4 or 8; a bool's 4). */
export interface SpecEntry {
  readonly id: number;
  readonly bytes: Uint8Array;
}

export interface VulkanKernelOptions {
  /**
   * A shader's own specialization constants (GLSL constant_id, local_size_x_id): the one pipeline
   * is made with exactly these, every other keeping the module's default. Without it, the spec
   * constants are clspv's (the work-group size, local memory sizes, work_dim), set per launch.
   */
  readonly specialization?: readonly SpecEntry[];
}

interface Binding {
  readonly set: number;
  readonly binding: number;
  readonly type: number;
  /** Address of its VkDescriptorBufferInfo in the kernel's arena. */
  readonly info: bigint;
  current: bigint;
}

/** The module-wide features, extensions and limits an entry point needs; a clear error for the first unmet. */
function checkDevice(ctx: VulkanContext, name: string, plan: VulkanPlan, words: Uint32Array): void {
  const needs = moduleNeeds(words);
  if (!needs.entryPoints.includes(name)) throw new RuntimeInputError(`the SPIR-V module has no entry point '${name}' (have ${needs.entryPoints.join(', ') || 'none'})`);
  for (const f of new Set([...plan.vulkanFeatures, ...needs.features])) {
    if (ctx.enabled.has(f)) continue;
    const why = ctx.supported.has(f) ? 'which this context was opened without (VulkanContext.open(filter, { features }))' : `which ${ctx.device.name} lacks`;
    throw new RuntimeInputError(`kernel '${name}' needs the Vulkan feature ${f}, ${why}`);
  }
  for (const e of needs.extensions) {
    if ((e.core !== undefined && ctx.apiVersion >= e.core) || ctx.enabledExtensions.has(e.name)) continue;
    throw new RuntimeInputError(`kernel '${name}' needs the Vulkan extension ${e.name}, which ${ctx.device.name} ${ctx.extensions.has(e.name) ? 'offers but this context did not enable' : 'lacks'}`);
  }
  if (plan.literalSamplers.length || plan.constantData) throw new RuntimeInputError(`kernel '${name}': literal samplers and module constants are not supported by kernarg's Vulkan host`);
  const range = plan.pushConstantRange;
  if (range && range.offset + range.size > ctx.limits.maxPushConstantsSize) {
    throw new RuntimeInputError(`kernel '${name}': the push constants take ${range.offset + range.size} bytes, ${ctx.device.name} allows ${ctx.limits.maxPushConstantsSize} (maxPushConstantsSize); place the PODs in a storage or uniform buffer`);
  }
}

/** What a kernel has made so far, to release on dispose, collection, or a failed construction. */
interface Made {
  pool?: VkHandle;
  layout?: VkHandle;
  shader?: VkHandle;
  cb?: VkHandle;
  fence?: VkHandle;
  query?: VkHandle;
  sets: VkHandle[];
  pipelines: Map<string, VkHandle>;
  pods: VulkanBuffer[];
}

/**
 * The release of a kernel's objects, made outside its constructor: a closure made there would
 * share the constructor's scope, which holds `this`, and keep every kernel alive.
 */
function releaser(ctx: VulkanContext, made: Made, arena: Arena): () => void {
  const { vk, vkDevice: device } = ctx;
  return () => {
    for (const p of made.pipelines.values()) vk.DestroyPipeline(device, p, null);
    if (made.layout) vk.DestroyPipelineLayout(device, made.layout, null);
    if (made.pool) vk.DestroyDescriptorPool(device, made.pool, null);
    for (const l of made.sets) vk.DestroyDescriptorSetLayout(device, l, null);
    if (made.shader) vk.DestroyShaderModule(device, made.shader, null);
    if (made.query) vk.DestroyQueryPool(device, made.query, null);
    if (made.fence) vk.DestroyFence(device, made.fence, null);
    if (made.cb) ctx.freeCommandBuffer(made.cb);
    for (const b of made.pods) b.dispose();
    arena.free();
  };
}

export class VulkanKernel extends VulkanOwned {
  private readonly k: VulkanKernelPlan;
  private readonly packer: BindingsPacker;
  private readonly arena: Arena;
  private readonly shader: VkHandle;
  private readonly setLayouts: VkHandle[] = [];
  private readonly pool: VkHandle = 0n;
  private readonly layout: VkHandle = 0n;
  private readonly pipelines: Map<string, VkHandle>;
  private readonly fence: VkHandle;
  private readonly queryPool: VkHandle;
  private readonly bindings: Binding[] = [];
  private readonly ownPods = new Map<Uint8Array, VulkanBuffer>();
  private readonly pushBytes: Uint8Array | undefined;
  private readonly setsAddr: bigint = 0n;
  private readonly writesAddr: bigint = 0n;
  private readonly beginInfo: bigint;
  private readonly submitInfo: bigint;
  private readonly fenceSlot: bigint;
  /** The two timestamps, read as 32-bit halves so that no BigInt is made per launch. */
  private readonly times = new Uint32Array(4);
  private readonly result = { timeMs: 0 };
  private readonly groups: [number, number, number] = [1, 1, 1];
  private readonly local: [number, number, number] = [1, 1, 1];
  private readonly specIds: readonly number[];
  private readonly specNames: readonly (string | undefined)[];
  private readonly specValues: number[];
  private lastPipeline: VkHandle = 0n;
  private readonly fixed: VkHandle | undefined;

  constructor(readonly ctx: VulkanContext, readonly name: string, readonly plan: VulkanPlan, spirv: Uint32Array, options: VulkanKernelOptions = {}) {
    checkDevice(ctx, name, plan, spirv);
    const k = plan.kernels.find((x) => x.name === name);
    if (!k) throw new RuntimeInputError(`no kernel '${name}' in the plan (have ${plan.kernels.map((x) => x.name).join(', ')})`);
    for (const a of k.args) if (a.argKind !== 'local' && !inPodBlock(a.argKind) && !(a.argKind in DESCRIPTOR_TYPE)) throw new RuntimeInputError(`kernel '${name}', argument '${a.name}': ${a.argKind} arguments are not supported by kernarg's Vulkan host`);
    const { vk, vkDevice: device } = ctx;
    // The module is copied in too (a staged GEMM's runs past 16 KiB).
    const arena = new Arena(16384 + spirv.byteLength + 256 * k.args.length);
    const made: Made = { sets: [], pipelines: new Map(), pods: [] };
    const release = releaser(ctx, made, arena);
    super(ctx, release);
    this.pipelines = made.pipelines;
    this.k = k;
    this.arena = arena;
    try {
      this.packer = vulkanTarget.pack.packer(plan, name);
      const out = arena.alloc(8);
      const a = arena;
      // The shader module.
      const code = a.alloc(spirv.byteLength, 4);
      a.bytes.set(new Uint8Array(spirv.buffer, spirv.byteOffset, spirv.byteLength), a.at(code));
      check(vk.CreateShaderModule(device, a.put(S().VkShaderModuleCreateInfo, { sType: ST.SHADER_MODULE_CREATE_INFO, pNext: 0n, flags: 0, codeSize: spirv.byteLength, pCode: code }), null, out), 'vkCreateShaderModule', name);
      this.shader = made.shader = a.u64(out);
      // One layout per set up to the highest this kernel binds (empty where a set is unused).
      const descriptorArgs = k.args.filter((x) => x.descriptorSet !== undefined && x.binding !== undefined && !x.argKind.endsWith('_pushconstant') && x.argKind !== 'local');
      const bySlot = new Map<string, (typeof descriptorArgs)[number]>();
      for (const x of descriptorArgs) bySlot.set(`${x.descriptorSet}:${x.binding}`, x);
      const unique = [...bySlot.values()];
      const nSets = unique.length ? Math.max(...unique.map((x) => x.descriptorSet!)) + 1 : 0;
      for (let s = 0; s < nSets; s++) {
        const inSet = unique.filter((x) => x.descriptorSet === s);
        const bindings = a.array(S().VkDescriptorSetLayoutBinding, inSet.map((x) => ({ binding: x.binding!, descriptorType: DESCRIPTOR_TYPE[x.argKind], descriptorCount: 1, stageFlags: SHADER_STAGE_COMPUTE, pImmutableSamplers: 0n })));
        check(vk.CreateDescriptorSetLayout(device, a.put(S().VkDescriptorSetLayoutCreateInfo, { sType: ST.DESCRIPTOR_SET_LAYOUT_CREATE_INFO, pNext: 0n, flags: 0, bindingCount: inSet.length, pBindings: bindings }), null, out), 'vkCreateDescriptorSetLayout');
        made.sets.push(a.u64(out));
        this.setLayouts.push(a.u64(out));
      }
      const layouts = a.array('void *', this.setLayouts);
      const range = plan.pushConstantRange;
      const pcr = range ? a.put(S().VkPushConstantRange, { stageFlags: SHADER_STAGE_COMPUTE, offset: range.offset, size: range.size }) : 0n;
      check(vk.CreatePipelineLayout(device, a.put(S().VkPipelineLayoutCreateInfo, { sType: ST.PIPELINE_LAYOUT_CREATE_INFO, pNext: 0n, flags: 0, setLayoutCount: nSets, pSetLayouts: layouts, pushConstantRangeCount: range ? 1 : 0, pPushConstantRanges: pcr }), null, out), 'vkCreatePipelineLayout');
      this.layout = made.layout = a.u64(out);
      if (range) this.pushBytes = new Uint8Array(range.offset + range.size);
      if (nSets) {
        const counts = new Map<number, number>();
        for (const x of unique) counts.set(DESCRIPTOR_TYPE[x.argKind], (counts.get(DESCRIPTOR_TYPE[x.argKind]) ?? 0) + 1);
        const sizes = a.array(S().VkDescriptorPoolSize, [...counts].map(([type, descriptorCount]) => ({ type, descriptorCount })));
        check(vk.CreateDescriptorPool(device, a.put(S().VkDescriptorPoolCreateInfo, { sType: ST.DESCRIPTOR_POOL_CREATE_INFO, pNext: 0n, flags: 0, maxSets: nSets, poolSizeCount: counts.size, pPoolSizes: sizes }), null, out), 'vkCreateDescriptorPool');
        this.pool = made.pool = a.u64(out);
        this.setsAddr = a.alloc(8 * nSets);
        check(vk.AllocateDescriptorSets(device, a.put(S().VkDescriptorSetAllocateInfo, { sType: ST.DESCRIPTOR_SET_ALLOCATE_INFO, pNext: 0n, descriptorPool: this.pool, descriptorSetCount: nSets, pSetLayouts: layouts }), this.setsAddr), 'vkAllocateDescriptorSets');
        // One write per binding; a launch patches the buffer handles in place.
        const infos = unique.map(() => a.put(S().VkDescriptorBufferInfo, { buffer: 0n, offset: 0, range: WHOLE_SIZE }));
        this.writesAddr = a.array(S().VkWriteDescriptorSet, unique.map((x, i) => ({
          sType: ST.WRITE_DESCRIPTOR_SET, pNext: 0n, dstSet: a.u64(this.setsAddr + BigInt(8 * x.descriptorSet!)), dstBinding: x.binding!, dstArrayElement: 0,
          descriptorCount: 1, descriptorType: DESCRIPTOR_TYPE[x.argKind], pImageInfo: 0n, pBufferInfo: infos[i], pTexelBufferView: 0n,
        })));
        unique.forEach((x, i) => this.bindings.push({ set: x.descriptorSet!, binding: x.binding!, type: DESCRIPTOR_TYPE[x.argKind], info: infos[i], current: 0n }));
      }
      this.specIds = plan.specConstants.map((s) => s.specId).concat(k.args.filter((x) => x.argKind === 'local').map((x) => x.specId!)).sort((x, y) => x - y);
      this.specNames = this.specIds.map((id) => plan.specConstants.find((s) => s.specId === id)?.name);
      this.specValues = this.specIds.map(() => -1);
      this.cb = made.cb = ctx.commandBuffer();
      this.fence = made.fence = ctx.createFence();
      check(vk.CreateQueryPool(device, a.put(S().VkQueryPoolCreateInfo, { sType: ST.QUERY_POOL_CREATE_INFO, pNext: 0n, flags: 0, queryType: 2, queryCount: 2, pipelineStatistics: 0 }), null, out), 'vkCreateQueryPool');
      this.queryPool = made.query = a.u64(out);
      this.beginInfo = a.put(S().VkCommandBufferBeginInfo, { sType: ST.COMMAND_BUFFER_BEGIN_INFO, pNext: 0n, flags: 1, pInheritanceInfo: 0n });
      const cbs = a.array('void *', [this.cb]);
      this.submitInfo = a.put(S().VkSubmitInfo, { sType: ST.SUBMIT_INFO, pNext: 0n, waitSemaphoreCount: 0, pWaitSemaphores: 0n, pWaitDstStageMask: 0n, commandBufferCount: 1, pCommandBuffers: cbs, signalSemaphoreCount: 0, pSignalSemaphores: 0n });
      this.fenceSlot = a.array('void *', [this.fence]);
      if (options.specialization) this.fixed = this.pipeline('', undefined, options.specialization);
      else if (this.specIds.length === 0) this.fixed = this.pipeline('');
    } catch (e) {
      this.dispose();
      throw e;
    }
  }

  private cb: VkHandle = 0n;

  /** The compute pipeline for these specialization values (spec id order), built once. */
  private pipeline(key: string, values?: readonly number[], own?: readonly SpecEntry[]): VkHandle {
    const hit = this.pipelines.get(key);
    if (hit !== undefined) return hit;
    const { vk, vkDevice: device } = this.ctx;
    const a = this.arena;
    const mark = a.mark();
    let spec = 0n;
    if (values && values.length) {
      const data = a.alloc(4 * values.length, 4);
      values.forEach((v, i) => a.view.setUint32(a.at(data) + 4 * i, v, true));
      const entries = a.array(S().VkSpecializationMapEntry, this.specIds.map((id, i) => ({ constantID: id, offset: 4 * i, size: 4 })));
      spec = a.put(S().VkSpecializationInfo, { mapEntryCount: values.length, pMapEntries: entries, dataSize: 4 * values.length, pData: data });
    } else if (own && own.length) {
      // A shader's own constants: each its own width, packed one after another.
      const size = own.reduce((n, e) => n + e.bytes.length, 0);
      const data = a.alloc(size, 8);
      let at = 0;
      const map = own.map((e) => {
        a.bytes.set(e.bytes, a.at(data) + at);
        at += e.bytes.length;
        return { constantID: e.id, offset: at - e.bytes.length, size: e.bytes.length };
      });
      spec = a.put(S().VkSpecializationInfo, { mapEntryCount: own.length, pMapEntries: a.array(S().VkSpecializationMapEntry, map), dataSize: size, pData: data });
    }
    const out = a.alloc(8);
    const info = a.put(S().VkComputePipelineCreateInfo, {
      sType: ST.COMPUTE_PIPELINE_CREATE_INFO, pNext: 0n, flags: 0,
      stage: { sType: ST.PIPELINE_SHADER_STAGE_CREATE_INFO, pNext: 0n, flags: 0, stage: SHADER_STAGE_COMPUTE, module: this.shader, pName: a.cstr(this.name), pSpecializationInfo: spec },
      layout: this.layout, basePipelineHandle: 0n, basePipelineIndex: -1,
    });
    check(vk.CreateComputePipelines(device, null, 1, info, null, out), 'vkCreateComputePipelines', this.name);
    const p = a.u64(out);
    a.reset(mark);
    this.pipelines.set(key, p);
    return p;
  }

  /** Packs `args` with the plan, binds them, dispatches global / local work-groups, waits; the kernel time in ms. */
  launch(o: VulkanLaunch): { readonly timeMs: number } {
    const { vk, vkDevice: device } = this.ctx;
    const packed = this.packer.pack(o.args);
    const g = o.global;
    if (!Array.isArray(g) || g.length < 1 || g.length > 3) throw new PackError(this.name, '(launch)', 'global size must have 1 to 3 dimensions');
    const reqd = this.k.reqdWorkGroupSize;
    for (let i = 0; i < 3; i++) {
      const l = reqd ? reqd[i] : (o.local?.[i] ?? 1);
      const n = g[i] ?? 1;
      if (!Number.isSafeInteger(n) || n < 1 || !Number.isSafeInteger(l) || l < 1 || n % l !== 0) throw new PackError(this.name, '(launch)', `global size ${n} in dimension ${i} must be a positive multiple of the work-group size ${l}`);
      if (n / l > this.ctx.limits.maxComputeWorkGroupCount[i]) throw new PackError(this.name, '(launch)', `${n / l} work-groups in dimension ${i} exceed the device's ${this.ctx.limits.maxComputeWorkGroupCount[i]}`);
      this.local[i] = l;
      this.groups[i] = n / l;
    }
    let dirty = false;
    for (const d of packed.descriptors) {
      const b = this.bindingOf(d.set, d.binding);
      const v = d.value;
      let handle: bigint;
      if (d.kind === 'handle' && v instanceof VulkanBuffer) handle = v.handle;
      else if (d.kind === 'bytes') handle = this.ownPod(d.value);
      else throw new PackError(this.name, this.argAt(d.set, d.binding), 'expected a Vulkan buffer of this context');
      if (b.current !== handle) {
        b.current = handle;
        this.arena.view.setBigUint64(this.arena.at(b.info), handle, true);
        dirty = true;
      }
    }
    if (dirty) vk.UpdateDescriptorSets(device, this.bindings.length, this.writesAddr, 0, null);
    const pipeline = this.fixed ?? this.specialized(packed.specConstants, g.length);
    const cb = this.cb;
    check(vk.BeginCommandBuffer(cb, this.beginInfo), 'vkBeginCommandBuffer');
    vk.CmdResetQueryPool(cb, this.queryPool, 0, 2);
    this.ctx.barrier(cb);
    vk.CmdBindPipeline(cb, BIND_COMPUTE, pipeline);
    if (this.setLayouts.length) vk.CmdBindDescriptorSets(cb, BIND_COMPUTE, this.layout, 0, this.setLayouts.length, this.setsAddr, 0, null);
    if (this.pushBytes) {
      if (this.k.podPlacement === 'pushconstant') this.pushBytes.set(packed.pushConstants);
      else this.modulePushConstants(g.length);
      vk.CmdPushConstants(cb, this.layout, SHADER_STAGE_COMPUTE, 0, this.pushBytes.length, this.pushBytes);
    }
    vk.CmdWriteTimestamp(cb, STAGE_TOP, this.queryPool, 0);
    vk.CmdDispatch(cb, this.groups[0], this.groups[1], this.groups[2]);
    vk.CmdWriteTimestamp(cb, STAGE_BOTTOM, this.queryPool, 1);
    this.ctx.barrier(cb);
    check(vk.EndCommandBuffer(cb), 'vkEndCommandBuffer');
    this.ctx.submit(this.submitInfo, this.fence, this.fenceSlot);
    this.result.timeMs = 0;
    const bits = this.ctx.timestampBits;
    if (bits > 0 && vk.GetQueryPoolResults(device, this.queryPool, 0, 2, 16, this.times, 8, QUERY_64 | QUERY_WAIT) === 0) {
      const t = this.times;
      let ticks = (t[3] - t[1]) * 2 ** 32 + (t[2] - t[0]);
      if (ticks < 0) ticks += 2 ** bits;
      this.result.timeMs = (ticks * this.ctx.limits.timestampPeriod) / 1e6;
    }
    return this.result;
  }

  /** clspv's module-scope push constants, from the launch geometry. */
  private modulePushConstants(dims: number): void {
    const view = new DataView(this.pushBytes!.buffer);
    for (const p of this.plan.pushConstants) {
      for (let i = 0; i < 3; i++) {
        const v = p.name === 'global_size' ? this.groups[i] * this.local[i] : p.name === 'enqueued_local_size' ? this.local[i] : p.name === 'num_workgroups' ? this.groups[i] : 0;
        view.setUint32(p.offset + 4 * i, i < dims || p.name !== 'global_size' ? v : 1, true);
      }
    }
  }

  private specialized(locals: ReadonlyMap<number, number>, dims: number): VkHandle {
    // The values in spec id order, compared with the last launch's so that a repeat allocates nothing.
    const values = this.specValues;
    let same = this.lastPipeline !== 0n;
    for (let i = 0; i < this.specIds.length; i++) {
      const id = this.specIds[i];
      const named = this.specNames[i];
      const v = id <= 2 && !this.plan.localSize ? this.local[id] : named === 'work_dim' ? dims : named?.startsWith('global_offset') ? 0 : (locals.get(id) ?? 1);
      if (values[i] !== v) same = false;
      values[i] = v;
    }
    if (!same) this.lastPipeline = this.pipeline(values.join(','), values);
    return this.lastPipeline;
  }

  /**
   * Makes the next launch write every descriptor again. A caller that frees its buffers between
   * launches calls it: a new buffer may get a freed one's handle, which the per-binding check
   * would take for the buffer already bound (the descriptor still holds the freed one's memory).
   */
  rebindAll(): void {
    for (const b of this.bindings) b.current = 0n;
  }

  private bindingOf(set: number, binding: number): Binding {
    for (const b of this.bindings) if (b.set === set && b.binding === binding) return b;
    throw new Error(`internal: no binding ${set}:${binding}`);
  }

  private argAt(set: number, binding: number): string {
    return this.k.args.find((x) => x.descriptorSet === set && x.binding === binding)?.name ?? `${set}:${binding}`;
  }

  /** The host-visible buffer of a binding that holds POD bytes (the clustered block or one unclustered POD), refilled from them. */
  private ownPod(bytes: Uint8Array): bigint {
    let b = this.ownPods.get(bytes);
    if (!b) {
      b = this.ctx.buffer(Math.max(bytes.length, 4), { host: true });
      this.ownPods.set(bytes, b);
    }
    b.mapped!.set(bytes);
    return b.handle;
  }

  override dispose(): void {
    for (const b of this.ownPods.values()) b.dispose();
    this.ownPods.clear();
    super.dispose();
  }
}
