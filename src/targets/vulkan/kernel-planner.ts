// The per-kernel half of clspv's mapping: one kernel's POD block, descriptor set, bindings and
// slots. A class of its own with small methods, apart from lowerVulkan's loop over the kernels: inline
// there, the engine compiled that whole function again and again (100-200 ms per lowering of a large file).
import type { SlotLiteral } from '../../abi/slot-shape.js';
import { vulkanSlot } from './slot.js';
import { alignTo } from '../../layout/align.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import type { DataLayout } from '../../layout/data-layout.js';
import { layoutOf } from '../../layout/layout.js';
import type { FunctionInfo } from '../../model/kernel-module.js';
import { kernelArgTypeName } from '../../types/print.js';
import { type Type, canonical, containsType } from '../../types/types.js';
import { type Draft, originParam, originRole, withOriginDetail } from '../../abi/origin.js';
import type { Bare } from '../../abi/plan.js';
import { valueLayout } from '../../layout/value-layout.js';
import { assertNever } from '../../assert-never.js';
import type { ArgClass } from '../../model/arg-class.js';
import { placeVulkanKernel } from './placement.js';
import { checkSmallStorage, choosePlacement, scalarsIn, smallStorageLimited, storeSize } from './pod-storage.js';
import { ARG_KIND_REFLECTION } from './reflection-names.js';
import type { ClspvModuleParts } from './module-parts.js';
import {
  DEFAULT_MAX_PUSH_CONSTANT_SIZE,
  type StorageClassName,
  type VulkanArgKind,
  type VulkanKernelPlan,
  type VulkanSlot,
  type VulkanTargetOptions,
} from './plan.js';

type Report = (span: Span | undefined, message: Message, args?: readonly (string | number)[]) => void;
type Param = FunctionInfo['params'][number];

/** The storage class a slot's data is read through, for the 8/16-bit storage features. */
function storageOf(kind: VulkanArgKind): StorageClassName | undefined {
  return kind === 'buffer' || kind === 'pod'
    ? 'ssbo'
    : kind === 'buffer_ubo' || kind === 'pod_ubo'
      ? 'ubo'
      : kind === 'pod_pushconstant'
        ? 'pushconstant'
        : undefined;
}

type Kind =
  | 'buffer'
  | 'buffer_ubo'
  | 'pod'
  | 'pointer'
  | 'ro_image'
  | 'wo_image'
  | 'storage_texel_buffer'
  | 'uniform_texel_buffer'
  | 'sampler'
  | 'local';

