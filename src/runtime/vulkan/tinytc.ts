// A tinytc function on a Vulkan device: the same logical arguments as the OpenCL path (memrefs,
// groups, scalars, howmany), expanded by the calling convention's host rules into the vulkan
// plan's slots. Memrefs become storage buffers; a group's pointer table holds its members' buffer
// device addresses, since a descriptor cannot hold an array of pointers.
import type { HostRule } from '../../abi/origin.js';
import type { VulkanPlan, VulkanSlot, VulkanTargetOptions } from '../../targets/vulkan/lower.js';
import { vulkanTarget } from '../../targets/vulkan/index.js';
import { formatDiagnostics } from '../../diagnostics/format.js';
import { SourceFile } from '../../diagnostics/source.js';
import { type IrType, type MemrefType, type Program } from '../../frontend/tinytc/ast.js';
import { kernelName, varName } from '../../frontend/tinytc/calling-convention.js';
import { type CompiledTinytc, compileTinytc } from '../../codegen/compile-tinytc.js';
import { codegenRefusals } from '../../codegen/codegen-refusals.js';
import { CPU_DEVICE, codegenPolicy } from '../../codegen/policy.js';
import { type BlasPolicy, LOCAL_BYTES } from '../../codegen/blas-policy.js';
import { emitTinytcSpirv } from '../../codegen/spirv/index.js';
import { type ShapeTie, shapeTies } from '../checks/shape-ties.js';
import { checkLaunchArgs } from '../checks/launch-args.js';
import { type BufferKind, type CheckedMemref, checkMemref } from '../checks/memref.js';
import { LaunchError, PackError, RuntimeInputError } from '../../pack/errors.js';
import { VulkanBuffer, type VulkanContext } from './context.js';
import { VulkanKernel } from './kernel.js';
import { boolByte } from '../args/bool-arg.js';
import type { MemrefValue } from '../tinytc.js';
import { moduleNeeds } from './module-needs.js';
import { type GroupLaunch, type Howmany, groupLaunch, groupLaunchOf } from '../group-launch.js';

/** A logical memref on Vulkan: host data (copied in and back) or a buffer of the context. */
export type VulkanMemrefValue = MemrefValue<VulkanBuffer>;

type Checked = CheckedMemref<VulkanBuffer>;

const BUFFERS: BufferKind<VulkanBuffer> = {
  is: (x): x is VulkanBuffer => x instanceof VulkanBuffer,
  word: 'a Vulkan buffer',
};

export class VulkanTinytcKernel {
  private readonly kernel: VulkanKernel;
  private readonly slots: readonly (VulkanSlot & { host?: HostRule })[];
  readonly params: ReadonlyMap<string, IrType>;
  readonly local: readonly [number, number, number];
  /** Extents the body ties together, checked at every launch (as on OpenCL). */
  private readonly ties: readonly ShapeTie[];

  constructor(
    readonly ctx: VulkanContext,
    readonly name: string,
    program: Program,
    readonly plan: VulkanPlan,
    readonly spirv: Uint32Array,
    /** How the work-groups are laid out: v0.3's batch axis or v0.4's three axes. */
    readonly groups: GroupLaunch = 'batch',
  ) {
    const k = plan.kernels.find((x) => x.name === kernelName(name));
    if (!k)
      throw new RuntimeInputError(`no function @${name} (have ${plan.kernels.map((x) => '@' + x.name).join(', ')})`);
    this.slots = k.args as (VulkanSlot & { host?: HostRule })[];
    const f = program.funcs.find((x) => kernelName(x.name) === kernelName(name))!;
    this.params = new Map(f.params.map((p) => [varName(p.name), p.type]));
    this.ties = shapeTies(f);
    for (const [arg, type] of this.params) {
      if (type.kind === 'group' && !ctx.enabled.has('bufferDeviceAddress')) {
        throw new PackError(
          name,
          arg,
          `a group's pointer table holds buffer device addresses, ` +
            `and ${ctx.device.name} ${ctx.supported.has('bufferDeviceAddress') ? 'was opened without' : 'lacks'} ` +
            `the Vulkan feature bufferDeviceAddress`,
        );
      }
    }
    const wg = k.reqdWorkGroupSize;
    this.local = wg ? [wg[0], wg[1], wg[2]] : [1, 1, 1];
    this.kernel = new VulkanKernel(ctx, name, plan, spirv);
  }

