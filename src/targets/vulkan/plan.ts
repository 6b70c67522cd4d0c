import type { KernelPlanBase, SlotBase, ValueLayout } from '../../abi/plan.js';
import type { QualType } from '../../types/types.js';
import type { ClspvReflectionName } from '../../emit/spirv/clspv-instructions.js';
import type { ImageMetadataSlot } from './image-metadata.js';
import type { PrintfBuffer, PrintfInfo } from './printf.js';
import type { WorkgroupVariable } from './workgroup-variables.js';

export type StorageClassName = 'ssbo' | 'ubo' | 'pushconstant';

/** How bindings are numbered: per kernel, or by argument position across kernels. */
export const BINDING_SCHEMES = ['per-kernel', 'by-position'] as const;
export type BindingScheme = (typeof BINDING_SCHEMES)[number];

/** clspv's `-max-pushconstant-size` default, the push-constant bytes Vulkan guarantees (maxPushConstantsSize). */
export const DEFAULT_MAX_PUSH_CONSTANT_SIZE = 128;

export interface VulkanTargetOptions {
  readonly clusterPodKernelArgs?: boolean;
  readonly podUbo?: boolean;
  readonly podPushConstant?: boolean;
  /** `auto`: today's clspv picks push constants, then UBO, then SSBO per kernel. Default: the seed's SSBO. */
  readonly podArgs?: 'ssbo' | 'auto';
  readonly maxPushConstantSize?: number;
  readonly constantArgsUbo?: boolean;
  readonly distinctKernelDescriptorSets?: boolean;
  readonly moduleConstantsInStorageBuffer?: boolean;
  /** Sampler-map entries: the masks of `CLK_… | …` expressions, in file order. */
  readonly samplerMap?: readonly number[];
  readonly globalOffset?: boolean;
  readonly globalOffsetPushConstant?: boolean;
  readonly workDim?: boolean;
  readonly longVector?: boolean;
  readonly arch?: 'spir' | 'spir64';
  /**
   * `per-kernel` (default): each kernel numbers its bindings from 0 in argument order (the
   * descriptor-map examples of clspv's documentation); `by-position`: one binding per argument
   * position across the module's kernels, as today's clspv assigns them.
   */
  readonly bindingScheme?: BindingScheme;
  /**
   * --format spirv*: floating atomic adds as OpAtomicFAddEXT (the device has the feature) instead of compare-and-swap
   * loops.
   */
  readonly floatAtomicAdd?: boolean;
  readonly no8bitStorage?: readonly StorageClassName[];
  readonly no16bitStorage?: readonly StorageClassName[];
  /**
   * Today's clspv `-physical-storage-buffers`: global and constant pointers travel as 8-byte addresses among the PODs.
   */
  readonly physicalStorageBuffers?: boolean;
  /** Today's clspv `-enable-printf`: printf calls write to a printf buffer described by reflection data. */
  readonly enablePrintf?: boolean;
  /** `-printf-buffer-size` in bytes (default 1 MiB). */
  readonly printfBufferSize?: number;
  /**
   * `-cl-native-math`: native math builtins. clspv's Option.cpp makes it imply
   * `-cl-fast-relaxed-math`, so `__FAST_RELAXED_MATH__` is defined (Compiler.cpp); no other ABI effect.
   */
  readonly nativeMath?: boolean;
}

export type VulkanArgKind =
  | 'buffer'
  | 'buffer_ubo'
  | 'pod'
  | 'pod_ubo'
  | 'pod_pushconstant'
  | 'pointer_pushconstant'
  | 'pointer_ubo'
  | 'ro_image'
  | 'wo_image'
  | 'storage_texel_buffer'
  | 'uniform_texel_buffer'
  | 'sampler'
  | 'local';