function kindOf(arg: ArgClass, o: VulkanTargetOptions): Kind {
  switch (arg.kind) {
    case 'local':
      return 'local';
    case 'buffer':
      // PhysicalPointerArgsPass: global and constant pointers become 64-bit PODs.
      if (o.physicalStorageBuffers) return 'pointer';
      return arg.space === 'constant' && o.constantArgsUbo ? 'buffer_ubo' : 'buffer';
    case 'image':
      // clspv's ArgKind.cpp (since #1226, 2023): image1d_buffer_t is a texel buffer, a uniform one
      // when read_only (sampled, Dim Buffer), else a storage one (write_only and read_write).
      if (arg.shape.buffer) return arg.access === 'read_only' ? 'uniform_texel_buffer' : 'storage_texel_buffer';
      return arg.access === 'read_only' ? 'ro_image' : 'wo_image';
    case 'sampler':
      return 'sampler';
    // Pipes and queues are refused above; events and other opaque values take the POD path (clspv's ArgKind: anything
    // else is a POD).
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
  buffer: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER',
  buffer_ubo: 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER',
  pod: 'VK_DESCRIPTOR_TYPE_STORAGE_BUFFER',
  pod_ubo: 'VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER',
  ro_image: 'VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE',
  wo_image: 'VK_DESCRIPTOR_TYPE_STORAGE_IMAGE',
  sampler: 'VK_DESCRIPTOR_TYPE_SAMPLER',
  uniform_texel_buffer: 'VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER',
  storage_texel_buffer: 'VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER',
};

/**
 * Where one kernel's PODs went: what its slots need to be made (each POD's offset is in the planner's `podOffsets`).
 */
interface PodBlock {
  readonly placement: VulkanKernelPlan['podPlacement'];
  readonly globalPush: boolean;
  readonly base: number;
  readonly end: number;
}

const NO_PODS: PodBlock = { placement: 'none', globalPush: false, base: 0, end: 0 };

/** What the kernels share while they are planned in order: the sets, spec ids and bindings handed out so far. */
export interface PlannerState {
  nextSet: number;
  nextSpec: number;
  readonly descriptorSets: { set: number; use: string }[];
}

/** What the slots carry, gathered as they are made, for the module's requirements. */
export interface SlotContents {
  /**
   * The scalar types of every argument, and of those each storage class carries (8/16-bit storage features):
   * scalarsIn's shared sets, each once.
   */
  readonly scalars: Record<StorageClassName | 'all', Set<ReadonlySet<string>>>;
  readonly images: Extract<ArgClass, { kind: 'image' }>[];
  /** Some slot is a storage or uniform buffer (argKind buffer, buffer_ubo). */
  buffers: boolean;
  /** Some slot is a physical pointer (argKind pointer_pushconstant, pointer_ubo). */
  pointers: boolean;
}

export class KernelPlanner {
  readonly contents: SlotContents = {
    scalars: { all: new Set(), ssbo: new Set(), ubo: new Set(), pushconstant: new Set() },
    images: [],
    buffers: false,
    pointers: false,
  };
  private readonly positionBindings = new Map<number, number>();
  private sharedSet: number | undefined;
  // Per kernel, reused from kernel to kernel (only `plan` and what it calls read them): each POD's
  // offset by parameter index, the next binding.
  private readonly podOffsets: number[] = [];
  private binding = 0;

  constructor(
    private readonly o: VulkanTargetOptions,
    private readonly dl: DataLayout,
    private readonly modulePushConstants: boolean,
    private readonly moduleParts: ClspvModuleParts,
    private readonly state: PlannerState,
    private readonly err: Report,
  ) {}

  /**
   * The plan of one kernel (`classes`: its parameters' argument classes), its slots placed (its image metadata still to
   * come).
   */
  plan(k: FunctionInfo, classes: readonly ArgClass[]): Draft<VulkanKernelPlan> {
    const o = this.o;
    const params = k.params;
    // Arrays made at their final length (one made by pushes reserves 17 elements at its first push;
    // and setting a reused one's length to 0 gives its store up, so reuse saves nothing).
    const kinds = new Array<Kind>(classes.length);
    let podCount = 0;
    for (let i = 0; i < classes.length; i++) {
      const c = classes[i];
      const kind = kindOf(c, o);
      kinds[i] = kind;
      if (c.kind === 'image') this.contents.images.push(c);
      if (kind === 'pod' || kind === 'pointer') podCount++;
    }
    const pods = new Array<Param>(podCount);
    for (let i = 0, j = 0; j < podCount; i++) if (kinds[i] === 'pod' || kinds[i] === 'pointer') pods[j++] = params[i];
    const block = this.podBlock(k, kinds, pods);
    const set = this.descriptorSet(k, kinds, podCount > 0 && block.placement !== 'pushconstant');
    // Every parameter has one slot.
    const args = new Array<Bare<VulkanSlot>>(params.length);
    let n = 0;
    this.binding = 0;
    let position = 0;
    if ((o.clusterPodKernelArgs ?? true) && podCount > 0) {
      // Non-POD arguments (locals included) in order, numbered as if the PODs did not exist; then the PODs.
      for (const p of params) {
        const kind = kinds[p.index];
        if (kind === 'pod' || kind === 'pointer') continue;
        args[n++] = this.slot(p, kind, kind === 'local' ? undefined : this.nextBinding(position++), set, block);
      }
      const podBinding =
        block.placement === 'pushconstant'
          ? o.bindingScheme === 'by-position'
            ? (this.nextBinding(position++), undefined)
            : undefined
          : this.nextBinding(position++);
      for (const p of pods)
        args[n++] = this.slot(p, kinds[p.index] === 'pointer' ? 'pointer' : 'pod', podBinding, set, block);
    } else {
      // Every argument in order; locals take no binding.
      for (const p of params) {
        const kind = kinds[p.index];
        args[n++] = this.slot(p, kind, kind === 'local' ? undefined : this.nextBinding(position++), set, block);
      }
    }
    const plan: Draft<Omit<VulkanKernelPlan, 'args'>> & { args: Bare<VulkanSlot>[] } = {
      name: k.name,
      args,
      podPlacement: block.placement,
      podSize: alignTo(block.end, 4),
    };
    if (block.globalPush) plan.podOffset = block.base;
    if (k.attributes.reqdWorkGroupSize) plan.reqdWorkGroupSize = k.attributes.reqdWorkGroupSize;
    return placeVulkanKernel(plan);
  }

  /**
   * The binding of the argument at `position` (among those that take one): per kernel in order, or clspv's per position
   * across kernels.
   */
  private nextBinding(position: number): number {
    return this.o.bindingScheme !== 'by-position' ? this.binding++ : this.positionBinding(position);
  }

  /**
   * POD block layout: the natural layout of a struct of the POD arguments in order, where the options and sizes put it.
   */
  private podBlock(k: FunctionInfo, kinds: readonly Kind[], pods: readonly Param[]): PodBlock {
    if (!pods.length) return NO_PODS;
    const { o, dl, moduleParts, err } = this;
    const offsets = this.podOffsets;
    const cluster = o.clusterPodKernelArgs ?? true;
    const maxPush = o.maxPushConstantSize ?? DEFAULT_MAX_PUSH_CONSTANT_SIZE;
    const chosen = choosePlacement(
      pods,
      o,
      cluster,
      maxPush,
      this.modulePushConstants || (moduleParts.imageMetadata.get(k.name)?.length ?? 0) > 0,
      dl,
      moduleParts.globalPodBase,
    );
    const placement = chosen === 'global-pushconstant' ? 'pushconstant' : chosen;
    // Type-mangled global push constants (today's clspv, --pod-args=auto): the PODs follow the module push constants.
    const globalPush = chosen === 'global-pushconstant';
    const base = globalPush ? moduleParts.globalPodBase : 0;
    let pointers = false;
    for (const p of pods) if (kinds[p.index] === 'pointer') pointers = true;
    if (placement === 'ssbo' && pointers) err(k.span, Messages.vkSsboPodsWithPointers);
    let end = 0;
    for (const p of pods) {
      const l = layoutOf(p.type, dl);
      let align = l.align;
      if (placement === 'ubo') {
        const c = canonical(p.type).type;
        if (c.kind === 'record' || c.kind === 'array') align = alignTo(align, 16);
      }
      const off = cluster ? alignTo(end, align) : 0;
      offsets[p.index] = base + off;
      if (cluster) end = off + l.size;
      else end = Math.max(end, l.size);
    }
    if (placement === 'pushconstant' && !globalPush) {
      if (alignTo(end, 4) > maxPush) err(k.span, Messages.vkMaxPushConstantSize);
      if (pods.some((p) => containsType(p.type, (x) => x.kind === 'array'))) err(k.span, Messages.vkPushConstantArrays);
    }
    if (!globalPush && smallStorageLimited(o))
      checkSmallStorage(pointers ? pods.filter((p) => kinds[p.index] !== 'pointer') : pods, placement, o, err);
    return { placement, globalPush, base, end };
  }

  /**
   * The descriptor set of this kernel: its own (--distinct-kernel-descriptor-sets), the shared one when it binds
   * anything, or none.
   */
  private descriptorSet(k: FunctionInfo, kinds: readonly Kind[], podsBound: boolean): number | undefined {
    const s = this.state;
    if (this.o.distinctKernelDescriptorSets) {
      const set = s.nextSet++;
      s.descriptorSets.push({ set, use: `kernel ${k.name}` });
      return set;
    }
    if (!podsBound && !kinds.some((kd) => kd !== 'local' && kd !== 'pod' && kd !== 'pointer')) return undefined;
    if (this.sharedSet === undefined) {
      this.sharedSet = s.nextSet++;
      s.descriptorSets.push({ set: this.sharedSet, use: 'kernel arguments' });
    }
    return this.sharedSet;
  }

  /** --binding-scheme=by-position: one binding per argument position across the module's kernels. */
  private positionBinding(position: number): number {
    let b = this.positionBindings.get(position);
    if (b === undefined) {
      b = this.positionBindings.size;
      this.positionBindings.set(position, b);
    }
    return b;
  }

  /**
   * One slot, as one object literal per shape (src/abi/slot-shape.ts says why); `placeVulkanKernel`
   * writes its where and fill.
   */
  private slot(
    p: Param,
    kind: Kind,
    b: number | undefined,
    set: number | undefined,
    block: PodBlock,
  ): Bare<VulkanSlot> {
    const { dl } = this;
    const placement = block.placement;
    const name = p.name;
    const param = originParam(p);
    const type = p.type;
    const typeName = kernelArgTypeName(type);
    let s: SlotLiteral<VulkanSlot>;
    switch (kind) {
      case 'local': {
        const c = canonical(type).type as Extract<Type, { kind: 'pointer' }>;
        const elem = canonical(c.pointee).type;
        const arrayElemSize = elem.kind === 'scalar' && elem.name === 'void' ? 1 : layoutOf(elem, dl).size;
        s = vulkanSlot({
          name,
          param,
          role: originRole(p, 'local'),
          typeName,
          type,
          argKind: 'local',
          specId: this.state.nextSpec++,
          arrayElemSize,
          reflection: ARG_KIND_REFLECTION.local,
        });
        break;
      }
      case 'pointer': {
        this.contents.pointers = true;
        const role = originRole(p, 'data');
        const offset = this.podOffsets[p.index];
        const argSize = storeSize(type, dl);
        s =
          placement === 'pushconstant'
            ? vulkanSlot({
                name,
                param,
                role,
                typeName,
                type,
                argKind: 'pointer_pushconstant',
                offset,
                argSize,
                reflection: ARG_KIND_REFLECTION.pointer_pushconstant,
              })
            : vulkanSlot({
                name,
                param,
                role,
                typeName,
                type,
                argKind: 'pointer_ubo',
                descriptorSet: set,
                binding: b,
                offset,
                argSize,
                vkDescriptorType: VK_DESCRIPTOR.pod_ubo,
                reflection: ARG_KIND_REFLECTION.pointer_ubo,
              });
        break;
      }
      case 'pod': {
        const role = originRole(p, 'value');
        const offset = this.podOffsets[p.index];
        const argSize = storeSize(type, dl);
        const layout = valueLayout(type, dl);
        if (placement === 'pushconstant') {
          s = vulkanSlot({
            name,
            param,
            role,
            typeName,
            type,
            argKind: 'pod_pushconstant',
            offset,
            argSize,
            layout,
            reflection: ARG_KIND_REFLECTION.pod_pushconstant,
          });
        } else {
          const argKind = placement === 'ubo' ? 'pod_ubo' : 'pod';
          s = vulkanSlot({
            name,
            param,
            role,
            typeName,
            type,
            argKind,
            descriptorSet: set,
            binding: b,
            offset,
            argSize,
            vkDescriptorType: VK_DESCRIPTOR[argKind],
            layout,
            reflection: ARG_KIND_REFLECTION[argKind],
          });
        }
        break;
      }
      case 'buffer':
      case 'buffer_ubo':
      case 'ro_image':
      case 'wo_image':
      case 'storage_texel_buffer':
      case 'uniform_texel_buffer':
      case 'sampler': {
        const buffer = kind === 'buffer' || kind === 'buffer_ubo';
        if (buffer) this.contents.buffers = true;
        const role = originRole(p, kind === 'sampler' ? 'sampler' : buffer ? 'data' : 'image');
        s = vulkanSlot({
          name,
          param,
          role,
          typeName,
          type,
          argKind: kind,
          descriptorSet: set,
          binding: b,
          offset: 0,
          vkDescriptorType: VK_DESCRIPTOR[kind],
          reflection: ARG_KIND_REFLECTION[kind],
        });
        break;
      }
      default:
        return assertNever(kind);
    }
    const where = storageOf(s.argKind);
    const scalars = scalarsIn(type);
    this.contents.scalars.all.add(scalars);
    if (where) this.contents.scalars[where].add(scalars);
    return withOriginDetail(s, p);
  }
}
