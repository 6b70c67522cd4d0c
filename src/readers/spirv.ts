// SPIR-V binary → a plan. `OpEntryPoint GLCompute` (Vulkan compute shaders from any compiler):
// a vulkan plan of the shader's descriptors (storage and uniform buffers with their member
// layouts read from Offset/ArrayStride/MatrixStride, images, samplers, texel buffers), its
// push-constant block, its specialization constants and its work-group size. `OpEntryPoint
// Kernel` (OpenCL SPIR-V): an opencl plan of the kernel function's parameters. Resources are
// named as the shader names them: the variable's OpName, else its block type's (README).
import { Messages } from '../diagnostics/messages.js';
import { type Diagnostic, DiagnosticBag } from '../diagnostics/diagnostic.js';
import { SourceFile, span } from '../diagnostics/source.js';
import type { Bare, OpenCLPlan } from '../abi/plan.js';
import { SPIR } from '../layout/data-layout.js';
import { placeVulkanKernel } from '../targets/vulkan/placement.js';
import type { VulkanArgKind, VulkanKernelPlan, VulkanPlan, VulkanSlot } from '../targets/vulkan/plan.js';
import { BuiltIn, Capability, ExecutionModel, invert } from '../emit/spirv/spec.js';
import {
  Decoration,
  ExecutionMode,
  Malformed,
  MoreDecoration,
  MoreExecutionModel,
  type SpvModule,
  StorageClass,
  decoration,
  hasDecoration,
  parseSpirv,
  variablesUsedBy,
} from './spirv-module.js';
import { unnamedSpecConstant } from './spirv-shader.js';
import { MAX_DEPTH, Reader, Unsupported } from './spirv-type-reader.js';
import { openclPlan } from './spirv-opencl-plan.js';

