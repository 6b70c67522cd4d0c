// One entry point of a SPIR-V module, set up as the vulkan plan says: descriptor set layouts for
// its bindings, the pipeline layout with the module's push-constant range, a compute pipeline per
// set of specialization constants, and command buffers recorded once per launch state and
// submitted again while the state repeats (recording.ts). The bytes come from the vulkan packer;
// a warm launch allocates nothing.
import type { VulkanKernelPlan, VulkanPlan } from '../../targets/vulkan/lower.js';
import { PackError, RuntimeInputError } from '../../pack/errors.js';
import type { BindingsPacker } from '../../pack/views.js';
import { vulkanTarget } from '../../targets/vulkan/index.js';
import { Arena } from './arena.js';
import { VulkanBuffer, type VulkanContext, VulkanOwned } from './context.js';
import { SHADER_STAGE_COMPUTE } from './stage-flags.js';
import { type LaunchState, Recording, type RecordingFrame, SIMULTANEOUS_USE } from './recording.js';
import { ST, structs as S } from './structs.js';
import { type VkHandle, check } from './vk.js';
import { checkDevice } from './entry-point-checks.js';
import type { SpecEntry, VulkanKernelOptions, VulkanLaunch } from './kernel-options.js';
import { type Made, releaser } from './kernel-release.js';
import { DESCRIPTOR_TYPE, type KernelLayouts, RECORDINGS, createLayouts } from './layouts.js';

/** Slots in the kernel's POD block: values, and (--physical-storage-buffers) buffer addresses. */
const inPodBlock = (argKind: string) => argKind.startsWith('pod') || argKind.startsWith('pointer_');
const QUERY_64 = 1;
const QUERY_WAIT = 2;
const SYNC = 0;
const TIMED = 1;
const ASYNC = 2;

export class VulkanKernel extends VulkanOwned {
  private readonly k: VulkanKernelPlan;
  private readonly packer: BindingsPacker;
  private readonly arena: Arena;
  private readonly shader: VkHandle;
  private readonly pool: VkHandle;
  private readonly layout: VkHandle;
  private readonly pipelines: Map<string, VkHandle>;
  private readonly fence: VkHandle;
  private readonly queryPool: VkHandle;
  private readonly bindings: KernelLayouts['bindings'];
  private readonly pushBytes: Uint8Array | undefined;
  private readonly pushView: DataView | undefined;
  private readonly fenceSlot: bigint;
  private readonly frame: RecordingFrame;
  private readonly recordings: Recording[] = [];
  /** The recording the last launch used, looked at first. */
  private lastRecording = 0;
  private uses = 0;
  /** This launch's state, refilled in place every launch. */
  private readonly launchState: LaunchState;
  /** The two timestamps, read as 32-bit halves so that no BigInt is made per launch. */
  private readonly times = new Uint32Array(4);
  private readonly result = { timeMs: 0 };
  private readonly local: [number, number, number] = [1, 1, 1];
  private readonly specIds: readonly number[];
  private readonly specNames: readonly (string | undefined)[];
  private readonly specValues: number[];
  private lastPipeline: VkHandle = 0n;
  /**
   * The last launch's argument values, where each is immutable (a number, bigint, string or boolean)
   * or a buffer, and its geometry (global, local, dimensions): a launch that repeats every one of
   * them repeats its state, and skips the packer. An array or other object can change inside
   * between launches, so a launch with one is packed every time.
   */
  private readonly lastArgs: unknown[];
  private readonly lastGeometry = [0, 0, 0, 0, 0, 0, 0];
  private lastTimed = false;
  private repeatable = false;
  private readonly fixed: VkHandle | undefined;

