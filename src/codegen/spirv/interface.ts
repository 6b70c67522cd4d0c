import { SCALAR_BYTES, type ScalarTypeName } from '../../frontend/tinytc/ast.js';
import type { VulkanKernelPlan, VulkanSlot } from '../../targets/vulkan/lower.js';
import type { SpirvBuilder } from '../../emit/spirv/builder.js';
import type { StorageClassName } from '../../emit/spirv/spec.js';
import type { Gen } from './gen.js';

/** The storage class of each POD placement. */
const POD_CLASS: Record<string, StorageClassName | undefined> = {
  pod: 'StorageBuffer',
  pod_ubo: 'Uniform',
  pod_pushconstant: 'PushConstant',
  pointer_ubo: 'Uniform',
  pointer_pushconstant: 'PushConstant',
};

/** Whether a slot lives in a POD block: a value, or (`--physical-storage-buffers`) a buffer's 8-byte address. */
export const inPodBlock = (s: VulkanSlot) => POD_CLASS[s.argKind] !== undefined;

/** The 8- or 16-bit storage capability (and extension) a narrow type needs in a storage class. */
export function narrowStorage(b: SpirvBuilder, sc: StorageClassName, bytes: number): void {
  if (bytes > 2) return;
  const eight = bytes === 1;
  b.extension(eight ? 'SPV_KHR_8bit_storage' : 'SPV_KHR_16bit_storage');
  if (sc === 'StorageBuffer' || sc === 'PhysicalStorageBuffer')
    b.capability(eight ? 'StorageBuffer8BitAccess' : 'StorageBuffer16BitAccess');
  else if (sc === 'Uniform')
    b.capability(eight ? 'UniformAndStorageBuffer8BitAccess' : 'UniformAndStorageBuffer16BitAccess');
  else if (sc === 'PushConstant') b.capability(eight ? 'StoragePushConstant8' : 'StoragePushConstant16');
}

/** The tinytc scalar type a POD slot holds, from its layout (OpenCL C spelling) and size. */
function podScalar(slot: VulkanSlot): ScalarTypeName {
  const l = slot.layout;
  const name = l && l.kind === 'scalar' ? l.scalar : '';
  if (name === 'float') return 'f32';
  if (name === 'double') return 'f64';
  // tinytc v0.4: half, and complex numbers as 2-vectors of their component.
  if (name === 'half') return 'f16';
  if (l && l.kind === 'vector' && l.length === 2 && (l.element === 'float' || l.element === 'double'))
    return l.element === 'float' ? 'c32' : 'c64';
  return ({ 1: 'i8', 2: 'i16', 4: 'i32', 8: 'i64' } as Record<number, ScalarTypeName>)[slot.argSize!];
}

export interface PodMember {
  /** The block variable, its storage class, the member index and the value's type. */
  readonly variable: number;
  readonly sc: StorageClassName;
  readonly index: number;
  readonly type: ScalarTypeName;
}

export interface KernelResources {
  /** Storage-buffer variables by slot name. */
  readonly buffers: ReadonlyMap<string, number>;
  /** Where each POD slot is read from. */
  readonly pods: ReadonlyMap<string, PodMember>;
  /**
   * The same storage buffer as a runtime array of `count`-component vectors of `type` (declared on
   * first use): a second variable at the buffer variable's set and binding (descriptor aliasing, as
   * clspv declares a buffer read as two types). Both variables are decorated Aliased, as SPIR-V asks
   * of two memory object declarations that reach the same locations with a write among the accesses.
   */
  vectorBuffer(variable: number, type: ScalarTypeName, count: number): number;
}

/** The name of a POD block: `<kernel>.pod_args`, or with its binding when PODs are not clustered (one block each). */
export const podBlockName = (kernel: string, binding: number | undefined, clustered: boolean) =>
  clustered ? `${kernel}.pod_args` : `${kernel}.pod_args.${binding}`;

/**
 * The resources of one kernel exactly as its vulkan plan places them: each buffer slot a
 * `{ T data[]; }` storage block at its set and binding (and, for vector access, a `{ vecN<T> data[]; }`
 * one at the same set and binding, see vectorBuffer); the POD slots blocks (storage buffer,
 * uniform buffer or push constants), one per binding, with members at the plan's offsets —
 * buffer addresses among them under `--physical-storage-buffers`.
 * `element` says what a buffer slot holds: the memref's element type, or 64-bit entries for
 * group tables.
 */
export function declareResources(
  g: Gen,
  plan: VulkanKernelPlan,
  element: (slot: VulkanSlot) => { type: ScalarTypeName; bits: boolean },
): KernelResources {
  const b = g.b;
  const buffers = new Map<string, number>();
  const slots = new Map<number, VulkanSlot>();
  const storageBlock = (s: VulkanSlot, element: number, stride: number) => {
    const block = b.typeStruct([b.typeRuntimeArray(element, stride)]);
    b.decorate(block, 'Block');
    b.memberDecorate(block, 0, 'Offset', 0);
    const v = b.variable(b.typePointer('StorageBuffer', block), 'StorageBuffer');
    b.decorate(v, 'DescriptorSet', s.descriptorSet!);
    b.decorate(v, 'Binding', s.binding!);
    b.name(v, `${plan.name}.${s.name}`);
    return v;
  };
  for (const s of plan.args) {
    if (s.argKind !== 'buffer') continue;
    const e = element(s);
    const stored = g.storedType(e.type, e.bits);
    narrowStorage(b, 'StorageBuffer', SCALAR_BYTES[e.type]);
    const v = storageBlock(s, stored, SCALAR_BYTES[e.type]);
    buffers.set(s.name, v);
    slots.set(v, s);
  }
  const vectors = new Map<string, number>();
  const aliased = new Set<number>();
  const markAliased = (v: number) => {
    if (!aliased.has(v)) b.decorate(v, 'Aliased');
    aliased.add(v);
  };
  const vectorBuffer = (variable: number, type: ScalarTypeName, count: number) => {
    const key = `${variable}/${type}x${count}`;
    let v = vectors.get(key);
    if (v === undefined) {
      v = storageBlock(slots.get(variable)!, b.typeVector(g.type(type), count), count * SCALAR_BYTES[type]);
      vectors.set(key, v);
      markAliased(variable);
      markAliased(v);
    }
    return v;
  };
  const pods = new Map<string, PodMember>();
  const podSlots = plan.args.filter(inPodBlock);
  const groups = new Map<number | undefined, VulkanSlot[]>();
  for (const s of podSlots) groups.set(s.binding, [...(groups.get(s.binding) ?? []), s]);
  for (const [binding, slots] of groups) {
    const sc = POD_CLASS[slots[0].argKind]!;
    const sorted = [...slots].sort((x, y) => x.offset! - y.offset!);
    const block = b.typeStruct(sorted.map((s) => g.type(podScalar(s))));
    b.decorate(block, 'Block');
    sorted.forEach((s, i) => {
      b.memberDecorate(block, i, 'Offset', s.offset!);
      b.memberName(block, i, s.name);
      narrowStorage(b, sc, s.argSize!);
    });
    const v = b.variable(b.typePointer(sc, block), sc);
    if (sc !== 'PushConstant') {
      b.decorate(v, 'DescriptorSet', slots[0].descriptorSet!);
      b.decorate(v, 'Binding', binding!);
    }
    b.name(v, podBlockName(plan.name, binding, groups.size === 1));
    sorted.forEach((s, index) => pods.set(s.name, { variable: v, sc, index, type: podScalar(s) }));
  }
  return { buffers, pods, vectorBuffer };
}
