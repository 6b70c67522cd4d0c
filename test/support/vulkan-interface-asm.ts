// An interface-only SPIR-V module (assembly text, for spirv-as) for one kernel of a vulkan plan
// made from OpenCL C: the plan's capabilities and extensions, one variable per descriptor binding
// and push-constant block of the kind its `vkDescriptorType` names, and every reflection
// instruction the plan names with its operands. kernarg writes no SPIR-V for OpenCL C bodies;
// this lets spirv-val (which checks NonSemantic.ClspvReflection operands and versions, and the
// capabilities the types need) and spirv-cross --reflect (which classifies each descriptor) judge
// the plan's interface.
import type { VulkanKernelPlan, VulkanPlan, VulkanSlot } from '../../src/targets/vulkan/plan.js';

/** spirv-cross --reflect's list for each Vulkan descriptor type (texel buffers: their image type). */
export const CROSS_CATEGORY: Record<string, { list: string; type?: string }> = {
  VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: { list: 'ssbos' },
  VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: { list: 'ubos' },
  VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: { list: 'separate_images' },
  VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: { list: 'images' },
  VK_DESCRIPTOR_TYPE_SAMPLER: { list: 'separate_samplers' },
  VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: { list: 'separate_images', type: 'samplerBuffer' },
  VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: { list: 'images', type: 'imageBuffer' },
};

const MODULE_PUSH: Record<string, string> = {
  global_offset: 'PushConstantGlobalOffset',
  enqueued_local_size: 'PushConstantEnqueuedLocalSize',
  global_size: 'PushConstantGlobalSize',
  region_offset: 'PushConstantRegionOffset',
  num_workgroups: 'PushConstantNumWorkgroups',
  region_group_offset: 'PushConstantRegionGroupOffset',
};

const METADATA: Record<string, string> = {
  channel_order: 'ImageArgumentInfoChannelOrderPushConstant',
  channel_data_type: 'ImageArgumentInfoChannelDataTypePushConstant',
  normalized_sampler_mask: 'NormalizedSamplerMaskPushConstant',
};

/** The OpTypeImage operands after the sampled type, from the OpenCL C image type name. */
function imageShape(typeName: string, sampled: 1 | 2): string {
  const dim = typeName.startsWith('image1d_buffer')
    ? 'Buffer'
    : typeName.startsWith('image1d')
      ? '1D'
      : typeName.startsWith('image3d')
        ? '3D'
        : '2D';
  const arrayed = typeName.includes('_array') ? 1 : 0;
  return `${dim} 0 ${arrayed} 0 ${sampled} Unknown`;
}

/** What a descriptor binding holds: the variable's type key and its storage class. */
function descriptorOf(a: VulkanSlot, kernel: VulkanKernelPlan): { type: string; sc: string } {
  switch (a.vkDescriptorType) {
    case 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER':
      return { type: 'ssbo', sc: 'StorageBuffer' };
    case 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER':
      return {
        type: `ubo${Math.max(1, Math.ceil((a.argKind === 'buffer_ubo' ? 16 : kernel.podSize) / 16))}`,
        sc: 'Uniform',
      };
    case 'VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE':
    case 'VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER':
      return { type: `image ${imageShape(a.typeName, 1)}`, sc: 'UniformConstant' };
    case 'VK_DESCRIPTOR_TYPE_STORAGE_IMAGE':
    case 'VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER':
      return { type: `image ${imageShape(a.typeName, 2)}`, sc: 'UniformConstant' };
    case 'VK_DESCRIPTOR_TYPE_SAMPLER':
      return { type: 'sampler', sc: 'UniformConstant' };
    default:
      throw new Error(
        `slot ${a.name} (${a.argKind}) has no descriptor type the interface knows: ${a.vkDescriptorType}`,
      );
  }
}

