// Any Vulkan compute shader read from SPIR-V (glslang, dxc, slang, kernarg's own), launched with
// typed values: each resource is an argument named as the shader names it (the vulkan plan's
// rule: the instance name, else the block's type name, else `set{S}_binding{B}`), a block's value
// an object of its members laid out by the module's Offset/ArrayStride decorations (std140 for
// uniform blocks, std430 for storage blocks as compilers lay them out); the push-constant block is
// one argument the same way; specialization constants are set by name when the pipeline is made.
import { readSpirv } from '../../readers/spirv.js';
import { Malformed } from '../../readers/spirv-module.js';
import { type ShaderEntry, type ShaderSpecConstant, readShaderEntries } from '../../readers/spirv-shader.js';
import type { VulkanKernelPlan, VulkanPlan } from '../../targets/vulkan/plan.js';
import type { ValueLayout } from '../../layout/value-layout.js';
import { LaunchError, PackError, RuntimeInputError, ValueError } from '../../pack/errors.js';
import { writeFloat, writeInt } from '../../pack/scalars.js';
import { type VulkanBuffer, type VulkanContext } from './context.js';
import { VulkanKernel } from './kernel.js';
import type { SpecEntry } from './kernel-options.js';
import { blockBytes, blockValue, fromJson } from './shader-values.js';

/** What each resource kind is in words, for the refusal of those the host does not bind. */
const UNBOUND_KIND: Readonly<Record<string, string>> = {
  ro_image: 'a sampled image',
  wo_image: 'a storage image',
  sampler: 'a sampler',
  storage_texel_buffer: 'a storage texel buffer',
  uniform_texel_buffer: 'a uniform texel buffer',
};

export interface ShaderOptions {
  /** The GLCompute entry point (default: the module's only one). */
  readonly entry?: string;
  /**
   * Specialization constants by name (booleans, numbers, bigints or digit strings for 64-bit integers); one left out
   * keeps the module's default.
   */
  readonly specialization?: Readonly<Record<string, unknown>>;
  /**
   * The work-group size, where the module leaves a dimension to a spec constant (local_size_x_id); default the
   * module's. A literal dimension may be given only as itself.
   */
  readonly local?: readonly number[];
}

/** Exactly one: work-items per dimension (a multiple of the work-group size in each), or work-groups to dispatch. */
export type ShaderGeometry =
  | { readonly global: readonly number[]; readonly groups?: undefined }
  | { readonly groups: readonly number[]; readonly global?: undefined };

export interface ShaderRun {
  /** Every argument after the run: storage buffers read back, uniform buffers and push constants as given. */
  readonly args: Record<string, unknown>;
  readonly timeMs: number;
}

/** One entry point of a compute shader, with its pipeline made; run() makes and frees the buffers of each launch. */
export class VulkanShader {
  readonly plan: VulkanPlan;
  readonly entry: ShaderEntry;
  readonly kernel: VulkanKernelPlan;
  /** The work-group size the pipeline was made with. */
  readonly localSize: readonly [number, number, number];
  /** The arguments run() takes: the resources and the push-constant block. */
  readonly names: readonly string[];
  private readonly k: VulkanKernel;

