import { alignTo } from '../../layout/align.js';
import type { DiagnosticBag } from '../../diagnostics/diagnostic.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import { DATA_LAYOUTS } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import { type FunctionInfo, type KernelModule, kernelsOf } from '../../model/kernel-module.js';
import { kernelArgTypeName } from '../../types/print.js';
import { type QualType, type Type, canonical, containsType } from '../../types/types.js';
import { someKernelCalls } from '../../abi/call-graph.js';
import { addPhysicalRequirements, checkTodayOptions, placeImageMetadata, printfPlan, todayModuleParts, withPrintfFlag } from './today-plan.js';
import { ARG_KIND_REFLECTION } from './today.js';
import { type Draft, setOrigin } from '../../abi/origin.js';
import type { Bare } from '../../abi/plan.js';
import { placeVulkanKernel } from './placement.js';
import { valueLayout } from '../../layout/value-layout.js';
import { assertNever } from '../../assert-never.js';
import { type ArgClass, classifyArg } from '../../model/arg-class.js';
import { checkBufferStorage, checkSmallStorage, choosePlacement, has16, has8, scalarsIn, storeSize } from './pod-storage.js';

import type { StorageClassName, VulkanArgKind, VulkanKernelPlan, VulkanPlan, VulkanSlot, VulkanTargetOptions } from './plan.js';

export type * from './plan.js';
export { checkBufferStorage, uboProblem } from './pod-storage.js';

/** The samplerExpr text clspv prints for a mask: address, filter, normalized. */
export function samplerExpr(mask: number): string {
  const address = ({ 0: 'CLK_ADDRESS_NONE', 2: 'CLK_ADDRESS_CLAMP_TO_EDGE', 4: 'CLK_ADDRESS_CLAMP', 6: 'CLK_ADDRESS_REPEAT', 8: 'CLK_ADDRESS_MIRRORED_REPEAT' } as Record<number, string>)[mask & 0x0e] ?? 'CLK_ADDRESS_NONE';
  const filter = (mask & 0x30) === 0x20 ? 'CLK_FILTER_LINEAR' : 'CLK_FILTER_NEAREST';
  const norm = mask & 1 ? 'CLK_NORMALIZED_COORDS_TRUE' : 'CLK_NORMALIZED_COORDS_FALSE';
  return `${address}|${filter}|${norm}`;
}

/** The storage class a slot's data is read through, for the 8/16-bit storage features. */
function storageOf(kind: VulkanArgKind): StorageClassName | undefined {
  return kind === 'buffer' || kind === 'pod' ? 'ssbo' : kind === 'buffer_ubo' || kind === 'pod_ubo' ? 'ubo' : kind === 'pod_pushconstant' ? 'pushconstant' : undefined;
}

type Kind = 'buffer' | 'buffer_ubo' | 'pod' | 'pointer' | 'ro_image' | 'wo_image' | 'sampler' | 'local';

function kindOf(t: QualType, o: VulkanTargetOptions): Kind {
  const arg = classifyArg(t);
  switch (arg.kind) {
    case 'local':
      return 'local';
    case 'buffer':
      // PhysicalPointerArgsPass: global and constant pointers become 64-bit PODs.
      if (o.physicalStorageBuffers) return 'pointer';
      return arg.space === 'constant' && o.constantArgsUbo ? 'buffer_ubo' : 'buffer';
    case 'image':
      return arg.access === 'read_only' ? 'ro_image' : 'wo_image';
    case 'sampler':
      return 'sampler';
    // Pipes and queues are refused above; events and other opaque values take the POD path (clspv's ArgKind: anything else is a POD).
    case 'pod':
    case 'pipe':
    case 'queue':
    case 'event':
    case 'opaque':
      return 'pod';
    default:
      return assertNever(arg);
  }
}

const VK_DESCRIPTOR: Record<string, string> = {
  buffer: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER', buffer_ubo: 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER', pod: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER',
  pod_ubo: 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER', ro_image: 'VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE', wo_image: 'VK_DESCRIPTOR_TYPE_STORAGE_IMAGE',
  sampler: 'VK_DESCRIPTOR_TYPE_SAMPLER',
};


