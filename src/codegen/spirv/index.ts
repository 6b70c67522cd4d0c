import type { HostRule } from '../../abi/origin.js';
import type { VulkanPlan, VulkanSlot } from '../../targets/vulkan/lower.js';
import type { ScalarTypeName } from '../../frontend/tinytc/ast.js';
import type { CompiledTinytc } from '../compile-tinytc.js';
import type { BlasPolicy } from '../blas-policy.js';
import { perGemmPolicy } from '../gemm-local-budget.js';
import { kernelsOf } from '../../model/kernel-module.js';
import type { SpirvBuilder } from '../../emit/spirv/builder.js';
import { CLSPV_REFLECTION_IMPORT, Reflection } from '../../emit/spirv/clspv-reflection.js';
import { FunctionBuilder } from '../../emit/spirv/function.js';
import { type SpirvRequirements, requirementsOf } from '../../emit/spirv/requirements.js';
import { BuiltIn, Op } from '../../emit/spirv/spec.js';
import { Builtins } from './builtins.js';
import { SPIRV_FLAVOURS, flavourModule } from './flavour.js';
import { Gen } from './gen.js';
import { declareResources } from './interface.js';
import type { BodyEnv } from './body-scope.js';
import { emitKernelBody } from './kernel.js';
import { bitsRoots } from './roots.js';

export interface TinytcSpirvOptions {
  /** Use OpAtomicFAddEXT for floating atomic adds (the device has shaderBufferFloat32/64AtomicAdd); else compare-and-swap loops. */
  readonly floatAtomicAdd?: boolean;
  /** GEMM variants (and the work-group memory a staged one may take) where they differ from the compiled unit's Vulkan policy (a gemm rule here wins). */
  readonly blas?: Partial<BlasPolicy>;
}

/** The host rule of a tinytc-derived slot (originFields puts it there). */
const hostOf = (s: VulkanSlot) => (s as VulkanSlot & { host?: HostRule }).host;

/** A module and what a device needs to run it. */
export interface TinytcSpirvModule {
  readonly words: Uint32Array;
  readonly requirements: SpirvRequirements;
}

/**
 * tinytc IR as one Vulkan compute module: every function an entry point (GLCompute, Shader
 * capability) with its resources exactly where the vulkan plan puts them, its work-group size as
 * LocalSize (when the plan says every function fixes it) or spec constants 0–2, group tables
 * read as buffer device addresses, and clspv's reflection instructions describing it all.
 */
export function emitTinytcSpirv(
  compiled: CompiledTinytc,
  plan: VulkanPlan,
  options: TinytcSpirvOptions = {},
): Uint32Array {
  return emitTinytcSpirvModule(compiled, plan, options).words;
}

/** emitTinytcSpirv, with what a device needs to run the module. */
export function emitTinytcSpirvModule(
  compiled: CompiledTinytc,
  plan: VulkanPlan,
  options: TinytcSpirvOptions = {},
): TinytcSpirvModule {
  const flavour = SPIRV_FLAVOURS.vulkan;
  const b = flavourModule(flavour);
  const floatAtomicAdd = options.floatAtomicAdd ?? false;
  // The policy's Vulkan entry (api-policies.ts), under what the caller names.
  const blas: BlasPolicy = { ...compiled.policy.blas.vulkan, ...options.blas };
  const voidT = b.typeVoid();
  const fnT = b.typeFunction(voidT);
  const uvec3 = b.typeVector(b.typeInt(32), 3);
  const builtins = new Builtins(b, flavour);
  const addresses = (a: VulkanSlot) =>
    (hostOf(a)?.perMember && hostOf(a)!.take === 'data') ||
    a.argKind === 'pointer_pushconstant' ||
    a.argKind === 'pointer_ubo';
  if (plan.kernels.some((k) => k.args.some(addresses))) {
    b.extension('SPV_KHR_physical_storage_buffer');
    b.capability('PhysicalStorageBufferAddresses');
    b.physicalAddressing();
  }
  let workgroupSize: number | undefined;
  if (!plan.localSize) {
    const u32 = b.typeInt(32);
    const parts = [0, 1, 2].map((specId) => {
      const c = b.specConstant(u32, 1);
      b.decorate(c, 'SpecId', specId);
      return c;
    });
    workgroupSize = b.specConstantComposite(uvec3, parts);
    b.decorate(workgroupSize, 'BuiltIn', BuiltIn.WorkgroupSize);
  }

  const entries: { fn: number; kernel: (typeof plan.kernels)[number] }[] = [];
  for (const info of kernelsOf(compiled.module)) {
    const kp = plan.kernels.find((k) => k.name === info.name)!;
    const lowered = compiled.kernel(info.name);
    const f = lowered.func;
    const fb = new FunctionBuilder(b, voidT, fnT);
    const g = new Gen(b, fb, flavour);
    const roots = bitsRoots(lowered, floatAtomicAdd, true);
    const element = (s: VulkanSlot): { type: ScalarTypeName; bits: boolean } => {
      const h = hostOf(s)!;
      if (h.perMember) return { type: 'i64', bits: false };
      const p = f.params[s.param!];
      return { type: p.type.kind === 'memref' ? p.type.element : 'i64', bits: roots.has(p.name) };
    };
    const res = declareResources(g, kp, element);
    const reader = builtins.reader(g, fb);
    const podValues = new Map<string, number>();
    const env: BodyEnv = {
      buffer: (slot) => res.buffers.get(slot),
      vectorBuffer: res.vectorBuffer,
      pod: (slot) => {
        let v = podValues.get(slot);
        if (v === undefined) {
          const m = res.pods.get(slot)!;
          const t = g.type(m.type);
          v = fb.load(t, fb.op(Op.AccessChain, b.typePointer(m.sc, t), m.variable, g.u32(m.index)));
          podValues.set(slot, v);
        }
        return v;
      },
      builtin: reader.read,
      scalarBuiltin: reader.readScalar,
      workgroupArray: (t, n, bits, lanes) => g.workgroupArray(t, n, bits, lanes),
      bits: (root) => roots.has(root),
      floatAtomicAdd,
      blas: perGemmPolicy(blas, f),
      flavour,
    };
    emitKernelBody(g, lowered, env);
    b.addFunction(fb.finish());
    b.entryPoint(fb.id, info.name, [...reader.used]);
    if (plan.localSize) {
      const [x, y, z] = kp.reqdWorkGroupSize!;
      b.localSize(fb.id, x, y, z);
    }
    b.name(fb.id, info.name);
    entries.push({ fn: fb.id, kernel: kp });
  }
  reflect(b, plan, entries, workgroupSize !== undefined);
  return { words: b.build(), requirements: requirementsOf(b) };
}

