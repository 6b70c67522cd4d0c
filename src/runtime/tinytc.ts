import type { OpenCLPlan, OpenCLSlot } from '../abi/plan.js';
import type { HostRule } from '../abi/origin.js';
import { SourceFile } from '../diagnostics/source.js';
import { formatDiagnostics } from '../diagnostics/format.js';
import { type IrType, type MemrefType, type Program } from '../frontend/tinytc/ast.js';
import { kernelName, varName } from '../frontend/tinytc/calling-convention.js';
import { compileTinytc } from '../codegen/compile-tinytc.js';
import { codegenRefusals } from '../codegen/codegen-refusals.js';
import { CPU_DEVICE, codegenPolicy, TUNED_POLICY } from '../codegen/policy.js';
import { deviceString, deviceType } from './opencl/device-info.js';
import { subgroupRefusal } from '../codegen/subgroup-use.js';
import { openclTarget } from '../targets/opencl/index.js';
import { emitTinytcOpenCLCMapped, tinytcClStd } from '../codegen/opencl-c/index.js';
import { emitTinytcOpenclSpirv } from '../codegen/spirv/opencl-module.js';
import { disassemble } from '../emit/spirv/disassemble.js';
import { buildSpirvProgram } from './opencl/program-il.js';
import { type BlasPolicy, LOCAL_BYTES, withTensorCores } from '../codegen/blas-policy.js';
import { type ShapeTie, shapeTies } from './checks/shape-ties.js';
import { checkLaunchArgs } from './checks/launch-args.js';
import { type BufferKind, type CheckedMemref, checkMemref } from './checks/memref.js';
import { PackError, RuntimeInputError } from '../pack/errors.js';
import { type Context, DeviceBuffer, type SvmBlock } from './opencl/host.js';
import { Kernel, type KernelBuild } from './opencl/kernel.js';
import { type GroupLaunch, type Howmany, groupLaunch, groupLaunchOf } from './group-launch.js';
import { boolByte } from './args/bool-arg.js';

/**
 * A logical memref: data (a host array, copied in and back, or a buffer of the API's context: an
 * OpenCL DeviceBuffer by default, a VulkanBuffer as VulkanMemrefValue), shape, and stride (canonical
 * when left out).
 */
export interface MemrefValue<B = DeviceBuffer> {
  readonly data: ArrayBufferView | B;
  readonly shape: readonly number[];
  readonly stride?: readonly number[];
}

type Checked = CheckedMemref<DeviceBuffer>;

const BUFFERS: BufferKind<DeviceBuffer> = {
  is: (x): x is DeviceBuffer => x instanceof DeviceBuffer,
  word: 'a device buffer',
};

export interface GroupValue {
  readonly group: readonly MemrefValue[];
  readonly offset?: number;
}

export interface TinytcLaunch {
  readonly args: Readonly<Record<string, unknown>>;
  /**
   * Work-groups: v0.3 launches howmany along the third dimension (global = local × (1, 1, howmany)),
   * v0.4 howmany along x or [x, y, z] (global = local × (x, y, z)), as tinytc does (group-launch.ts).
   */
  readonly howmany?: Howmany;
}

/**
 * A tinytc function built for a device: logical arguments (memrefs, groups, scalars) expand into
 * the calling convention's pointer, shape, stride and offset arguments.
 */
export class TinytcKernel {
  private readonly kernel: Kernel;
  private readonly slots: readonly (OpenCLSlot & { host?: HostRule })[];
  /** The logical arguments by name, as `--args` and `launch` take them. */
  readonly params: ReadonlyMap<string, IrType>;
  readonly local: readonly [number, number, number];
  private readonly ties: readonly ShapeTie[];
  /** Host arrays copied in, to read back after a launch: argument (and member) → buffer. */
  readonly copies = new Map<string, { buffer: DeviceBuffer | SvmBlock; target: ArrayBufferView }[]>();

