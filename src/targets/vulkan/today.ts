/**
 * Today's clspv beyond the seed: printf as reflection data, image metadata and normalized-sampler
 * masks as push constants, physical storage buffer pointers, and the reflection instruction that
 * describes each slot. Facts from google/clspv (lib/PrintfPass.cpp, lib/SetImageMetadataPass.cpp,
 * lib/PhysicalPointerArgsPass.cpp, lib/PushConstant.cpp, lib/SPIRVProducerPass.cpp).
 */
import type { CallArgs, FunctionInfo, KernelModule } from '../../model/kernel-module.js';
import { canonical } from '../../types/types.js';
import type { ClspvReflectionName } from '../../emit/spirv/clspv-instructions.js';

/** One printf call (or one string literal printed with %s): its id, its format, the bytes each argument takes in the buffer. */
export interface PrintfInfo {
  readonly id: number;
  readonly format: string;
  readonly argSizes: readonly number[];
  readonly reflection: 'PrintfInfo';
}

export type PrintfBuffer =
  | { readonly reflection: 'PrintfBufferStorageBuffer'; readonly descriptorSet: number; readonly binding: 0; readonly bufferSize: number }
  | { readonly reflection: 'PrintfBufferPointerPushConstant'; readonly pushConstantOffset: number; readonly size: 8; readonly bufferSize: number };

/** clspv's `-printf-buffer-size` default: 1 MiB (lib/Option.cpp). */
export const DEFAULT_PRINTF_BUFFER_SIZE = 1024 << 10;

/** The argument bytes one conversion specification takes, or undefined for `%%`; `literal`: the argument is a string literal. */
function conversionSize(vector: number | undefined, length: string, conv: string, literal: boolean, pointerBytes: number): number {
  if (conv === 's') return literal ? 4 : pointerBytes;
  if (conv === 'p') return pointerBytes;
  const float = 'fFeEgGaA'.includes(conv);
  if (vector !== undefined) {
    const element = { hh: 1, h: 2, hl: 4, l: 8, ll: 8, '': float ? 4 : 4 }[length] ?? 4;
    return Math.max(4, vector * element);
  }
  // Default argument promotions: char and short travel as int, float as double.
  if (float) return 8;
  return length === 'l' || length === 'll' ? 8 : 4;
}

/**
 * The buffer bytes of each printf argument, from the format's conversion specifications (what
 * clspv's PrintfPass stores: max(4, the promoted argument's store size); a string literal argument
 * is stored as its 4-byte printf id). Returns the 1-based number of the first argument without a conversion, if one has none.
 */
export function printfArgSizes(format: string, args: readonly { readonly string?: string }[], pointerBytes: number): number[] | { readonly unconverted: number } {
  const sizes: number[] = [];
  const spec = /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(?:v(2|3|4|8|16))?(hh|hl|h|ll|l)?([diouxXcsfFeEgGaAp%])/g;
  for (const m of format.matchAll(spec)) {
    if (m[6] === '%') continue;
    if (m[2] === '*') sizes.push(4);
    if (m[3] === '*') sizes.push(4);
    const arg = args[sizes.length];
    sizes.push(conversionSize(m[4] === undefined ? undefined : Number(m[4]), m[5] ?? '', m[6], arg?.string !== undefined, pointerBytes));
  }
  if (args.length > sizes.length) return { unconverted: sizes.length + 1 };
  return sizes.slice(0, args.length);
}

/**
 * clspv's printf ids in module order: each call with a literal format gets the next id, then each
 * string literal it prints gets its own id (stored in place of the string). Calls whose format is
 * not a literal are left alone, as clspv leaves them.
 */
export function printfInfos(module: KernelModule, pointerBytes: number, report: (call: CallArgs, unconverted: number) => void): PrintfInfo[] {
  const out: PrintfInfo[] = [];
  let id = 0;
  for (const f of module.functions) {
    for (const call of f.callArgs ?? []) {
      if (call.name !== 'printf') continue;
      const format = call.args[0]?.string;
      if (format === undefined) continue;
      const rest = call.args.slice(1);
      const sizes = printfArgSizes(format, rest, pointerBytes);
      if (!Array.isArray(sizes)) {
        report(call, sizes.unconverted);
        continue;
      }
      out.push({ id: id++, format, argSizes: sizes, reflection: 'PrintfInfo' });
      for (const a of rest) if (a.string !== undefined) out.push({ id: id++, format: a.string, argSizes: [], reflection: 'PrintfInfo' });
    }
  }
  return out;
}

export type ImageMetadataKind = 'channel_order' | 'channel_data_type' | 'normalized_sampler_mask';

/** One 32-bit image-metadata word a kernel reads from the push constants. */
export interface ImageMetadataSlot {
  readonly kind: ImageMetadataKind;
  /** The image's ordinal (the sampler's for the normalized-sampler mask). */
  readonly param: number;
  readonly name: string;
  /** Index of this word in the kernel's image-metadata block. */
  readonly index: number;
  readonly reflection: ClspvReflectionName;
}