export interface VulkanSlot extends SlotBase {
  readonly argKind: VulkanArgKind;
  /** The NonSemantic.ClspvReflection instruction that describes this slot. */
  readonly reflection?: ClspvReflectionName;
  readonly descriptorSet?: number;
  readonly binding?: number;
  /** Byte offset inside the POD buffer or push-constant block (0 for descriptors). */
  readonly offset?: number;
  /** Store size of a POD (float3 → 12). */
  readonly argSize?: number;
  /** Local arguments: the spec constant that sizes the Workgroup array, and its element size. */
  readonly specId?: number;
  readonly arrayElemSize?: number;
  readonly typeName: string;
  readonly vkDescriptorType?: string;
  /** A storage buffer of 64-bit buffer device addresses (tinytc group tables; see vulkan-address-tables.ts). */
  readonly pointerTable?: 'PhysicalStorageBuffer64';
  readonly type?: QualType;
  readonly layout?: ValueLayout;
}

export interface VulkanKernelPlan extends KernelPlanBase<VulkanSlot> {
  /** Where this kernel's POD arguments go. */
  readonly podPlacement: 'ssbo' | 'ubo' | 'pushconstant' | 'none';
  /** Size of the POD block (its largest offset + size, rounded to 4). */
  readonly podSize: number;
  /**
   * Type-mangled global push constants: where the POD block starts in the push-constant range (slot offsets include
   * it).
   */
  readonly podOffset?: number;
  /**
   * The Kernel reflection instruction's MayUsePrintf flag (every kernel of a module that prints, with --enable-printf).
   */
  readonly mayUsePrintf?: boolean;
  readonly reqdWorkGroupSize?: readonly [number, number, number];
  /** Image channel order/data type and normalized-sampler-mask words this kernel reads from the push constants. */
  readonly imageMetadata?: readonly (ImageMetadataSlot & { readonly pushConstantOffset: number; readonly size: 4 })[];
}

/** One module constant inside the constant-data bytes. */
export interface ConstantVariable {
  readonly name: string;
  readonly offset: number;
  readonly size: number;
}

/**
 * `--module-constants-in-storage-buffer`: the module's `constant` data, which the host provides.
 * In a storage buffer at binding 0 of its own set (ConstantDataStorageBuffer, the descriptor map's
 * `constant` line) or, with `--physical-storage-buffers`, through an 8-byte device address among
 * the module push constants (ConstantDataPointerPushConstant; lib/SPIRVProducerPass.cpp).
 */
export type ConstantData =
  | {
      readonly descriptorSet: number;
      readonly binding: number;
      readonly kind: 'buffer';
      readonly hexbytes: string;
      readonly variables: readonly ConstantVariable[];
    }
  | {
      readonly reflection: 'ConstantDataPointerPushConstant';
      readonly pushConstantOffset: number;
      readonly size: 8;
      readonly hexbytes: string;
      readonly variables: readonly ConstantVariable[];
    };

export interface VulkanPlan {
  readonly target: 'vulkan';
  readonly arch: 'spir' | 'spir64';
  readonly pushConstants: readonly { readonly name: string; readonly offset: number; readonly size: number }[];
  readonly literalSamplers: readonly {
    readonly mask: number;
    readonly expr: string;
    readonly descriptorSet: number;
    readonly binding: number;
    readonly name?: string;
  }[];
  readonly constantData?: ConstantData;
  readonly specConstants: readonly { readonly name: string; readonly specId: number }[];
  /** Set when every kernel has reqd_work_group_size: the LocalSize execution modes replace the spec constants. */
  readonly localSize: boolean;
  readonly descriptorSets: readonly { readonly set: number; readonly use: string }[];
  readonly pushConstantRange?: { readonly offset: number; readonly size: number };
  readonly capabilities: readonly string[];
  readonly spirvExtensions: readonly string[];
  readonly vulkanFeatures: readonly string[];
  readonly vulkanExtensions: readonly string[];
  readonly kernels: readonly VulkanKernelPlan[];
  /** With `--enable-printf`: where the printf buffer is, and each printf's id, format and argument sizes. */
  readonly printf?: { readonly buffer: PrintfBuffer; readonly infos: readonly PrintfInfo[] };
  /**
   * Kernel-scope `local` variables as clspv's Workgroup variables, each with its WorkgroupVariableSize (absent when
   * none).
   */
  readonly workgroupVariables?: readonly WorkgroupVariable[];
}