  constructor(
    readonly ctx: Context,
    readonly name: string,
    program: Program | readonly (readonly [string, IrType])[],
    plan: OpenCLPlan,
    openclC: string,
    std: 'CL1.2' | 'CL2.0' = 'CL2.0',
    build: KernelBuild = {},
    buildOptions = '',
    /** How the work-groups are laid out: v0.3's batch axis or v0.4's three axes. */
    readonly groups: GroupLaunch = 'batch',
  ) {
    const k = plan.kernels.find((x) => x.name === kernelName(name));
    if (!k)
      throw new RuntimeInputError(`no function @${name} (have ${plan.kernels.map((x) => '@' + x.name).join(', ')})`);
    this.slots = k.args as (OpenCLSlot & { host?: HostRule })[];
    // The parameters' IR types: from the parsed program, or as typed bindings embed them.
    const f = Array.isArray(program)
      ? undefined
      : (program as Program).funcs.find((x) => kernelName(x.name) === kernelName(name))!;
    this.params = f
      ? new Map(f.params.map((p) => [varName(p.name), p.type]))
      : new Map(program as readonly [string, IrType][]);
    // Extents the body ties together (typed bindings carry no body: their launches check shapes one by one).
    this.ties = f ? shapeTies(f) : [];
    const wg = k.reqdWorkGroupSize;
    this.local = wg ? [wg[0], wg[1], wg[2]] : [1, 1, 1];
    this.kernel = new Kernel(
      ctx,
      name,
      plan,
      openclC,
      `-cl-std=${std}${buildOptions ? ` ${buildOptions}` : ''}`,
      build,
    );
  }

  /** Releases the OpenCL kernel (and its program); a launch after it is refused. */
  dispose(): void {
    this.kernel.dispose();
  }

  /** Expands the logical arguments, launches howmany work-groups (group-launch.ts), copies host arrays back. */
  launch(o: TinytcLaunch): { timeMs: number } {
    const { global, count: howmany } = groupLaunch(this.name, this.local, o.howmany, this.groups);
    const physical: Record<string, unknown> = {};
    const owned: { dispose(): void }[] = [];
    const indirect: SvmBlock[] = [];
    this.copies.clear();
    // Every memref and group is checked (shapes, strides, offsets, data sizes, ties, howmany) before anything is
    // allocated.
    const { memrefs, groups } = checkLaunchArgs(this.name, this.params, o.args, howmany, this.ties, (n, t, v, at) =>
      this.memref(n, t, v, at),
    );
    for (const s of this.slots) {
      const rule = s.host!;
      const type = this.params.get(rule.arg)!;
      const v = o.args[rule.arg];
      if (type.kind === 'scalar') {
        physical[s.name] = type.name === 'i1' ? boolByte(this.name, rule.arg, v) : v;
        continue;
      }
      if (type.kind === 'memref') {
        const m = memrefs.get(rule.arg)!;
        if (rule.take === 'data') physical[s.name] = this.deviceData(rule.arg, m, owned);
        else physical[s.name] = rule.take === 'shape' ? m.shape[rule.dim!] : m.stride[rule.dim!];
        continue;
      }
      if (type.kind !== 'group') continue;
      const { members, offset } = groups.get(rule.arg)!;
      if (rule.take === 'offset') {
        physical[s.name] = offset;
      } else if (rule.take === 'size') {
        // tinytc v0.4's dynamic group size: the number of members.
        physical[s.name] = members.length;
      } else if (rule.take === 'data') {
        const table = this.ctx.svm(8 * members.length);
        owned.push(table);
        const blocks = members.map((m, i) => {
          if (m.data instanceof DeviceBuffer)
            throw new PackError(
              this.name,
              `${rule.arg}[${i}]`,
              'group members take host arrays (they are copied into shared virtual memory)',
            );
          const b = this.ctx.svm(m.data.byteLength);
          owned.push(b);
          indirect.push(b);
          const src = m.data as ArrayBufferView;
          b.access((bytes) => bytes.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength)));
          this.remember(`${rule.arg}[${i}]`, b, src);
          return b;
        });
        table.access((bytes) =>
          blocks.forEach((b, i) => new DataView(bytes.buffer, bytes.byteOffset).setBigUint64(8 * i, b.ptr, true)),
        );
        physical[s.name] = { svm: table.ptr };
      } else {
        const values = BigInt64Array.from(
          members.map((m) => BigInt(rule.take === 'shape' ? m.shape[rule.dim!] : m.stride[rule.dim!])),
        );
        const buf = this.ctx.buffer(values);
        owned.push(buf);
        physical[s.name] = buf;
      }
    }
    if (indirect.length) this.kernel.useIndirectSvm(indirect);
    try {
      const r = this.kernel.launch({ args: physical, global, local: this.local }).wait();
      for (const list of this.copies.values()) {
        for (const c of list) {
          if (c.buffer instanceof DeviceBuffer) c.buffer.read(c.target);
          else
            c.buffer.access((bytes) =>
              new Uint8Array(c.target.buffer, c.target.byteOffset, c.target.byteLength).set(
                bytes.subarray(0, c.target.byteLength),
              ),
            );
        }
      }
      return r;
    } finally {
      for (const x of owned) x.dispose();
    }
  }

  private remember(key: string, buffer: DeviceBuffer | SvmBlock, target: ArrayBufferView): void {
    const list = this.copies.get(key) ?? [];
    list.push({ buffer, target });
    this.copies.set(key, list);
  }

  private deviceData(
    name: string,
    m: { data: ArrayBufferView | DeviceBuffer },
    owned: { dispose(): void }[],
  ): DeviceBuffer {
    if (m.data instanceof DeviceBuffer) return m.data;
    const b = this.ctx.buffer(m.data);
    owned.push(b);
    this.remember(name, b, m.data);
    return b;
  }

  /**
   * Checks a memref value against its declared type (extents and strides whole numbers that
   * match the static ones, the data's element type, and enough data for the shape, stride and
   * a group's `offset`); fills in the canonical stride.
   */
  private memref(name: string, t: MemrefType, v: unknown, offset: number): Checked {
    return checkMemref(this.name, name, t, v, offset, BUFFERS);
  }
}