  constructor(
    readonly ctx: VulkanContext,
    readonly name: string,
    readonly plan: VulkanPlan,
    spirv: Uint32Array,
    options: VulkanKernelOptions = {},
  ) {
    checkDevice(ctx, name, plan, spirv);
    const k = plan.kernels.find((x) => x.name === name);
    if (!k)
      throw new RuntimeInputError(
        `no kernel '${name}' in the plan (have ${plan.kernels.map((x) => x.name).join(', ')})`,
      );
    for (const a of k.args)
      if (a.argKind !== 'local' && !inPodBlock(a.argKind) && !(a.argKind in DESCRIPTOR_TYPE))
        throw new RuntimeInputError(
          `kernel '${name}', argument '${a.name}': ${a.argKind} arguments are not supported by kernarg's Vulkan host`,
        );
    const { vk, vkDevice: device } = ctx;
    // The module is copied in too (a staged GEMM's runs past 16 KiB); each recording encodes its
    // submit info, sets and descriptor writes.
    const arena = new Arena(16384 + spirv.byteLength + 256 * k.args.length + RECORDINGS * (256 + 160 * k.args.length));
    const made: Made = { sets: [], pipelines: new Map(), cbs: [], pods: [] };
    const release = releaser(ctx, made, arena);
    super(ctx, release);
    this.pipelines = made.pipelines;
    this.k = k;
    this.arena = arena;
    try {
      this.packer = vulkanTarget.pack.packer(plan, name);
      this.lastArgs = this.packer.names.map(() => undefined);
      const out = arena.alloc(8);
      const a = arena;
      // The shader module.
      const code = a.alloc(spirv.byteLength, 4);
      a.bytes.set(new Uint8Array(spirv.buffer, spirv.byteOffset, spirv.byteLength), a.at(code));
      check(
        vk.CreateShaderModule(
          device,
          a.put(S().VkShaderModuleCreateInfo, {
            sType: ST.SHADER_MODULE_CREATE_INFO,
            pNext: 0n,
            flags: 0,
            codeSize: spirv.byteLength,
            pCode: code,
          }),
          null,
          out,
        ),
        'vkCreateShaderModule',
        name,
      );
      this.shader = made.shader = a.u64(out);
      const ls = createLayouts(ctx, a, k, plan, made);
      this.layout = ls.layout;
      this.pool = ls.pool;
      this.bindings = ls.bindings;
      const { layouts, nSets } = ls;
      const range = plan.pushConstantRange;
      if (range) {
        this.pushBytes = new Uint8Array(range.offset + range.size);
        this.pushView = new DataView(this.pushBytes.buffer);
      }
      this.specIds = plan.specConstants
        .map((s) => s.specId)
        .concat(k.args.filter((x) => x.argKind === 'local').map((x) => x.specId!))
        .sort((x, y) => x - y);
      this.specNames = this.specIds.map((id) => plan.specConstants.find((s) => s.specId === id)?.name);
      this.specValues = this.specIds.map(() => -1);
      this.fence = made.fence = ctx.createFence();
      check(
        vk.CreateQueryPool(
          device,
          a.put(S().VkQueryPoolCreateInfo, {
            sType: ST.QUERY_POOL_CREATE_INFO,
            pNext: 0n,
            flags: 0,
            queryType: 2,
            queryCount: 2,
            pipelineStatistics: 0,
          }),
          null,
          out,
        ),
        'vkCreateQueryPool',
      );
      this.queryPool = made.query = a.u64(out);
      const beginInfo = a.put(S().VkCommandBufferBeginInfo, {
        sType: ST.COMMAND_BUFFER_BEGIN_INFO,
        pNext: 0n,
        flags: SIMULTANEOUS_USE,
        pInheritanceInfo: 0n,
      });
      this.fenceSlot = a.array('void *', [this.fence]);
      this.frame = {
        ctx,
        arena,
        pool: this.pool,
        layouts,
        nSets,
        pipelineLayout: this.layout,
        queryPool: this.queryPool,
        beginInfo,
        bindings: this.bindings,
        made,
      };
      const n = this.bindings.length;
      this.launchState = {
        pipeline: 0n,
        groups: [1, 1, 1],
        timed: false,
        ids: new Array<number>(n).fill(-1),
        handles: new Array<VkHandle>(n).fill(0n),
        pods: new Array<Uint8Array | undefined>(n).fill(undefined),
        push: this.pushBytes,
      };
      if (options.specialization) this.fixed = this.pipeline('', undefined, options.specialization);
      else if (this.specIds.length === 0) this.fixed = this.pipeline('');
    } catch (e) {
      this.dispose();
      throw e;
    }
  }

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
      const entries = a.array(
        S().VkSpecializationMapEntry,
        this.specIds.map((id, i) => ({ constantID: id, offset: 4 * i, size: 4 })),
      );
      spec = a.put(S().VkSpecializationInfo, {
        mapEntryCount: values.length,
        pMapEntries: entries,
        dataSize: 4 * values.length,
        pData: data,
      });
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
      spec = a.put(S().VkSpecializationInfo, {
        mapEntryCount: own.length,
        pMapEntries: a.array(S().VkSpecializationMapEntry, map),
        dataSize: size,
        pData: data,
      });
    }
    const out = a.alloc(8);
    const info = a.put(S().VkComputePipelineCreateInfo, {
      sType: ST.COMPUTE_PIPELINE_CREATE_INFO,
      pNext: 0n,
      flags: 0,
      stage: {
        sType: ST.PIPELINE_SHADER_STAGE_CREATE_INFO,
        pNext: 0n,
        flags: 0,
        stage: SHADER_STAGE_COMPUTE,
        module: this.shader,
        pName: a.cstr(this.name),
        pSpecializationInfo: spec,
      },
      layout: this.layout,
      basePipelineHandle: 0n,
      basePipelineIndex: -1,
    });
    check(vk.CreateComputePipelines(device, null, 1, info, null, out), 'vkCreateComputePipelines', this.name);
    const p = a.u64(out);
    a.reset(mark);
    this.pipelines.set(key, p);
    return p;
  }

  /**
   * Packs `args` with the plan, dispatches global / local work-groups and waits: a submit and a
   * fence wait, as a C host's. With `timed: true`, the kernel time in ms from two timestamps (0
   * where the queue has none, and without `timed`).
   */
  launch(o: VulkanLaunch): { readonly timeMs: number } {
    const timed = o.timed === true;
    const r = this.prepare(o, timed ? TIMED : SYNC);
    const { vk, vkDevice: device } = this.ctx;
    this.ctx.submit(r.submitInfo, this.fence, this.fenceSlot);
    r.serial = this.ctx.state.submitted;
    this.result.timeMs = 0;
    const bits = this.ctx.timestampBits;
    if (
      timed &&
      bits > 0 &&
      vk.GetQueryPoolResults(device, this.queryPool, 0, 2, 16, this.times, 8, QUERY_64 | QUERY_WAIT) === 0
    ) {
      const t = this.times;
      let ticks = (t[3] - t[1]) * 2 ** 32 + (t[2] - t[0]);
      if (ticks < 0) ticks += 2 ** bits;
      this.result.timeMs = (ticks * this.ctx.limits.timestampPeriod) / 1e6;
    }
    return this.result;
  }

  /**
   * Packs `args` and queues the dispatch without waiting (no timestamps): into the context's batch,
   * submitted with the launches around it in one vkQueueSubmit (batch.ts); `ctx.flush()` submits
   * the batch, `ctx.finish()` submits it and waits for every launch queued. Launches run in the
   * order queued, each after the memory writes of those before it. Buffers read or written through
   * their own methods submit and wait first; the arguments (POD values and which buffers) are taken
   * at the call, so the next launch may change them. Buffer contents are not: memory the host writes
   * through `mapped` while a launch is queued may be seen by it or not (use write(), which waits).
   */
  enqueue(o: VulkanLaunch): void {
    const r = this.prepare(o, ASYNC);
    r.serial = this.ctx.enqueue(r);
  }

  /** Packs and checks the launch into `this.launchState`, and finds or makes its recording. */
  private prepare(o: VulkanLaunch, mode: number): Recording {
    // Its pipelines, sets and command buffers are destroyed: recording with them crashed the driver (SIGSEGV).
    if (!this.live) throw new RuntimeInputError(`kernel '${this.name}' has been disposed`);
    if (this.repeatable && this.repeats(o, mode === TIMED))
      return this.use(this.recordings[this.lastRecording], this.lastRecording);
    this.repeatable = false;
    const packed = this.packer.pack(o.args);
    const g = o.global;
    const s = this.launchState;
    if (!Array.isArray(g) || g.length < 1 || g.length > 3)
      throw new PackError(this.name, '(launch)', 'global size must have 1 to 3 dimensions');
    const reqd = this.k.reqdWorkGroupSize;
    for (let i = 0; i < 3; i++) {
      const l = reqd ? reqd[i] : (o.local?.[i] ?? 1);
      const n = g[i] ?? 1;
      if (!Number.isSafeInteger(n) || n < 1 || !Number.isSafeInteger(l) || l < 1 || n % l !== 0)
        throw new PackError(
          this.name,
          '(launch)',
          `global size ${n} in dimension ${i} must be a positive multiple of the work-group size ${l}`,
        );
      if (n / l > this.ctx.limits.maxComputeWorkGroupCount[i])
        throw new PackError(
          this.name,
          '(launch)',
          `${n / l} work-groups in dimension ${i} exceed the device's ${this.ctx.limits.maxComputeWorkGroupCount[i]}`,
        );
      this.local[i] = l;
      s.groups[i] = n / l;
    }
    const ds = packed.descriptors;
    for (let j = 0; j < ds.length; j++) {
      const d = ds[j];
      const i = this.bindingOf(d.set, d.binding);
      if (d.kind === 'bytes') {
        s.pods[i] = d.value;
        s.ids[i] = -1;
        s.handles[i] = 0n;
        continue;
      }
      const v = d.value;
      if (!(v instanceof VulkanBuffer))
        throw new PackError(this.name, this.argAt(d.set, d.binding), 'expected a Vulkan buffer of this context');
      if (!v.live) throw new PackError(this.name, this.argAt(d.set, d.binding), 'the Vulkan buffer has been disposed');
      s.ids[i] = v.id;
      s.handles[i] = v.handle;
    }
    s.pipeline = this.fixed ?? this.specialized(packed.specConstants, g.length);
    s.timed = mode === TIMED;
    if (this.pushBytes) {
      if (this.k.podPlacement === 'pushconstant') this.pushBytes.set(packed.pushConstants);
      else this.modulePushConstants(g.length);
    }
    const r = this.recordingFor(s);
    this.repeatable = this.remember(o, s.timed);
    return r;
  }

  /** Whether this launch has the last one's argument values (by identity: see lastArgs), geometry and timing. */
  private repeats(o: VulkanLaunch, timed: boolean): boolean {
    const args = o.args;
    if (timed !== this.lastTimed || typeof args !== 'object' || args === null) return false;
    const names = this.packer.names;
    // Exactly the names: as many own keys, each holding the value it held.
    let count = 0;
    for (const key in args) {
      if (!Object.hasOwn(args, key)) return false;
      count++;
    }
    if (count !== names.length) return false;
    const last = this.lastArgs;
    for (let i = 0; i < names.length; i++) {
      const v = args[names[i]];
      if (v !== last[i] || (v instanceof VulkanBuffer && !v.live)) return false;
    }
    const g = o.global;
    const G = this.lastGeometry;
    if (!Array.isArray(g) || g.length !== G[6]) return false;
    for (let i = 0; i < 3; i++) if ((g[i] ?? 1) !== G[i] || (o.local?.[i] ?? 1) !== G[3 + i]) return false;
    return true;
  }

  /**
   * Keeps what repeats() compares, after a launch packed without error; false where an argument cannot be compared by
   * identity.
   */
  private remember(o: VulkanLaunch, timed: boolean): boolean {
    const names = this.packer.names;
    for (let i = 0; i < names.length; i++) {
      const v = o.args[names[i]];
      if (v === undefined || typeof v === 'function' || (typeof v === 'object' && !(v instanceof VulkanBuffer)))
        return false;
      this.lastArgs[i] = v;
    }
    for (let i = 0; i < 3; i++) {
      this.lastGeometry[i] = o.global[i] ?? 1;
      this.lastGeometry[3 + i] = o.local?.[i] ?? 1;
    }
    this.lastGeometry[6] = o.global.length;
    this.lastTimed = timed;
    return true;
  }

  /**
   * A recording of this state: the last one's, another's, or one recorded now (waiting only when every one is queued).
   */
  private recordingFor(s: LaunchState): Recording {
    const recs = this.recordings;
    const n = recs.length;
    for (let j = 0; j < n; j++) {
      const at = (this.lastRecording + j) % n;
      const r = recs[at];
      if (!r.sameShape(s)) continue;
      if (r.samePods(s)) return this.use(r, at);
      // Other POD bytes: written in place where no queued launch reads them.
      if (!this.ctx.pending(r.serial)) {
        r.writePods(s);
        return this.use(r, at);
      }
    }
    let at = -1;
    if (n < RECORDINGS) {
      recs.push(new Recording(this.frame, s));
      at = n;
    } else {
      for (let j = 0; j < n; j++)
        if (!this.ctx.pending(recs[j].serial) && (at < 0 || recs[j].lastUse < recs[at].lastUse)) at = j;
      if (at < 0) {
        this.ctx.finish();
        at = 0;
        for (let j = 1; j < n; j++) if (recs[j].lastUse < recs[at].lastUse) at = j;
      }
    }
    recs[at].record(s);
    return this.use(recs[at], at);
  }

  private use(r: Recording, at: number): Recording {
    this.lastRecording = at;
    r.lastUse = ++this.uses;
    return r;
  }

  /** clspv's module-scope push constants, from the launch geometry. */
  private modulePushConstants(dims: number): void {
    const view = this.pushView!;
    const groups = this.launchState.groups;
    for (const p of this.plan.pushConstants) {
      for (let i = 0; i < 3; i++) {
        const v =
          p.name === 'global_size'
            ? groups[i] * this.local[i]
            : p.name === 'enqueued_local_size'
              ? this.local[i]
              : p.name === 'num_workgroups'
                ? groups[i]
                : 0;
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
      const v =
        id <= 2 && !this.plan.localSize
          ? this.local[id]
          : named === 'work_dim'
            ? dims
            : named?.startsWith('global_offset')
              ? 0
              : (locals.get(id) ?? 1);
      if (values[i] !== v) same = false;
      values[i] = v;
    }
    if (!same) this.lastPipeline = this.pipeline(values.join(','), values);
    return this.lastPipeline;
  }

  /**
   * Makes the next launch record again. Launches key their bindings on each buffer's id, which no
   * other buffer ever gets, so a new buffer with a freed one's handle is bound anew without it.
   */
  rebindAll(): void {
    this.repeatable = false;
    for (const r of this.recordings) r.invalidate();
  }

  private bindingOf(set: number, binding: number): number {
    const b = this.bindings;
    for (let i = 0; i < b.length; i++) if (b[i].set === set && b[i].binding === binding) return i;
    throw new Error(`internal: no binding ${set}:${binding}`);
  }

  private argAt(set: number, binding: number): string {
    return this.k.args.find((x) => x.descriptorSet === set && x.binding === binding)?.name ?? `${set}:${binding}`;
  }
}