  constructor(
    readonly ctx: VulkanContext,
    spirv: Uint8Array | Uint32Array,
    options: ShaderOptions = {},
  ) {
    const bytes =
      spirv instanceof Uint8Array ? spirv : new Uint8Array(spirv.buffer, spirv.byteOffset, spirv.byteLength);
    const read = readSpirv(bytes, 'shader.spv');
    if (!read.plan) throw new RuntimeInputError(read.diagnostics.map((d) => d.message).join('; '));
    if (read.plan.target !== 'vulkan')
      throw new RuntimeInputError(
        'this SPIR-V holds OpenCL kernels (OpEntryPoint Kernel), not a Vulkan compute shader: run it through --api ' +
          'opencl',
      );
    this.plan = read.plan;
    let entries: ShaderEntry[];
    try {
      entries = readShaderEntries(bytes);
    } catch (e) {
      if (e instanceof Malformed) throw new RuntimeInputError(`malformed SPIR-V at byte ${e.byteOffset}: ${e.reason}`);
      throw e;
    }
    const names = entries.map((e) => e.name);
    const name = options.entry ?? (names.length === 1 ? names[0] : undefined);
    if (name === undefined)
      throw new RuntimeInputError(
        `the module has ${names.length} compute entry points (${names.join(', ')}): name one`,
      );
    const entry = entries.find((e) => e.name === name);
    const kernel = this.plan.kernels.find((k) => k.name === name);
    if (!entry || !kernel)
      throw new RuntimeInputError(
        `the SPIR-V module has no compute entry point '${name}' (have ${names.join(', ') || 'none'})`,
      );
    this.entry = entry;
    this.kernel = kernel;
    for (const a of kernel.args) {
      const where = a.descriptorSet === undefined ? '' : ` (set ${a.descriptorSet}, binding ${a.binding})`;
      if (Object.hasOwn(UNBOUND_KIND, a.argKind))
        throw new RuntimeInputError(
          `entry point '${name}', resource '${a.name}'${where} is ${UNBOUND_KIND[a.argKind]}: kernarg's Vulkan host ` +
            `binds storage buffers, uniform buffers and push constants only (images, samplers and texel buffers are ` +
            `not supported)`,
        );
      const n = entry.descriptorArrays.get(`${a.descriptorSet}:${a.binding}`);
      if (n !== undefined)
        throw new RuntimeInputError(
          `entry point '${name}', resource '${a.name}'${where} is an array of ${n || 'runtime-sized'} descriptors: ` +
            `kernarg's Vulkan host binds one buffer per binding`,
        );
    }
    const seen = new Set<string>();
    for (const n of [...kernel.args.map((a) => a.name), ...entry.specConstants.map((s) => s.name)]) {
      if (seen.has(n))
        throw new RuntimeInputError(
          `entry point '${name}': two arguments are named '${n}'; kernarg names arguments as the shader names them, ` +
            `so they must differ`,
        );
      seen.add(n);
    }
    this.names = kernel.args.map((a) => a.name);
    const local = entry.workGroup.map((d, i) => {
      const given = options.local?.[i];
      if (given === undefined) return d.size;
      if (!Number.isSafeInteger(given) || given < 1)
        throw new RuntimeInputError(`the work-group size takes positive integers, not ${given}`);
      if (d.specId === undefined && given !== d.size)
        throw new RuntimeInputError(
          `entry point '${name}' has a fixed work-group size of ${d.size} in dimension ${i} ` +
            `(local_size_${'xyz'[i]}); it cannot be ${given}`,
        );
      return given;
    }) as [number, number, number];
    if ((options.local?.length ?? 0) > 3) throw new RuntimeInputError('the work-group size has at most 3 dimensions');
    this.localSize = local;
    const spec: SpecEntry[] = [];
    entry.workGroup.forEach((d, i) => {
      if (d.specId !== undefined)
        spec.push({ id: d.specId, bytes: new Uint8Array(new Uint32Array([local[i]]).buffer) });
    });
    const given = options.specialization ?? {};
    for (const k of Object.keys(given)) {
      if (!entry.specConstants.some((s) => s.name === k))
        throw new PackError(
          name,
          k,
          `'${name}' has no specialization constant '${k}' (it ` +
            `has ${entry.specConstants.map((s) => s.name).join(', ') || 'none'})`,
        );
    }
    for (const s of entry.specConstants) {
      if (!Object.hasOwn(given, s.name)) continue;
      const bytes = specBytes(name, s, given[s.name]);
      // The plan's block layouts use the default length; another would move every member after the array.
      if (s.sizesArray && !bytes.every((b, i) => b === specBytes(name, s, s.defaultValue)[i])) {
        throw new PackError(
          name,
          s.name,
          `'${s.name}' is the length of an array type, and kernarg lays out blocks with its default ` +
            `(${String(s.defaultValue)}); it cannot be changed here`,
        );
      }
      spec.push({ id: s.specId, bytes });
    }
    this.k = new VulkanKernel(
      ctx,
      name,
      this.plan,
      new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
      { specialization: spec },
    );
  }