/**
 * What kernarg hands an OpenCL device: its OpenCL C (default), or its OpenCL SPIR-V (program-il.ts says how the device
 * takes it).
 */
export const OPENCL_ILS = ['opencl-c', 'spirv'] as const;
export type OpenclIl = (typeof OPENCL_ILS)[number];

/** CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV (cl_nv_device_attribute_query); null where the driver does not answer. */
export function nvidiaComputeCapability(ctx: Context): number | null {
  const out = Buffer.alloc(4);
  return ctx.cl.GetDeviceInfo(ctx.device.handle, 0x4000, 4, out, null) === 0 ? out.readUInt32LE(0) : null;
}

/**
 * OpenCL C with NVIDIA's PTX in it (a caller's `mma-f64` rule for an f64 GEMM, an `async=S` knob's cp.async: the only
 * inline assembly the printer writes) is refused on any other device: another OpenCL compiler may build the inline PTX
 * without a word and compute a wrong C (PoCL gave zeros). SPIR-V leaves those rules out (portableGemmRule).
 */
function refuseForeignPtx(ctx: Context, name: string, openclC: string): void {
  if (!openclC.includes('__asm__')) return;
  const nvidia = /nvidia/i.test(ctx.device.platform);
  const cc = nvidia ? nvidiaComputeCapability(ctx) : null;
  if (cc !== null && cc >= 8) return;
  throw new RuntimeInputError(
    `kernel '${name}': its blas rules (mma-f64, async) put NVIDIA PTX (compute capability 8.0 or later) into the ` +
      `OpenCL C, and '${ctx.device.name}' is ${nvidia ? `of compute capability ${cc === null ? 'unknown' : `${cc}.x`}` : 'no NVIDIA device'}`,
  );
}

/**
 * Compiles tinytc IR with kernarg and builds its OpenCL C (or the given OpenCL C, or with `il: 'spirv'` its OpenCL
 * SPIR-V) for the context's device.
 */