/**
 * clspv's mapping of OpenCL C kernels onto Vulkan: descriptor sets and bindings, POD
 * clustering, local memory as spec-constant-sized arrays, literal samplers, module constants.
 */
export function lowerVulkan(module: KernelModule, o: VulkanTargetOptions, diags: DiagnosticBag): VulkanPlan | undefined {
  const arch = o.arch ?? 'spir';
  const dl = DATA_LAYOUTS[arch];
  const cluster = o.clusterPodKernelArgs ?? true;
  const maxPush = o.maxPushConstantSize ?? 128;
  const kernels = kernelsOf(module);
  const err = (span: Span | undefined, message: Message, args: readonly (string | number)[] = []) => diags.report(message, span, args);

  // Option conflicts, with clspv's words.
  const modulePushConstantsRequested = o.globalOffsetPushConstant === true || module.clVersion >= 200;
  if (o.podUbo && o.podPushConstant) err(undefined, Messages.vkPodUboAndPush);
  if (o.podPushConstant && !cluster) err(undefined, Messages.vkPodPushUnclustered);
  if (o.podPushConstant && modulePushConstantsRequested && (o.globalOffsetPushConstant || o.globalOffset)) {
    err(undefined, Messages.vkPodPushModulePush);
  }
  checkTodayOptions(module, o, arch, err);

  // Restrictions of the seed.
  const kernelNames = new Set(kernels.map((k) => k.name));
  for (const f of module.functions) {
    for (const c of f.calls) {
      if (kernelNames.has(c.name)) err(c.span, Messages.vkKernelCallsKernel, [f.name, c.name]);
      if (c.name === 'printf' && !o.enablePrintf) err(c.span, Messages.vkPrintf);
    }
  }
  const checkParams = (k: FunctionInfo): void => {
    for (const p of k.params) {
      const arg = classifyArg(p.type);
      switch (arg.kind) {
        case 'buffer':
        case 'local': {
          const pointee = arg.pointee.type;
          if ((pointee.kind === 'scalar' && pointee.name === 'half') || (pointee.kind === 'vector' && pointee.element === 'half')) err(p.span, Messages.vkHalfPointer, [p.name]);
          break;
        }
        case 'image':
          if (arg.shape.buffer) err(p.span, Messages.vkImage1dBuffer, [p.name]);
          break;
        case 'pipe':
          err(p.span, Messages.vkPipe);
          break;
        case 'queue':
          err(p.span, Messages.vkQueue, [p.name]);
          break;
        case 'pod': {
          const t = arg.type;
          if (!o.longVector && (t.kind === 'vector' || t.kind === 'array' || t.kind === 'record') && containsType(p.type, (x) => x.kind === 'vector' && x.length > 4)) err(p.span, Messages.vkLongVector);
          if (t.kind === 'record' && containsType(p.type, (x) => x.kind === 'pointer')) err(p.span, Messages.vkStructWithPointers);
          break;
        }
        case 'sampler':
        case 'event':
        case 'opaque':
          break;
        default:
          assertNever(arg);
      }
    }
  };
  for (const k of kernels) checkParams(k);

  checkBufferStorage(module, o, diags);

  // Literal samplers: module-scope samplers some function uses, unique by value, declaration order.
  const literal: VulkanPlan['literalSamplers'][number][] = [];
  const used = new Set(module.functions.flatMap((f) => f.uses));
  const masks = [...(o.samplerMap ?? [])];
  for (const s of module.samplers) if (used.has(s.name) && !masks.includes(s.value)) masks.push(s.value);
  masks.forEach((mask, binding) => {
    const named = module.samplers.find((s) => s.value === mask && used.has(s.name));
    literal.push({ mask, expr: samplerExpr(mask), descriptorSet: 0, binding, ...(named ? { name: named.name } : {}) });
  });
  let nextSet = literal.length ? 1 : 0;
  const descriptorSets: { set: number; use: string }[] = [];
  if (literal.length) descriptorSets.push({ set: 0, use: 'literal samplers' });

  // Module push constants.
  const pushConstants: { name: string; offset: number; size: number }[] = [];
  const uses = (fn: string) => someKernelCalls(module, fn);
  const cl20 = module.clVersion >= 200;
  const globalOffsetPush = (o.globalOffsetPushConstant || (cl20 && o.globalOffset)) && (uses('get_global_id') || uses('get_global_offset'));
  const candidates: [string, boolean][] = [
    ['global_offset', Boolean(globalOffsetPush)],
    ['enqueued_local_size', uses('get_enqueued_local_size')],
    ['global_size', cl20 && uses('get_global_size')],
    ['region_offset', cl20 && Boolean(globalOffsetPush) && uses('get_global_id')],
    ['num_workgroups', cl20 && uses('get_num_groups')],
    ['region_group_offset', cl20 && uses('get_group_id')],
  ];
  let pcEnd = 0;
  for (const [name, on] of candidates) {
    if (!on) continue;
    const offset = alignTo(pcEnd, 16);
    pushConstants.push({ name, offset, size: 12 });
    pcEnd = offset + 12;
  }
  if (o.podPushConstant && pushConstants.length) err(undefined, Messages.vkPodPushModulePush);
  const today = todayModuleParts(module, kernels, o, pushConstants, err);
  pcEnd = today.pcEnd;

  // Spec constants: work-group size, then locals, then work_dim and global offsets.
  const localSize = kernels.length > 0 && kernels.every((k) => k.attributes.reqdWorkGroupSize);
  const specConstants: { name: string; specId: number }[] = [];
  if (!localSize) specConstants.push({ name: 'workgroup_size_x', specId: 0 }, { name: 'workgroup_size_y', specId: 1 }, { name: 'workgroup_size_z', specId: 2 });
  let nextSpec = 3;

  const kernelPlans: Draft<VulkanKernelPlan>[] = [];
  // The types each storage class carries (8/16-bit storage features), gathered as slots are made.
  const storageTypes: Record<StorageClassName, QualType[]> = { ssbo: [], ubo: [], pushconstant: [] };
  const clspvBindings = new Map<number, number>();
  let sharedSet: number | undefined;
  // The per-kernel steps are functions of their own, called per kernel: inline in this function, its
  // loops made V8 compile the whole of it again and again (on-stack replacement, 100-800 ms each).
  const planKernel = (k: FunctionInfo): void => {
    const kinds = k.params.map((p) => kindOf(p.type, o));
    const pods = k.params.filter((_, i) => kinds[i] === 'pod' || kinds[i] === 'pointer');
    // POD block layout: the natural layout of a struct of the POD arguments in order.
    const podOffsets = new Map<number, number>();
    let podEnd = 0;
    let placement: VulkanKernelPlan['podPlacement'] = 'none';
    // Type-mangled global push constants (today's clspv, --pod-args=auto): the PODs follow the module push constants.
    let podBase = 0;
    let globalPush = false;
    if (pods.length) {
      const chosen = choosePlacement(pods, o, cluster, maxPush, pushConstants.length > 0 || today.modulePush || (today.imageMetadata.get(k.name)?.length ?? 0) > 0, dl, today.globalPodBase);
      placement = chosen === 'global-pushconstant' ? 'pushconstant' : chosen;
      globalPush = chosen === 'global-pushconstant';
      if (globalPush) podBase = today.globalPodBase;
      if (placement === 'ssbo' && pods.some((p) => kinds[p.index] === 'pointer')) err(k.span, Messages.vkSsboPodsWithPointers);
      for (const p of pods) {
        const l = layoutOf(p.type, dl);
        let align = l.align;
        const c = canonical(p.type).type;
        if (placement === 'ubo' && (c.kind === 'record' || c.kind === 'array')) align = alignTo(align, 16);
        const off = cluster ? alignTo(podEnd, align) : 0;
        podOffsets.set(p.index, podBase + off);
        if (cluster) podEnd = off + l.size;
        else podEnd = Math.max(podEnd, l.size);
      }
      if (placement === 'pushconstant' && !globalPush) {
        const size = alignTo(podEnd, 4);
        if (size > maxPush) err(k.span, Messages.vkMaxPushConstantSize);
        if (pods.some((p) => containsType(p.type, (x) => x.kind === 'array'))) err(k.span, Messages.vkPushConstantArrays);
      }
      if (!globalPush) checkSmallStorage(pods.filter((p) => kinds[p.index] !== 'pointer'), placement, o, err);
    }
    // The descriptor set of this kernel.
    let set: number | undefined;
    const needsSet = kinds.some((kd) => kd !== 'local' && kd !== 'pod' && kd !== 'pointer') || (pods.length > 0 && placement !== 'pushconstant');
    if (o.distinctKernelDescriptorSets) {
      set = nextSet++;
      descriptorSets.push({ set, use: `kernel ${k.name}` });
    } else if (needsSet) {
      if (sharedSet === undefined) {
        sharedSet = nextSet++;
        descriptorSets.push({ set: sharedSet, use: 'kernel arguments' });
      }
      set = sharedSet;
    }
    const args: Bare<VulkanSlot>[] = [];
    let binding = 0;
    const bindingFor = (position: number): number => {
      if (o.bindingScheme !== 'clspv') return binding++;
      let b = clspvBindings.get(position);
      if (b === undefined) {
        b = clspvBindings.size;
        clspvBindings.set(position, b);
      }
      return b;
    };
    const clustered = cluster && pods.length > 0;
    const podKind: VulkanArgKind = placement === 'pushconstant' ? 'pod_pushconstant' : placement === 'ubo' ? 'pod_ubo' : 'pod';
    let position = 0;
    // Fields in the JSON's order: name, origin, typeName, type, argKind, the kind's placement, reflection.
    const slotOf = (p: FunctionInfo['params'][number], kind: Kind, b: number | undefined): Bare<VulkanSlot> => {
      const s = { name: p.name } as Draft<Bare<VulkanSlot>>;
      setOrigin(s, p, kind === 'local' ? 'local' : kind === 'pod' ? 'value' : kind === 'sampler' ? 'sampler' : kind.endsWith('image') ? 'image' : 'data');
      s.typeName = kernelArgTypeName(p.type);
      s.type = p.type;
      if (kind === 'local') {
        const c = canonical(p.type).type as Extract<Type, { kind: 'pointer' }>;
        const elem = canonical(c.pointee).type;
        s.argKind = 'local';
        s.specId = nextSpec++;
        s.arrayElemSize = elem.kind === 'scalar' && elem.name === 'void' ? 1 : layoutOf(elem, dl).size;
      } else if (kind === 'pointer') {
        s.argKind = placement === 'pushconstant' ? 'pointer_pushconstant' : 'pointer_ubo';
        if (s.argKind === 'pointer_ubo') {
          s.descriptorSet = set;
          s.binding = b;
        }
        s.offset = podOffsets.get(p.index)!;
        s.argSize = storeSize(p.type, dl);
        if (s.argKind === 'pointer_ubo') s.vkDescriptorType = VK_DESCRIPTOR.pod_ubo;
      } else if (kind === 'pod') {
        s.argKind = podKind;
        if (placement !== 'pushconstant') {
          s.descriptorSet = set;
          s.binding = b;
        }
        s.offset = podOffsets.get(p.index)!;
        s.argSize = storeSize(p.type, dl);
        if (placement !== 'pushconstant') s.vkDescriptorType = VK_DESCRIPTOR[podKind];
        s.layout = valueLayout(p.type, dl);
      } else {
        s.argKind = kind;
        s.descriptorSet = set;
        s.binding = b;
        s.offset = 0;
        s.vkDescriptorType = VK_DESCRIPTOR[kind];
      }
      s.reflection = ARG_KIND_REFLECTION[s.argKind];
      const where = storageOf(s.argKind);
      if (where) storageTypes[where].push(p.type);
      return s;
    };
    if (clustered) {
      // Non-POD arguments (locals included) in order, numbered as if the PODs did not exist; then the PODs.
      for (const p of k.params) {
        const kind = kinds[p.index];
        if (kind === 'pod' || kind === 'pointer') continue;
        args.push(slotOf(p, kind, kind === 'local' ? undefined : bindingFor(position++)));
      }
      const podBinding = placement === 'pushconstant' ? (o.bindingScheme === 'clspv' ? (bindingFor(position++), undefined) : undefined) : bindingFor(position++);
      for (const p of pods) args.push(slotOf(p, kinds[p.index] === 'pointer' ? 'pointer' : 'pod', podBinding));
    } else {
      // Every argument in order; locals take no binding.
      for (const p of k.params) {
        const kind = kinds[p.index];
        args.push(slotOf(p, kind, kind === 'local' ? undefined : bindingFor(position++)));
      }
    }
    const plan: Draft<Omit<VulkanKernelPlan, 'args'>> & { args: Bare<VulkanSlot>[] } = { name: k.name, args, podPlacement: placement, podSize: alignTo(podEnd, 4) };
    if (globalPush) plan.podOffset = podBase;
    if (k.attributes.reqdWorkGroupSize) plan.reqdWorkGroupSize = k.attributes.reqdWorkGroupSize;
    kernelPlans.push(placeVulkanKernel(plan));
  };
  for (const k of kernels) planKernel(k);
  pcEnd = placeImageMetadata(kernelPlans, today.imageMetadata, pcEnd);
  if ((o.workDim ?? true) && uses('get_work_dim')) specConstants.push({ name: 'work_dim', specId: nextSpec++ });
  if (o.globalOffset && !globalOffsetPush && (uses('get_global_id') || uses('get_global_offset'))) {
    for (const axis of ['x', 'y', 'z']) specConstants.push({ name: `global_offset_${axis}`, specId: nextSpec++ });
  }

  // Module constants in one storage buffer, in the set after the kernel-argument sets.
  let constantData: VulkanPlan['constantData'];
  if (o.moduleConstantsInStorageBuffer && module.variables.some((v) => v.space === 'constant')) {
    let end = 0;
    const vars: { name: string; offset: number; size: number; bytes: Uint8Array }[] = [];
    for (const v of module.variables) {
      if (v.space !== 'constant') continue;
      const off = alignTo(end, layoutOf(v.type, dl).align);
      vars.push({ name: v.name, offset: off, size: v.bytes.length, bytes: v.bytes });
      end = off + v.bytes.length;
    }
    const bytes = new Uint8Array(end);
    for (const v of vars) bytes.set(v.bytes, v.offset);
    const set = nextSet++;
    descriptorSets.push({ set, use: 'module constants' });
    constantData = { descriptorSet: set, binding: 0, kind: 'buffer', hexbytes: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(''), variables: vars.map(({ name, offset, size }) => ({ name, offset, size })) };
  }
  const printf = today.printf && printfPlan(today.printf, () => {
    descriptorSets.push({ set: nextSet, use: 'printf buffer' });
    return nextSet++;
  });
  if (diags.hasErrors) return undefined;

  // Capabilities, features and extensions the module needs.
  // scalarsIn answers with shared sets (one per scalar, one per record): each is added once.
  const types = new Set<string>();
  const added = new Set<ReadonlySet<string>>();
  const addScalars = (to: Set<string>, t: QualType) => {
    const s = scalarsIn(t);
    if (added.has(s)) return;
    added.add(s);
    for (const x of s) to.add(x);
  };
  for (const k of kernels) for (const p of k.params) addScalars(types, p.type);
  if (constantData) for (const v of module.variables) for (const s of scalarsIn(v.type)) types.add(s);
  const caps = ['Shader'];
  const images: Extract<ArgClass, { kind: 'image' }>[] = [];
  for (const k of kernels) {
    for (const p of k.params) {
      const arg = classifyArg(p.type);
      if (arg.kind === 'image') images.push(arg);
    }
  }
  const hasBuffers = kernelPlans.some((k) => k.args.some((a) => a.argKind === 'buffer' || a.argKind === 'buffer_ubo'));
  if (hasBuffers) caps.push('VariablePointersStorageBuffer');
  if (has8(types)) caps.push('Int8');
  if (types.has('short') || types.has('ushort')) caps.push('Int16');
  if (types.has('long') || types.has('ulong')) caps.push('Int64');
  if (types.has('half')) caps.push('Float16');
  if (types.has('double')) caps.push('Float64');
  const writes = images.filter((c) => c.access !== 'read_only');
  const reads = images.filter((c) => c.access === 'read_only');
  const is1d = (c: (typeof images)[number]) => c.shape.dims === 1;
  if (writes.length) caps.push('ImageStorageWriteWithoutFormat');
  if (['get_image_width', 'get_image_height', 'get_image_depth', 'get_image_dim', 'get_image_array_size'].some(uses)) caps.push('ImageQuery');
  if (writes.some(is1d)) caps.push('Image1D');
  if (reads.some(is1d)) caps.push('Sampled1D');
  if (['get_sub_group_size', 'get_num_sub_groups', 'get_sub_group_id', 'get_sub_group_local_id', 'sub_group_broadcast', 'sub_group_all', 'sub_group_any', 'sub_group_barrier'].some(uses)) caps.push('GroupNonUniform');
  const features: string[] = [];
  if (types.has('short') || types.has('ushort')) features.push('shaderInt16');
  if (types.has('long') || types.has('ulong')) features.push('shaderInt64');
  if (types.has('double')) features.push('shaderFloat64');
  if (images.length) features.push('shaderStorageImageReadWithoutFormat', 'shaderStorageImageWriteWithoutFormat');
  const vkExt = ['VK_KHR_storage_buffer_storage_class', 'VK_KHR_variable_pointers', 'VK_KHR_shader_non_semantic_info'];
  const storage = { ssbo: new Set<string>(), ubo: new Set<string>(), pushconstant: new Set<string>() };
  for (const where of ['ssbo', 'ubo', 'pushconstant'] as const) {
    added.clear();
    for (const t of storageTypes[where]) addScalars(storage[where], t);
  }
  if (has8(storage.ssbo)) features.push('storageBuffer8BitAccess');
  if (has8(storage.ubo)) features.push('uniformAndStorageBuffer8BitAccess');
  if (has8(storage.pushconstant)) features.push('storagePushConstant8');
  if (has16(storage.ssbo)) features.push('storageBuffer16BitAccess');
  if (has16(storage.ubo)) features.push('uniformAndStorageBuffer16BitAccess');
  if (has16(storage.pushconstant)) features.push('storagePushConstant16');
  if ([storage.ssbo, storage.ubo, storage.pushconstant].some(has8)) vkExt.push('VK_KHR_8bit_storage');
  if ([storage.ssbo, storage.ubo, storage.pushconstant].some(has16)) vkExt.push('VK_KHR_16bit_storage');
  if (types.has('half')) features.push('shaderFloat16');
  if (has8(types)) features.push('shaderInt8');
  if (types.has('half') || has8(types)) vkExt.push('VK_KHR_shader_float16_int8');
  const spirvExtensions = ['SPV_KHR_storage_buffer_storage_class', 'SPV_KHR_variable_pointers', 'SPV_KHR_non_semantic_info'];
  addPhysicalRequirements(kernelPlans, printf, { caps, features, vkExt, spirvExtensions });
  const podPush = kernelPlans.filter((k) => k.podPlacement === 'pushconstant');
  const pcSize = Math.max(pcEnd, ...podPush.map((k) => (k.podOffset ?? 0) + k.podSize), 0);
  return withPrintfFlag({
    target: 'vulkan',
    arch,
    pushConstants,
    literalSamplers: literal,
    ...(constantData ? { constantData } : {}),
    specConstants,
    localSize,
    descriptorSets,
    ...(pcSize ? { pushConstantRange: { offset: 0, size: alignTo(pcSize, 4) } } : {}),
    capabilities: caps,
    spirvExtensions,
    vulkanFeatures: features,
    vulkanExtensions: vkExt,
    kernels: kernelPlans,
    ...(printf ? { printf } : {}),
  });
}