/** The module for kernel `index` of `plan`, as spirv-as reads it (target environment vulkan1.2). */
export function interfaceAsm(plan: VulkanPlan, index: number): string {
  const k = plan.kernels[index];
  const head: string[] = [];
  const debug: string[] = [];
  const deco: string[] = [];
  const types = new Map<string, string>();
  const vars: string[] = [];
  const body: string[] = [];
  const refl: string[] = [];
  let n = 0;
  const fresh = (p: string) => `%${p}${n++}`;
  const consts = new Map<number, string>();
  const u = (v: number) => {
    let id = consts.get(v);
    if (!id) consts.set(v, (id = `%c${v}`));
    return id;
  };
  const str = (s: string) => {
    const id = fresh('s');
    debug.push(`${id} = OpString ${JSON.stringify(s)}`);
    return id;
  };
  const type = (key: string, def: (id: string) => string[]) => {
    let id = types.get(key);
    if (!id) {
      id = fresh('t');
      types.set(key, id);
      for (const line of def(id))
        (line.startsWith('OpDecorate') || line.startsWith('OpMemberDecorate') ? deco : vars).push(line);
    }
    return id;
  };
  const uint = () => type('uint', (id) => [`${id} = OpTypeInt 32 0`]);
  const float = () => type('float', (id) => [`${id} = OpTypeFloat 32`]);
  const blockOf = (key: string): string => {
    if (key === 'ssbo') {
      const rta = type('rta', (id) => [`${id} = OpTypeRuntimeArray ${uint()}`, `OpDecorate ${id} ArrayStride 4`]);
      return type('ssbo', (id) => [
        `${id} = OpTypeStruct ${rta}`,
        `OpDecorate ${id} Block`,
        `OpMemberDecorate ${id} 0 Offset 0`,
      ]);
    }
    const words = key.startsWith('push') ? Number(key.slice(4)) : Number(key.slice(3));
    const element = key.startsWith('push') ? uint() : type('uint4', (id) => [`${id} = OpTypeVector ${uint()} 4`]);
    const arr = type(`arr${key}`, (id) => [
      `${id} = OpTypeArray ${element} ${u(words)}`,
      `OpDecorate ${id} ArrayStride ${key.startsWith('push') ? 4 : 16}`,
    ]);
    return type(key, (id) => [
      `${id} = OpTypeStruct ${arr}`,
      `OpDecorate ${id} Block`,
      `OpMemberDecorate ${id} 0 Offset 0`,
    ]);
  };
  const interfaceIds: string[] = [];
  /** A variable the entry point uses (spirv-cross reflects only what is used). */
  const variable = (key: string, sc: string, set?: number, binding?: number) => {
    const block = key === 'ssbo' || key.startsWith('ubo') || key.startsWith('push');
    const pointee = block
      ? blockOf(key)
      : key === 'sampler'
        ? type('sampler', (id) => [`${id} = OpTypeSampler`])
        : type(key, (id) => [`${id} = OpTypeImage ${float()} ${key.slice(6)}`]);
    const ptr = type(`ptr ${sc} ${key}`, (id) => [`${id} = OpTypePointer ${sc} ${pointee}`]);
    const v = fresh('v');
    vars.push(`${v} = OpVariable ${ptr} ${sc}`);
    if (set !== undefined) deco.push(`OpDecorate ${v} DescriptorSet ${set}`, `OpDecorate ${v} Binding ${binding}`);
    interfaceIds.push(v);
    if (block) {
      const element = key.startsWith('ubo') ? type('uint4', (id) => [`${id} = OpTypeVector ${uint()} 4`]) : uint();
      const eptr = type(`ptr ${sc} elem ${key.startsWith('ubo') ? 'uint4' : 'uint'}`, (id) => [
        `${id} = OpTypePointer ${sc} ${element}`,
      ]);
      const p = fresh('p');
      body.push(`${p} = OpAccessChain ${eptr} ${v} ${u(0)} ${u(0)}`, `${fresh('x')} = OpLoad ${element} ${p}`);
    } else body.push(`${fresh('x')} = OpLoad ${pointee} ${v}`);
    return v;
  };

  const fn = fresh('f');
  // Descriptors, one variable per binding; push constants, one block for the range.
  const seen = new Set<string>();
  for (const a of k.args) {
    if (a.descriptorSet === undefined || a.binding === undefined) continue;
    const key = `${a.descriptorSet}:${a.binding}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const d = descriptorOf(a, k);
    variable(d.type, d.sc, a.descriptorSet, a.binding);
  }
  for (const s of plan.literalSamplers) variable('sampler', 'UniformConstant', s.descriptorSet, s.binding);
  const c = plan.constantData;
  if (c && !('pushConstantOffset' in c)) variable('ssbo', 'StorageBuffer', c.descriptorSet, c.binding);
  const pb = plan.printf?.buffer;
  if (pb && pb.reflection === 'PrintfBufferStorageBuffer')
    variable('ssbo', 'StorageBuffer', pb.descriptorSet, pb.binding);
  if (plan.pushConstantRange)
    variable(`push${Math.max(1, Math.ceil(plan.pushConstantRange.size / 4))}`, 'PushConstant');

  // Reflection: module push constants, literal samplers, constant data, printf buffer, the kernel, spec constants.
  for (const p of plan.pushConstants)
    refl.push(`%_ = OpExtInst %void %refl ${MODULE_PUSH[p.name]} ${u(p.offset)} ${u(p.size)}`);
  for (const s of plan.literalSamplers)
    refl.push(`%_ = OpExtInst %void %refl LiteralSampler ${u(s.descriptorSet)} ${u(s.binding)} ${u(s.mask)}`);
  if (c) {
    const data = str(c.hexbytes);
    refl.push(
      'pushConstantOffset' in c
        ? `%_ = OpExtInst %void %refl ConstantDataPointerPushConstant ${u(c.pushConstantOffset)} ${u(c.size)} ${data}`
        : `%_ = OpExtInst %void %refl ConstantDataStorageBuffer ${u(c.descriptorSet)} ${u(c.binding)} ${data}`,
    );
  }
  if (pb) {
    refl.push(
      pb.reflection === 'PrintfBufferStorageBuffer'
        ? `%_ = OpExtInst %void %refl PrintfBufferStorageBuffer ${u(pb.descriptorSet)} ${u(pb.binding)} ${u(pb.bufferSize)}`
        : `%_ = OpExtInst %void %refl PrintfBufferPointerPushConstant ${u(pb.pushConstantOffset)} ${u(pb.size)} ${u(pb.bufferSize)}`,
    );
  }
  const kernel = fresh('k');
  const kname = str(k.name);
  refl.push(
    `${kernel} = OpExtInst %void %refl Kernel ${fn} ${kname} ${u(k.args.length)} ${u(k.mayUsePrintf ? 1 : 0)} ${str('')}`,
  );
  if (k.reqdWorkGroupSize)
    refl.push(
      `%_ = OpExtInst %void %refl PropertyRequiredWorkgroupSize ${kernel} ${k.reqdWorkGroupSize.map(u).join(' ')}`,
    );
  for (const a of k.args) {
    const info = fresh('i');
    refl.push(`${info} = OpExtInst %void %refl ArgumentInfo ${str(a.name)}`);
    const ord = u(a.param as number);
    const at = `${kernel} ${ord}`;
    switch (a.reflection) {
      case 'ArgumentWorkgroup':
        refl.push(`%_ = OpExtInst %void %refl ArgumentWorkgroup ${at} ${u(a.specId!)} ${u(a.arrayElemSize!)} ${info}`);
        break;
      case 'ArgumentPodPushConstant':
      case 'ArgumentPointerPushConstant':
        refl.push(`%_ = OpExtInst %void %refl ${a.reflection} ${at} ${u(a.offset!)} ${u(a.argSize!)} ${info}`);
        break;
      case 'ArgumentPodStorageBuffer':
      case 'ArgumentPodUniform':
      case 'ArgumentPointerUniform':
        refl.push(
          `%_ = OpExtInst %void %refl ${a.reflection} ${at} ${u(a.descriptorSet!)} ${u(a.binding!)} ${u(a.offset!)} ${u(a.argSize!)} ${info}`,
        );
        break;
      case undefined:
        throw new Error(`slot ${a.name} of ${k.name} names no reflection instruction`);
      default:
        refl.push(`%_ = OpExtInst %void %refl ${a.reflection} ${at} ${u(a.descriptorSet!)} ${u(a.binding!)} ${info}`);
    }
  }
  // NormalizedSamplerMaskPushConstant is version 6 of the set (2023-10), newer than Debian's SPIRV-Tools 2023.1: left
  // out.
  for (const m of (k.imageMetadata ?? []).filter((x) => x.kind !== 'normalized_sampler_mask'))
    refl.push(
      `%_ = OpExtInst %void %refl ${METADATA[m.kind]} ${kernel} ${u(m.param)} ${u(m.pushConstantOffset)} ${u(m.size)}`,
    );
  for (const p of plan.printf?.infos ?? [])
    refl.push(
      `%_ = OpExtInst %void %refl PrintfInfo ${u(p.id)} ${str(p.format)}${p.argSizes.map((s) => ` ${u(s)}`).join('')}`,
    );
  const spec = new Map(plan.specConstants.map((s) => [s.name, s.specId]));
  if (spec.has('workgroup_size_x'))
    refl.push(
      `%_ = OpExtInst %void %refl SpecConstantWorkgroupSize ${['x', 'y', 'z'].map((a) => u(spec.get(`workgroup_size_${a}`)!)).join(' ')}`,
    );
  if (spec.has('global_offset_x'))
    refl.push(
      `%_ = OpExtInst %void %refl SpecConstantGlobalOffset ${['x', 'y', 'z'].map((a) => u(spec.get(`global_offset_${a}`)!)).join(' ')}`,
    );
  if (spec.has('work_dim')) refl.push(`%_ = OpExtInst %void %refl SpecConstantWorkDim ${u(spec.get('work_dim')!)}`);
  if (spec.has('subgroup_max_size'))
    refl.push(`%_ = OpExtInst %void %refl SpecConstantSubgroupMaxSize ${u(spec.get('subgroup_max_size')!)}`);

  // Each `%_` result gets its own id; constants go before the variables that size arrays with them.
  let r = 0;
  const reflection = refl.map((l) => l.replace(/^%_ =/, () => `%r${r++} =`));
  const physical = plan.capabilities.includes('PhysicalStorageBufferAddresses');
  for (const cap of plan.capabilities) head.push(`OpCapability ${cap}`);
  for (const ext of new Set([...plan.spirvExtensions, 'SPV_KHR_non_semantic_info'])) head.push(`OpExtension "${ext}"`);
  head.push(
    '%refl = OpExtInstImport "NonSemantic.ClspvReflection.5"',
    `OpMemoryModel ${physical ? 'PhysicalStorageBuffer64' : 'Logical'} GLSL450`,
  );
  head.push(`OpEntryPoint GLCompute ${fn} ${JSON.stringify(k.name)} ${interfaceIds.join(' ')}`.trimEnd());
  const local = plan.localSize && k.reqdWorkGroupSize ? k.reqdWorkGroupSize : [1, 1, 1];
  head.push(`OpExecutionMode ${fn} LocalSize ${local.join(' ')}`);
  const uintId = uint();
  const constants = [...consts].map(([v, id]) => `${id} = OpConstant ${uintId} ${v}`);
  const typeLines = vars.filter((l) => /= OpType/.test(l));
  const varLines = vars.filter((l) => !/= OpType/.test(l));
  // Array types need their length constants first: scalar types, constants, then the rest.
  const scalarTypes = typeLines.filter((l) => /OpType(Int|Float|Vector|Sampler|Image)\b/.test(l));
  const otherTypes = typeLines.filter((l) => !scalarTypes.includes(l));
  return (
    [
      ...head,
      ...debug,
      ...deco,
      '%void = OpTypeVoid',
      '%fnty = OpTypeFunction %void',
      ...scalarTypes,
      ...constants,
      ...otherTypes,
      ...varLines,
      `${fn} = OpFunction %void None %fnty`,
      `${fresh('l')} = OpLabel`,
      ...body,
      'OpReturn',
      'OpFunctionEnd',
      ...reflection,
    ].join('\n') + '\n'
  );
}
