/**
 * clspv's module-wide parts in the vulkan plan (physical pointers, printf, image metadata): option checks, the push
 * constants and sets they add.
 */
import { alignTo } from '../../layout/align.js';
import { type Message, Messages } from '../../diagnostics/messages.js';
import type { Span } from '../../diagnostics/source.js';
import type { FunctionInfo, KernelModule } from '../../model/kernel-module.js';
import type { VulkanKernelPlan, VulkanPlan, VulkanTargetOptions } from './plan.js';
import { DEFAULT_PRINTF_BUFFER_SIZE, type PrintfBuffer, type PrintfInfo, printfInfos } from './printf.js';
import { type ImageMetadataSlot, helpersWithImageMetadata, imageMetadataOf } from './image-metadata.js';
import { PHYSICAL_STORAGE_REQUIREMENTS } from './physical-pointers.js';
import type { Draft } from '../../abi/origin.js';

type Report = (span: Span | undefined, message: Message, args?: readonly (string | number)[]) => void;

/**
 * The option conflicts clspv enforces for its newer options (lib/Compiler.cpp), in its words, and what kernarg does not
 * model.
 */
export function checkPhysicalPointerOptions(o: VulkanTargetOptions, arch: 'spir' | 'spir64', err: Report): void {
  if (!o.physicalStorageBuffers) return;
  if (arch !== 'spir64') err(undefined, Messages.vkPhysicalNeedsSpir64);
  if (o.constantArgsUbo) err(undefined, Messages.vkPhysicalConstantUbo);
}

export interface ClspvModuleParts {
  /** End of the module push constants after the module-constants and printf-buffer pointers. */
  readonly pcEnd: number;
  /** A module push constant exists that the seed's list does not show (a pointer): no per-kernel push-constant PODs. */
  readonly modulePush: boolean;
  /**
   * Where type-mangled global push-constant PODs start: after the module push constants (a uint3 occupies 16 bytes),
   * 4-aligned.
   */
  readonly globalPodBase: number;
  /** Per kernel, the image-metadata words it reads (offsets assigned by `placeImageMetadata`). */
  readonly imageMetadata: ReadonlyMap<string, readonly ImageMetadataSlot[]>;
  readonly printf?: {
    readonly pointerOffset?: number;
    readonly bufferSize: number;
    readonly infos: readonly PrintfInfo[];
  };
  /** With physical storage buffers, where the module constants' device address is pushed. */
  readonly constantsPointerOffset?: number;
}

/**
 * The push constants and printf data today's clspv adds to a module before the kernels' PODs:
 * the printf-buffer pointer (with physical storage buffers, an 8-byte member after the module
 * push constants), and which image-metadata words each kernel reads.
 */
export function clspvModuleParts(
  module: KernelModule,
  kernels: readonly FunctionInfo[],
  o: VulkanTargetOptions,
  pushConstants: readonly { readonly offset: number; readonly size: number }[],
  err: Report,
): ClspvModuleParts {
  let pcEnd = Math.max(0, ...pushConstants.map((p) => p.offset + p.size));
  // LLVM's alloc size of a uint3 member is 16: the next member starts there.
  let allocEnd = Math.max(0, ...pushConstants.map((p) => p.offset + (p.size === 12 ? 16 : p.size)));
  let printf: ClspvModuleParts['printf'];
  let modulePush = false;
  const prints = module.functions.some((f) => f.calls.some((c) => c.name === 'printf'));
  // DeclarePushConstantsPass: the module-constants pointer comes before the printf-buffer pointer.
  let constantsPointerOffset: number | undefined;
  if (
    o.physicalStorageBuffers &&
    o.moduleConstantsInStorageBuffer &&
    module.variables.some((v) => v.space === 'constant')
  ) {
    constantsPointerOffset = alignTo(allocEnd, 8);
    pcEnd = allocEnd = constantsPointerOffset + 8;
    modulePush = true;
  }
  if (o.enablePrintf && prints) {
    const infos = printfInfos(module, o.arch === 'spir64' ? 8 : 4, (call, unconverted) =>
      err(call.span, Messages.vkPrintfArgSize, [unconverted]),
    );
    const bufferSize = o.printfBufferSize ?? DEFAULT_PRINTF_BUFFER_SIZE;
    if (o.physicalStorageBuffers) {
      const pointerOffset = alignTo(allocEnd, 8);
      pcEnd = allocEnd = pointerOffset + 8;
      modulePush = true;
      printf = { pointerOffset, bufferSize, infos };
    } else printf = { bufferSize, infos };
  }
  for (const { f, call } of helpersWithImageMetadata(module)) {
    err(call.span, Messages.vkImageMetadataHelper, [f.name, call.name]);
  }
  const imageMetadata = new Map<string, readonly ImageMetadataSlot[]>();
  for (const k of kernels) {
    // Only the calls a body records with their arguments can read image metadata.
    if (!k.callArgs?.length) continue;
    const m = imageMetadataOf(k);
    if (m.length) imageMetadata.set(k.name, m);
  }
  if (o.podPushConstant && (modulePush || imageMetadata.size)) err(undefined, Messages.vkPodPushBesideModulePush);
  return {
    pcEnd,
    modulePush,
    globalPodBase: alignTo(allocEnd, 4),
    imageMetadata,
    ...(printf ? { printf } : {}),
    ...(constantsPointerOffset !== undefined ? { constantsPointerOffset } : {}),
  };
}