  /** Expands the logical arguments, launches howmany work-groups (group-launch.ts), copies host arrays back. */
  launch(o: { readonly args: Readonly<Record<string, unknown>>; readonly howmany?: Howmany }): { timeMs: number } {
    let launch: ReturnType<typeof groupLaunch>;
    try {
      launch = groupLaunch(this.name, this.local, o.howmany, this.groups);
    } catch (e) {
      if (!(e instanceof LaunchError)) throw e;
      throw new PackError(this.name, '(howmany)', e.problem);
    }
    const { global, count: howmany } = launch;
    // Every memref and group is checked (shapes, strides, offsets, data sizes, ties, howmany) before anything is
    // allocated.
    const { memrefs, groups } = checkLaunchArgs(this.name, this.params, o.args, howmany, this.ties, (n, t, v, at) =>
      this.memref(n, t, v, at),
    );
    const physical: Record<string, unknown> = {};
    const owned: VulkanBuffer[] = [];
    const copies: [VulkanBuffer, ArrayBufferView][] = [];
    const device = (m: Checked): VulkanBuffer => {
      if (m.data instanceof VulkanBuffer) return m.data;
      const b = this.ctx.buffer(m.data);
      owned.push(b);
      copies.push([b, m.data]);
      return b;
    };
    try {
      for (const s of this.slots) {
        const rule = s.host!;
        const type = this.params.get(rule.arg)!;
        if (type.kind === 'scalar') {
          const v = o.args[rule.arg];
          physical[s.name] = type.name === 'i1' ? boolByte(this.name, rule.arg, v) : v;
        } else if (type.kind === 'memref') {
          const m = memrefs.get(rule.arg)!;
          physical[s.name] =
            rule.take === 'data' ? device(m) : rule.take === 'shape' ? m.shape[rule.dim!] : m.stride[rule.dim!];
        } else if (type.kind === 'group') {
          const { members, offset } = groups.get(rule.arg)!;
          let table: BigInt64Array | BigUint64Array | undefined;
          if (rule.take === 'offset') physical[s.name] = offset;
          // tinytc v0.4's dynamic group size: the number of members.
          else if (rule.take === 'size') physical[s.name] = members.length;
          else if (rule.take === 'data') table = BigUint64Array.from(members, (m) => device(m).address);
          else
            table = BigInt64Array.from(members, (m) =>
              BigInt(rule.take === 'shape' ? m.shape[rule.dim!] : m.stride[rule.dim!]),
            );
          if (table) {
            const b = this.ctx.buffer(table);
            owned.push(b);
            physical[s.name] = b;
          }
        }
      }
      const r = this.kernel.launch({
        args: physical,
        global,
        timed: true,
      });
      for (const [b, target] of copies) b.read(target);
      return { timeMs: r.timeMs };
    } finally {
      for (const b of owned) b.dispose();
    }
  }

  /** Checks a memref value against its declared type; fills in the canonical stride. */
  private memref(name: string, t: MemrefType, v: unknown, offset: number): Checked {
    return checkMemref(this.name, name, t, v, offset, BUFFERS);
  }

  dispose(): void {
    this.kernel.dispose();
  }
}

/**
 * The module's SPIR-V: floating atomic adds as OpAtomicFAddEXT when the device has every feature
 * that makes the module need (f32/f64, buffer/workgroup), compare-and-swap loops otherwise.
 */
function spirvFor(
  ctx: VulkanContext,
  compiled: CompiledTinytc,
  plan: VulkanPlan,
  blas: Partial<BlasPolicy>,
): Uint32Array {
  const emit = (floatAtomicAdd: boolean) => emitTinytcSpirv(compiled, plan, { floatAtomicAdd, blas });
  if (ctx.enabled.has('shaderBufferFloat32AtomicAdd') || ctx.enabled.has('shaderBufferFloat64AtomicAdd')) {
    const words = emit(true);
    if ([...moduleNeeds(words).features].every((f) => ctx.enabled.has(f))) return words;
  }
  return emit(false);
}

/** Compiles tinytc IR with kernarg for the vulkan target and builds its SPIR-V for the context's device. */
/**
 * `vulkan`: clspv's options for the plan (`podUbo`, `podPushConstant`, `podArgs: 'auto'`, ...);
 * `blas`: GEMM variants where they differ from the device's rule.
 */
export function vulkanTinytcKernel(
  ctx: VulkanContext,
  ir: string,
  name: string,
  options: { path?: string; spirv?: Uint32Array; vulkan?: VulkanTargetOptions; blas?: Partial<BlasPolicy> } = {},
): VulkanTinytcKernel {
  // The code generator's policy from the device's limits, its Vulkan entry's work-groups and BLAS
  // rule (api-policies.ts): a CPU device (lavapipe) gets the CPU entry as PoCL does (CPU_DEVICE).
  // SPIR-V given by the caller brings its own LocalSize: its plan is `lower`'s (the tuned policy,
  // OpenCL's work-groups), which is how such SPIR-V was written.
  const l = ctx.limits;
  const cpu = /cpu/i.test(ctx.device.type) ? CPU_DEVICE : {};
  const policy = codegenPolicy({
    maxWorkGroupSize: l.maxComputeWorkGroupInvocations,
    maxWorkItemSizes: [l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupSize[1]],
    ...cpu,
  });
  // A staged GEMM's tiles within the device's work-group memory, 8 KiB left for the kernel's own arrays (as LOCAL_BYTES
  // leaves on NVIDIA).
  const blas: Partial<BlasPolicy> = {
    localBytes: Math.min(LOCAL_BYTES, l.maxComputeSharedMemorySize - 8 * 1024),
    ...options.blas,
  };
  // The vulkan record's layout and plan under clspv's options, as `lower --target vulkan` makes them.
  const lowerOptions = { target: 'vulkan' as const, vulkan: options.vulkan ?? {} };
  const fe = compileTinytc(new SourceFile(options.path ?? `${name}.ir`, ir), {
    target: vulkanTarget,
    lowerOptions,
    ...(options.spirv ? {} : { policy, api: 'vulkan' as const }),
  });
  if (!fe.compiled)
    throw new RuntimeInputError(
      `kernarg cannot compile the IR:\n${formatDiagnostics([...fe.diagnostics.items, ...(fe.notLowered ?? [])])}`,
    );
  const refused = codegenRefusals('vulkan-spirv', fe);
  if (refused.length) throw new RuntimeInputError(`kernarg cannot compile the IR:\n${formatDiagnostics(refused)}`);
  const compiled = fe.compiled;
  if (!fe.lowered)
    throw new RuntimeInputError(`kernarg cannot lower the IR for Vulkan:\n${formatDiagnostics(fe.diagnostics.items)}`);
  const plan = fe.lowered.plan;
  const spirv = options.spirv ?? spirvFor(ctx, compiled, plan, blas);
  return new VulkanTinytcKernel(ctx, kernelName(name), compiled.program, plan, spirv, groupLaunchOf(fe.version));
}