export function tinytcKernel(
  ctx: Context,
  ir: string,
  name: string,
  options: {
    path?: string;
    openclC?: string;
    groupTables?: 'pointer' | 'ulong';
    blas?: Partial<BlasPolicy>;
    cache?: boolean | string;
    capture?: string | false;
    buildOptions?: string;
    il?: OpenclIl;
  } = {},
): TinytcKernel {
  // The code generator's policy from the device's limits; OpenCL C given by the caller was generated with the tuned
  // one.
  const limits = options.openclC === undefined ? ctx.limits : undefined;
  // Its OpenCL entry (api-policies.ts): a CPU device (PoCL) gets the CPU one (CPU_DEVICE).
  const cpu = /cpu/.test(deviceType(ctx.cl, ctx.device.handle)) ? CPU_DEVICE : {};
  const policy = limits
    ? codegenPolicy({
        maxWorkGroupSize: limits.maxWorkGroupSize,
        maxWorkItemSizes: [limits.maxWorkItemSizes[0] ?? 1, limits.maxWorkItemSizes[1] ?? 1],
        ...cpu,
      })
    : TUNED_POLICY;
  // A staged GEMM's tiles within the device's local memory, 8 KiB left for the kernel's own arrays (as LOCAL_BYTES
  // leaves on NVIDIA's 48 KiB; the Vulkan runtime does the same); per GEMM of a kernel, a share (gemm-local-budget.ts).
  const blas: Partial<BlasPolicy> | undefined = limits
    ? { localBytes: Math.min(LOCAL_BYTES, limits.localMemSize - 8 * 1024), ...options.blas }
    : options.blas;
  // The opencl record's plan of the kernels (its layout and lowering); nothing is rendered but the OpenCL C below.
  const fe = compileTinytc(new SourceFile(options.path ?? `${name}.ir`, ir), {
    target: openclTarget,
    lowerOptions: { target: 'opencl' },
    policy,
    api: 'opencl',
  });
  if (!fe.compiled || !fe.lowered)
    throw new RuntimeInputError(
      `kernarg cannot compile the IR:\n${formatDiagnostics([...fe.diagnostics.items, ...(fe.notLowered ?? [])])}`,
    );
  const refused = [
    ...codegenRefusals(options.il === 'spirv' ? 'opencl-spirv' : 'opencl-c', fe),
    // Subgroups the device lacks (KA3140), unless the caller brings OpenCL C of its own.
    ...(options.openclC !== undefined
      ? []
      : subgroupRefusal(
          fe.compiled.program,
          deviceString(ctx.cl, ctx.device.handle, 'extensions').split(/\s+/),
          ctx.device.name,
        )),
  ];
  if (refused.length) throw new RuntimeInputError(`kernarg cannot compile the IR:\n${formatDiagnostics(refused)}`);
  const compiled = fe.compiled;
  const plan = fe.lowered.plan;
  // NVIDIA's FP64 tensor cores for the GEMMs they were measured on, where the driver says compute capability 8.0 or
  // later (blas-policy.ts, NVIDIA_TENSOR_GEMM); a caller's own GEMM rules win.
  const gemm =
    limits && options.blas?.gemm === undefined && /nvidia/i.test(ctx.device.platform)
      ? withTensorCores(compiled.policy.blas.opencl.gemm, nvidiaComputeCapability(ctx))
      : undefined;
  const path = options.path ?? `${name}.ir`;
  if (options.il === 'spirv') {
    if (options.openclC !== undefined)
      throw new RuntimeInputError('il: spirv builds the SPIR-V kernarg generates: give no OpenCL C with it');
    const words = emitTinytcOpenclSpirv(compiled, blas ? { blas } : {});
    const program = buildSpirvProgram(ctx, words, {
      source: disassemble(words, { rawIds: true }),
      options: options.buildOptions ?? '',
      origin: `${path}.spv`,
      generatedFrom: path,
    });
    const build: KernelBuild = { program, ...(options.capture !== undefined ? { capture: options.capture } : {}) };
    return new TinytcKernel(
      ctx,
      kernelName(name),
      compiled.program,
      plan,
      program.spec.source,
      'CL1.2',
      build,
      '',
      groupLaunchOf(fe.version),
    );
  }
  // NVIDIA's OpenCL compiler refuses pointer-to-pointer kernel parameters: pass group tables as ulong* there.
  const groupTables = options.groupTables ?? (/nvidia/i.test(ctx.device.platform) ? 'ulong' : 'pointer');
  const std = options.openclC ? 'CL2.0' : tinytcClStd(compiled, groupTables);
  const generated =
    options.openclC === undefined
      ? emitTinytcOpenCLCMapped(compiled, {
          groupTables,
          ...(blas || gemm ? { blas: { ...blas, ...(gemm ? { gemm } : {}) } } : {}),
        })
      : undefined;
  if (generated) refuseForeignPtx(ctx, name, generated.text);
  const irFile = new SourceFile(path, ir);
  const irLines = ir.split('\n');
  const build: KernelBuild = {
    origin: options.openclC ? `${name}.cl` : `${path}.cl`,
    ...(generated
      ? {
          generatedFrom: path,
          // A driver error on a generated line points back at the IR instruction it came from.
          lineOrigin: (line: number) => {
            const span = generated.origins[line - 1];
            if (!span) return undefined;
            const at = irFile.lineCol(span.start).line;
            return { file: path, line: at, text: irLines[at - 1] ?? '' };
          },
        }
      : {}),
    ...(options.cache !== undefined ? { cache: options.cache } : {}),
    ...(options.capture !== undefined ? { capture: options.capture } : {}),
  };
  return new TinytcKernel(
    ctx,
    kernelName(name),
    compiled.program,
    plan,
    options.openclC ?? generated!.text,
    std,
    build,
    options.buildOptions,
    groupLaunchOf(fe.version),
  );
}