  /** Makes each block's buffer from its value, launches, reads the storage buffers back, and frees the buffers. */
  run(
    args: Readonly<Record<string, unknown>>,
    geometry: ShaderGeometry,
    maxBytes = Number.MAX_SAFE_INTEGER,
  ): ShaderRun {
    const name = this.entry.name;
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new PackError(name, '(arguments)', 'expected an object of arguments');
    const spec = this.entry.specConstants.map((s) => s.name);
    for (const k of Object.keys(args)) {
      if (!this.names.includes(k))
        throw new PackError(
          name,
          k,
          `'${name}' has no argument '${k}' (it ` +
            `takes ${this.names.join(', ') || 'none'}${spec.length ? `; specialization constants, set when the shader is made: ${spec.join(', ')}` : ''})`,
        );
    }
    const global = this.global(geometry);
    const values: Record<string, unknown> = {};
    const made: [string, VulkanBuffer, ValueLayout][] = [];
    try {
      for (const a of this.kernel.args) {
        if (!Object.hasOwn(args, a.name)) throw new PackError(name, a.name, 'missing');
        const layout = a.layout!;
        if (a.argKind === 'pod_pushconstant') {
          values[a.name] = fromJson(layout, args[a.name]);
          continue;
        }
        const { bytes, layout: sized } = blockBytes(
          name,
          a.name,
          layout,
          args[a.name],
          maxBytes,
          a.argKind === 'buffer',
        );
        const b = this.ctx.buffer(bytes);
        made.push([a.name, b, sized]);
        values[a.name] = b;
      }
      // This run's buffers are new (one may have the handle of a buffer freed after the last run):
      // the kernel keys its recordings on buffer ids, which are never reused, so it binds them anew.
      const { timeMs } = this.k.launch({ args: values, global, local: this.localSize, timed: true });
      const out: Record<string, unknown> = {};
      for (const a of this.kernel.args) out[a.name] = args[a.name];
      for (const [n, b, layout] of made) {
        if (this.kernel.args.find((a) => a.name === n)!.argKind !== 'buffer') continue;
        const bytes = b.read(new Uint8Array(b.size));
        out[n] = blockValue(layout, new DataView(bytes.buffer), 0);
      }
      return { args: out, timeMs };
    } finally {
      for (const [, b] of made) b.dispose();
    }
  }

  /** Work-items per dimension from either geometry, checked against the work-group size. */
  private global(g: ShaderGeometry): number[] {
    const name = this.entry.name;
    const list = g.global ?? g.groups;
    if (
      (g.global === undefined) === (g.groups === undefined) ||
      !Array.isArray(list) ||
      list.length < 1 ||
      list.length > 3
    )
      throw new LaunchError(name, 'give either global (work-items) or groups (work-groups), 1 to 3 dimensions');
    return [0, 1, 2].map((i) => {
      const n = list[i] ?? 1;
      if (!Number.isSafeInteger(n) || n < 1) throw new LaunchError(name, `sizes are positive integers, not ${n}`);
      if (g.groups) return n * this.localSize[i];
      if (n % this.localSize[i] !== 0)
        throw new LaunchError(
          name,
          `global size ${n} in dimension ${i} is not a multiple of the work-group size ${this.localSize[i]} (the ` +
            `shader's local_size_${'xyz'[i]}); give a multiple, or the work-groups to dispatch`,
        );
      return n;
    });
  }

  dispose(): void {
    this.k.dispose();
  }
}

/** A spec constant's specialization data: its scalar's bytes (a bool's 4, as VkBool32). */
export function specBytes(kernel: string, s: ShaderSpecConstant, v: unknown): Uint8Array {
  const bytes = new Uint8Array(s.size);
  const view = new DataView(bytes.buffer);
  try {
    if (s.scalar === 'bool') {
      if (typeof v !== 'boolean')
        throw new ValueError(
          s.name,
          `expected true or false for a bool specialization constant, ` +
            `got ${typeof v === 'object' ? JSON.stringify(v) : `${typeof v} ${String(v)}`}`,
        );
      view.setUint32(0, v ? 1 : 0, true);
      return bytes;
    }
    const layout: ValueLayout = {
      kind: 'scalar',
      scalar: s.scalar,
      encoding:
        s.scalar === 'half'
          ? 'half'
          : s.scalar === 'float' || s.scalar === 'double'
            ? 'float'
            : s.scalar.startsWith('u')
              ? 'uint'
              : 'int',
      size: s.size,
      align: s.size,
    };
    const value = fromJson(layout, v);
    if (layout.encoding === 'float' || layout.encoding === 'half')
      writeFloat(view, 0, value, s.size, layout.encoding, s.scalar, s.name);
    else writeInt(view, 0, value, s.size, layout.encoding, s.scalar, s.name);
  } catch (e) {
    if (e instanceof ValueError) throw new PackError(kernel, e.path, e.problem);
    throw e;
  }
  return bytes;
}
