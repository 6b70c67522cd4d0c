import { joinPieces } from '../../emit/pieces.js';
import type { StreamPlan } from '../../abi/stream-plan.js';
import type { VulkanPlan, VulkanSlot } from './lower.js';
import { SlotListTexts } from '../../abi/kernel-shape-memo.js';

/** The argument kinds clspv-reflection prints no descriptor-map line for. */
const SILENT: ReadonlySet<VulkanSlot['argKind']> = new Set([
  'pointer_pushconstant',
  'pointer_ubo',
  'storage_texel_buffer',
  'uniform_texel_buffer',
]);

/** One argument's line after its `kernel,<name>` (the rest is the slot's alone). */
function argLineTail(a: VulkanSlot): string {
  const head = `,arg,${a.name},argOrdinal,${a.param}`;
  switch (a.argKind) {
    case 'local':
      return `${head},argKind,local,arrayElemSize,${a.arrayElemSize},arrayNumElemSpecId,${a.specId}`;
    case 'pod_pushconstant':
      return `${head},offset,${a.offset},argKind,pod_pushconstant,argSize,${a.argSize}`;
    case 'pod':
    case 'pod_ubo':
      return `${head},descriptorSet,${a.descriptorSet},binding,${a.binding},offset,${a.offset},argKind,${a.argKind},argSize,${a.argSize}`;
    default:
      return `${head},descriptorSet,${a.descriptorSet},binding,${a.binding},offset,0,argKind,${a.argKind}${a.pointerTable ? `,pointerTable,${a.pointerTable}` : ''}`;
  }
}

/**
 * A kernel's argument lines, each without its `kernel,<name>`: made once for the kernels of one shape (the memo's
 * shared slot lists).
 */
const ARG_LINE_TAILS = new SlotListTexts<VulkanSlot, readonly string[]>((args) => {
  const tails: string[] = [];
  for (const a of args) if (!SILENT.has(a.argKind)) tails.push(argLineTail(a));
  return tails;
});

/**
 * clspv's descriptor map (the CSV `clspv-reflection` prints): push constants, samplers, the
 * module-constant buffer, then per kernel `kernel_decl` and its arguments, then spec constants.
 */
export function* emitDescriptorMapPieces(plan: StreamPlan<VulkanPlan>): Generator<string, void, undefined> {
  // Lines, each ended by a newline; no line at all is one empty line (the text was `lines.join('\n') + '\n'`).
  let out: string[] = [];
  let any = false;
  for (const p of plan.pushConstants) out.push(`pushconstant,name,${p.name},offset,${p.offset},size,${p.size}`);
  for (const s of plan.literalSamplers)
    out.push(`sampler,${s.mask},samplerExpr,"${s.expr}",descriptorSet,${s.descriptorSet},binding,${s.binding}`);
  const c = plan.constantData;
  // clspv-reflection prints no line for ConstantDataPointerPushConstant (no case in its ReflectionParser).
  if (c && !('pushConstantOffset' in c)) {
    out.push(`constant,descriptorSet,${c.descriptorSet},binding,${c.binding},kind,${c.kind},hexbytes,${c.hexbytes}`);
  }
  for (const k of plan.kernels) {
    out.push(`kernel_decl,${k.name}`);
    // clspv-reflection prints no line for pointer arguments (pointer_pushconstant, pointer_ubo) nor
    // texel buffers: its ReflectionParser has no case for their instructions.
    const lead = `kernel,${k.name}`;
    for (const tail of ARG_LINE_TAILS.text(k.args)) out.push(lead + tail);
    yield out.join('\n') + '\n';
    any = true;
    out = [];
  }
  // clspv-reflection prints no line for SpecConstantSubgroupMaxSize.
  for (const s of plan.specConstants)
    if (s.name !== 'subgroup_max_size') out.push(`spec_constant,${s.name},spec_id,${s.specId}`);
  if (out.length || !any) yield out.join('\n') + '\n';
}

export function emitDescriptorMap(plan: VulkanPlan): string {
  return joinPieces(emitDescriptorMapPieces(plan));
}