/** The Vulkan descriptor type and clspv-vocabulary argument kind of a resource variable. */
function resourceKind(
  r: Reader,
  varId: number,
  storageClass: number,
  pointee: number,
): { argKind: VulkanArgKind; vk: string } | undefined {
  let t = r.type(pointee, `variable %${varId}`, r.off(varId));
  // Arrays of descriptors: one binding, several descriptors of the element's kind.
  for (
    let d = 0;
    (t.kind === 'array' || t.kind === 'runtime-array') &&
    storageClass === StorageClass.UniformConstant &&
    d < MAX_DEPTH;
    d++
  )
    t = r.type(t.element, `variable %${varId}`, r.off(varId));
  const block = hasDecoration(r.m, pointee, Decoration.Block);
  const bufferBlock = hasDecoration(r.m, pointee, MoreDecoration.BufferBlock);
  if (storageClass === StorageClass.StorageBuffer || (storageClass === StorageClass.Uniform && bufferBlock))
    return { argKind: 'buffer', vk: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER' };
  if (storageClass === StorageClass.Uniform && block)
    return { argKind: 'buffer_ubo', vk: 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER' };
  if (storageClass !== StorageClass.UniformConstant) return undefined;
  const DIM_BUFFER = 5;
  switch (t.kind) {
    case 'sampler':
      return { argKind: 'sampler', vk: 'VK_DESCRIPTOR_TYPE_SAMPLER' };
    case 'sampled-image':
      return { argKind: 'ro_image', vk: 'VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER' };
    case 'image':
      if (t.dim === DIM_BUFFER)
        return t.sampled === 2
          ? { argKind: 'storage_texel_buffer', vk: 'VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER' }
          : { argKind: 'uniform_texel_buffer', vk: 'VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER' };
      return t.sampled === 2
        ? { argKind: 'wo_image', vk: 'VK_DESCRIPTOR_TYPE_STORAGE_IMAGE' }
        : { argKind: 'ro_image', vk: 'VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE' };
    default:
      return undefined;
  }
}

const CAPABILITY_NAME = invert(Capability);

/** The vulkan plan of a module's GLCompute entry points. */
function vulkanPlan(r: Reader, entries: SpvModule['entryPoints']): VulkanPlan {
  const m = r.m;
  const kernels: VulkanKernelPlan[] = [];
  const sets = new Set<number>();
  let pushSize = 0;
  const specSized = [...m.decorations].some(
    ([id, d]) => d.get(Decoration.BuiltIn)?.[0] === BuiltIn.WorkgroupSize && m.specComposites.has(id),
  );
  for (const e of entries) {
    // SPIR-V 1.4 and later list every global the entry point uses; earlier, only its inputs and
    // outputs: then the variables its function (and what it calls) names, in declaration order.
    const used = variablesUsedBy(m, e.fn);
    // clspv's reflection, where present, binds every argument, used or not.
    const reflected = (id: number) =>
      m.clspvBindings.has(
        `${e.name}/${decoration(m, id, Decoration.DescriptorSet) ?? 0}/${decoration(m, id, Decoration.Binding) ?? 0}`,
      );
    const vars =
      m.version >= 0x10400
        ? e.interface.filter((id) => m.variables.has(id))
        : [...m.variables.keys()].filter((id) => used.has(id) || reflected(id));
    const args: Bare<VulkanSlot>[] = [];
    let podSize = 0;
    let podPlacement: VulkanKernelPlan['podPlacement'] = 'none';
    for (const id of vars) {
      const v = m.variables.get(id)!;
      const ptr = r.type(v.type, `variable %${id}`, r.off(id));
      if (ptr.kind !== 'pointer') throw new Malformed(r.off(id), `variable %${id} does not have a pointer type`);
      const blockName = m.names.get(ptr.pointee) ?? '';
      // The instance name, else the block's type name, else (a stripped module) where it is bound.
      const given = m.names.get(id) || blockName;
      if (v.storageClass === StorageClass.PushConstant) {
        const name = given || 'push_constants';
        const layout = r.explicitLayout(ptr.pointee, 0, r.off(id));
        podSize = Math.max(podSize, layout.size);
        podPlacement = 'pushconstant';
        args.push({
          name,
          param: args.length,
          role: 'value',
          argKind: 'pod_pushconstant',
          offset: 0,
          argSize: layout.size,
          typeName: blockName,
          layout,
        });
        continue;
      }
      const kind = resourceKind(r, id, v.storageClass, ptr.pointee);
      if (!kind) continue;
      const set = decoration(m, id, Decoration.DescriptorSet) ?? 0;
      const binding = decoration(m, id, Decoration.Binding) ?? 0;
      const name = given || `set${set}_binding${binding}`;
      sets.add(set);
      const buffer = kind.argKind === 'buffer' || kind.argKind === 'buffer_ubo';
      const pod = buffer ? m.clspvPods.get(`${e.name}/${set}/${binding}`) : undefined;
      const role = pod ? 'value' : buffer ? 'data' : kind.argKind === 'sampler' ? 'sampler' : 'image';
      const layout = buffer ? r.explicitLayout(ptr.pointee, 0, r.off(id)) : undefined;
      if (pod && layout) {
        podSize = Math.max(podSize, layout.size);
        podPlacement = pod === 'pod' ? 'ssbo' : 'ubo';
      }
      args.push({
        name,
        param: args.length,
        role,
        argKind: pod ?? kind.argKind,
        descriptorSet: set,
        binding,
        typeName: blockName,
        vkDescriptorType: kind.vk,
        ...(layout ? { layout } : {}),
        ...(pod && layout ? { offset: 0, argSize: layout.size } : {}),
      });
    }
    // A constant decorated BuiltIn WorkgroupSize (spec constants: local_size_x_id) overrides LocalSize.
    const localSize = specSized ? m.clspvReqd.get(e.name) : m.executionModes.get(e.fn)?.get(ExecutionMode.LocalSize);
    if (podPlacement === 'pushconstant') pushSize = Math.max(pushSize, podSize);
    kernels.push(
      placeVulkanKernel({
        name: e.name,
        args,
        podPlacement,
        podSize: Math.ceil(podSize / 4) * 4,
        ...(localSize && localSize.length >= 3
          ? { reqdWorkGroupSize: [localSize[0], localSize[1], localSize[2]] as const }
          : {}),
      }),
    );
  }
  const specConstants = m.specConstants.flatMap((s) => {
    const specId = decoration(m, s.id, Decoration.SpecId);
    return specId === undefined ? [] : [{ name: m.names.get(s.id) || unnamedSpecConstant(specId), specId }];
  });
  return {
    target: 'vulkan',
    arch: 'spir',
    pushConstants: [],
    literalSamplers: [],
    specConstants,
    // LocalSize execution modes (not spec constants) size every kernel's work group.
    localSize: !specSized,
    descriptorSets: [...sets].sort((a, b) => a - b).map((set) => ({ set, use: 'kernel' })),
    ...(pushSize > 0 ? { pushConstantRange: { offset: 0, size: Math.ceil(pushSize / 4) * 4 } } : {}),
    capabilities: m.capabilities.map((c) => CAPABILITY_NAME.get(c) ?? String(c)),
    spirvExtensions: [...m.extensions],
    vulkanFeatures: [],
    vulkanExtensions: [],
    kernels,
  };
}

/**
 * The plan of a SPIR-V binary: vulkan for GLCompute entry points, opencl for Kernel ones (a
 * module with both is read as its GLCompute part, with a note). A malformed module gets KA7120
 * with the byte offset where reading stopped; diagnostics carry no span (a binary has no lines).
 */
export function readSpirv(
  bytes: Uint8Array,
  path: string,
): { plan?: VulkanPlan | OpenCLPlan; diagnostics: Diagnostic[] } {
  const diags = new DiagnosticBag();
  const where = span(new SourceFile(path, ''), 0);
  try {
    const m = parseSpirv(bytes);
    const r = new Reader(m);
    const compute = m.entryPoints.filter((e) => e.model === ExecutionModel.GLCompute);
    const kernels = m.entryPoints.filter((e) => e.model === MoreExecutionModel.Kernel);
    if (compute.length > 0) return { plan: vulkanPlan(r, compute), diagnostics: diags.items };
    if (kernels.length > 0) {
      // Physical64 addressing (2) is spir64; Physical32 (1) spir.
      return { plan: openclPlan(r, kernels, m.addressing === 1 ? 'spir' : 'spir64'), diagnostics: diags.items };
    }
    diags.report(Messages.spirvNoEntryPoint, where);
  } catch (e) {
    if (e instanceof Unsupported) diags.report(Messages.spirvUnsupported, where, [e.entry, e.reason]);
    else if (e instanceof Malformed) diags.report(Messages.spirvMalformed, where, [e.byteOffset, e.reason]);
    else throw e;
  }
  return { diagnostics: diags.items };
}