const ORDER: readonly ImageMetadataKind[] = ['channel_order', 'channel_data_type', 'normalized_sampler_mask'];
const REFLECTION: Record<ImageMetadataKind, ClspvReflectionName> = {
  channel_order: 'ImageArgumentInfoChannelOrderPushConstant',
  channel_data_type: 'ImageArgumentInfoChannelDataTypePushConstant',
  normalized_sampler_mask: 'NormalizedSamplerMaskPushConstant',
};
const READS = new Set(['read_imagef', 'read_imagei', 'read_imageui', 'read_imageh']);

/** The parameter an argument names when it is just a parameter's name. */
const paramNamed = (f: FunctionInfo, text: string) => f.params.find((p) => p.name === text);
const isImage3d = (f: FunctionInfo, text: string) => {
  const t = canonical(paramNamed(f, text)?.type ?? { type: { kind: 'scalar', name: 'void' } }).type;
  return t.kind === 'image' && t.name === 'image3d_t';
};
const isSamplerParam = (f: FunctionInfo, text: string) => {
  const t = canonical(paramNamed(f, text)?.type ?? { type: { kind: 'scalar', name: 'void' } }).type;
  return t.kind === 'opaque' && t.name === 'sampler_t';
};

/**
 * The image-metadata words of one kernel, as clspv's SetImageMetadataPass orders them (by kind —
 * channel order, channel data type, normalized-sampler mask — then ordinal): a word per image
 * whose channel order or data type the kernel queries, and per sampler argument a 3-D image read
 * uses (clspv then normalizes coordinates by the mask).
 */
export function imageMetadataOf(k: FunctionInfo): ImageMetadataSlot[] {
  const found = new Map<string, { kind: ImageMetadataKind; param: number; name: string }>();
  for (const call of k.callArgs ?? []) {
    let kind: ImageMetadataKind | undefined;
    let target: string | undefined;
    if (call.name === 'get_image_channel_order') [kind, target] = ['channel_order', call.args[0]?.text];
    else if (call.name === 'get_image_channel_data_type') [kind, target] = ['channel_data_type', call.args[0]?.text];
    else if (READS.has(call.name) && call.args.length === 3 && isImage3d(k, call.args[0].text) && isSamplerParam(k, call.args[1].text)) {
      [kind, target] = ['normalized_sampler_mask', call.args[1].text];
    }
    const p = kind && target !== undefined ? paramNamed(k, target) : undefined;
    if (kind && p) found.set(`${ORDER.indexOf(kind)}:${p.index}`, { kind, param: p.index, name: p.name });
  }
  if (found.size === 0) return [];
  return [...found.values()]
    .sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.param - b.param)
    .map((e, index) => ({ ...e, index, reflection: REFLECTION[e.kind] }));
}

/** Non-kernel functions that query image metadata: clspv inlines them into kernels, kernarg does not follow them. */
export function helpersWithImageMetadata(module: KernelModule): { f: FunctionInfo; call: CallArgs }[] {
  const out: { f: FunctionInfo; call: CallArgs }[] = [];
  for (const f of module.functions) {
    if (f.isKernel) continue;
    for (const call of f.callArgs ?? []) {
      const channel = call.name === 'get_image_channel_order' || call.name === 'get_image_channel_data_type';
      const maskRead = READS.has(call.name) && call.args.length === 3 && isImage3d(f, call.args[0].text) && isSamplerParam(f, call.args[1].text);
      if (channel || maskRead) out.push({ f, call });
    }
  }
  return out;
}

/** The reflection instruction of each descriptor-map kind. */
export const ARG_KIND_REFLECTION = {
  buffer: 'ArgumentStorageBuffer',
  buffer_ubo: 'ArgumentUniform',
  pod: 'ArgumentPodStorageBuffer',
  pod_ubo: 'ArgumentPodUniform',
  pod_pushconstant: 'ArgumentPodPushConstant',
  pointer_pushconstant: 'ArgumentPointerPushConstant',
  pointer_ubo: 'ArgumentPointerUniform',
  ro_image: 'ArgumentSampledImage',
  wo_image: 'ArgumentStorageImage',
  storage_texel_buffer: 'ArgumentStorageTexelBuffer',
  uniform_texel_buffer: 'ArgumentUniformTexelBuffer',
  sampler: 'ArgumentSampler',
  local: 'ArgumentWorkgroup',
} as const satisfies Record<string, ClspvReflectionName>;

/** What `--physical-storage-buffers` asks of the device (SPIR-V capability and extension, Vulkan feature and extension). */
export const PHYSICAL_STORAGE_REQUIREMENTS = {
  capabilities: ['PhysicalStorageBufferAddresses', 'Int64'],
  spirvExtensions: ['SPV_KHR_physical_storage_buffer'],
  vulkanFeatures: ['bufferDeviceAddress', 'shaderInt64'],
  vulkanExtensions: ['VK_KHR_buffer_device_address'],
} as const;