/**
 * The clspv reflection instruction of each argument kind a tinytc kernel has, and what it states beside the kernel
 * and the ordinal: the descriptor set and binding (`binding`), then the offset and size (`range`).
 */
const ARG_REFLECTION: Partial<Record<VulkanSlot['argKind'], { op: number; binding: boolean; range: boolean }>> = {
  buffer: { op: Reflection.ArgumentStorageBuffer, binding: true, range: false },
  pod: { op: Reflection.ArgumentPodStorageBuffer, binding: true, range: true },
  pod_ubo: { op: Reflection.ArgumentPodUniform, binding: true, range: true },
  pod_pushconstant: { op: Reflection.ArgumentPodPushConstant, binding: false, range: true },
  pointer_pushconstant: { op: Reflection.ArgumentPointerPushConstant, binding: false, range: true },
  pointer_ubo: { op: Reflection.ArgumentPointerUniform, binding: true, range: true },
};

/** clspv's reflection: per kernel Kernel, PropertyRequiredWorkgroupSize, then ArgumentInfo and Argument* per slot; then the spec constants. */
function reflect(
  b: SpirvBuilder,
  plan: VulkanPlan,
  entries: readonly { fn: number; kernel: VulkanPlan['kernels'][number] }[],
  specWorkgroupSize: boolean,
): void {
  b.extension('SPV_KHR_non_semantic_info');
  const set = b.extInstImport(CLSPV_REFLECTION_IMPORT);
  const u32 = b.typeInt(32);
  const c = (n: number) => b.constant(u32, BigInt(n), 32);
  for (const p of plan.pushConstants) {
    const op = (
      {
        global_offset: Reflection.PushConstantGlobalOffset,
        enqueued_local_size: Reflection.PushConstantEnqueuedLocalSize,
        global_size: Reflection.PushConstantGlobalSize,
        region_offset: Reflection.PushConstantRegionOffset,
        num_workgroups: Reflection.PushConstantNumWorkgroups,
        region_group_offset: Reflection.PushConstantRegionGroupOffset,
      } as Record<string, number>
    )[p.name];
    if (op !== undefined) b.nonSemantic(set, op, [c(p.offset), c(p.size)]);
  }
  for (const { fn, kernel } of entries) {
    const params = new Set(kernel.args.map((a) => a.param));
    const wg = kernel.reqdWorkGroupSize;
    const attributes = wg ? `reqd_work_group_size(${wg.join(',')})` : '';
    const k = b.nonSemantic(set, Reflection.Kernel, [
      fn,
      b.string(kernel.name),
      c(params.size),
      c(0),
      b.string(attributes),
    ]);
    if (wg) b.nonSemantic(set, Reflection.PropertyRequiredWorkgroupSize, [k, c(wg[0]), c(wg[1]), c(wg[2])]);
    for (const a of kernel.args) {
      const info = b.nonSemantic(set, Reflection.ArgumentInfo, [b.string(a.name)]);
      const ordinal = c(a.param ?? 0);
      const r = ARG_REFLECTION[a.argKind];
      if (!r) throw new Error(`tinytc SPIR-V: no reflection for argument kind ${a.argKind}`);
      const binding = r.binding ? [c(a.descriptorSet!), c(a.binding!)] : [];
      const range = r.range ? [c(a.offset!), c(a.argSize!)] : [];
      b.nonSemantic(set, r.op, [k, ordinal, ...binding, ...range, info]);
    }
  }
  if (specWorkgroupSize) b.nonSemantic(set, Reflection.SpecConstantWorkgroupSize, [c(0), c(1), c(2)]);
}
