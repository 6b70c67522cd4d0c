/**
 * clspv's image metadata (lib/SetImageMetadataPass.cpp): the channel order, channel data type and
 * normalized-sampler mask words a kernel reads from the push constants.
 */
import type { CallArgs, FunctionInfo, KernelModule } from '../../model/kernel-module.js';
import { canonical } from '../../types/types.js';
import type { ClspvReflectionName } from '../../emit/spirv/clspv-instructions.js';

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
    else if (
      READS.has(call.name) &&
      call.args.length === 3 &&
      isImage3d(k, call.args[0].text) &&
      isSamplerParam(k, call.args[1].text)
    ) {
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
      const maskRead =
        READS.has(call.name) &&
        call.args.length === 3 &&
        isImage3d(f, call.args[0].text) &&
        isSamplerParam(f, call.args[1].text);
      if (channel || maskRead) out.push({ f, call });
    }
  }
  return out;
}