/**
 * The image-metadata block is the last member of the push constants (SetImageMetadataPass runs
 * after the PODs are clustered): one 32-bit word per entry of the kernel with the most, after the
 * module push constants and the global push-constant PODs. Sets each kernel's `imageMetadata`
 * (the plans are still being built) and returns the end of the push constants.
 */
export function placeImageMetadata(
  kernels: readonly Draft<VulkanKernelPlan>[],
  metadata: ReadonlyMap<string, readonly ImageMetadataSlot[]>,
  pcEnd: number,
): number {
  let podEnd = 0;
  for (const k of kernels) podEnd = Math.max(podEnd, podBlockEnd(k));
  const placed = imageMetadataBase(metadata, pcEnd, podEnd);
  if (!placed) return pcEnd;
  for (const k of kernels) setImageMetadata(k, metadata, placed.base);
  return placed.end;
}

/** Where a kernel's POD block ends, 0 where it has none at an offset (the image metadata goes after every kernel's). */
export const podBlockEnd = (k: VulkanKernelPlan): number => (k.podOffset !== undefined ? k.podOffset + k.podSize : 0);

/**
 * Where the image metadata push constants start (after the module's and every kernel's PODs, `podEnd` the furthest
 * end of those) and where they end; undefined when no kernel has any.
 */
export function imageMetadataBase(
  metadata: ReadonlyMap<string, readonly ImageMetadataSlot[]>,
  pcEnd: number,
  podEnd: number,
): { readonly base: number; readonly end: number } | undefined {
  let words = 0;
  for (const m of metadata.values()) words = Math.max(words, m.length);
  if (!words) return undefined;
  const base = alignTo(Math.max(pcEnd, podEnd), 4);
  return { base, end: base + 4 * words };
}

/** One kernel's image metadata push constants, from `base` (`imageMetadataBase`). */
export function setImageMetadata(
  k: Draft<VulkanKernelPlan>,
  metadata: ReadonlyMap<string, readonly ImageMetadataSlot[]>,
  base: number,
): void {
  const m = metadata.get(k.name);
  if (m) k.imageMetadata = m.map((s) => ({ ...s, pushConstantOffset: base + 4 * s.index, size: 4 as const }));
}

/**
 * The printf buffer: a storage buffer at binding 0 of a new set (after the module constants), or the pointer push
 * constant.
 */
export function printfPlan(
  p: NonNullable<ClspvModuleParts['printf']>,
  takeSet: () => number,
): NonNullable<VulkanPlan['printf']> {
  const buffer: PrintfBuffer =
    p.pointerOffset !== undefined
      ? {
          reflection: 'PrintfBufferPointerPushConstant',
          pushConstantOffset: p.pointerOffset,
          size: 8,
          bufferSize: p.bufferSize,
        }
      : { reflection: 'PrintfBufferStorageBuffer', descriptorSet: takeSet(), binding: 0, bufferSize: p.bufferSize };
  return { buffer, infos: p.infos };
}

/**
 * Physical pointer arguments (`pointers`: some slot is one), a module-constants or printf-buffer pointer need buffer
 * device addresses on the device.
 */
export function addPhysicalRequirements(
  pointers: boolean,
  printf: VulkanPlan['printf'],
  constantData: VulkanPlan['constantData'],
  lists: { caps: string[]; features: string[]; vkExt: string[]; spirvExtensions: string[] },
): void {
  const constantsPointer = constantData !== undefined && 'pushConstantOffset' in constantData;
  if (!pointers && !constantsPointer && printf?.buffer.reflection !== 'PrintfBufferPointerPushConstant') return;
  const r = PHYSICAL_STORAGE_REQUIREMENTS;
  const pairs = [
    [lists.caps, r.capabilities],
    [lists.features, r.vulkanFeatures],
    [lists.vkExt, r.vulkanExtensions],
    [lists.spirvExtensions, r.spirvExtensions],
  ] as const;
  for (const [list, add] of pairs) for (const x of add) if (!list.includes(x)) list.push(x);
}

/**
 * Sets the Kernel instruction's MayUsePrintf flag on every kernel of a module with printf info
 * (lib/SPIRVProducerPass.cpp sets it from the module's printf metadata, not per kernel). Each
 * slot already names the NonSemantic.ClspvReflection instruction that describes it.
 */
export function withPrintfFlag(
  plan: Omit<VulkanPlan, 'kernels'> & { readonly kernels: readonly Draft<VulkanKernelPlan>[] },
): VulkanPlan {
  if ((plan.printf?.infos.length ?? 0) > 0) for (const k of plan.kernels) k.mayUsePrintf = true;
  return plan;
}
