import type { VulkanPlan, VulkanSlot } from './lower.js';
import { SlotListTexts } from '../../abi/kernel-shape-memo.js';
import type { StreamPlan } from '../../abi/stream-plan.js';
import { renderTable, cell } from '../../emit/text-table.js';
import { joinPieces, separated } from '../../emit/pieces.js';

/** The parts the tables are joined from, a newline between each. */
function* vulkanTableParts(plan: StreamPlan<VulkanPlan>): Generator<string, void, undefined> {
  const sets = plan.descriptorSets.map((d) => `set ${d.set}: ${d.use}`).join('; ');
  yield `module (vulkan, ${plan.arch})  ${sets || 'no descriptor ' + 'sets'}${
    plan.pushConstantRange ? `; push ` + `constants ${plan.pushConstantRange.size} bytes` : ''
  }\n`;
  if (plan.literalSamplers.length)
    yield renderTable(
      ['set', 'binding', 'sampler'],
      plan.literalSamplers.map((s) => [String(s.descriptorSet), String(s.binding), s.expr]),
    );
  if (plan.pushConstants.length)
    yield renderTable(
      ['push offset', 'size', 'module push constant'],
      plan.pushConstants.map((p) => [String(p.offset), String(p.size), p.name]),
    );
  const c = plan.constantData;
  if (c)
    yield `module constants: ${
      'pushConstantOffset' in c
        ? `pointer push constant ` + `at ${c.pushConstantOffset}`
        : `set ${c.descriptorSet}, binding 0`
    }, ${c.hexbytes.length / 2} bytes\n`;
  yield `spec constants: ${plan.specConstants.map((s) => `${s.name}=${s.specId}`).join(', ') || '(none)'}${plan.localSize ? '; work-group size from reqd_work_group_size (LocalSize)' : ''}\n`;
  const wg = plan.workgroupVariables;
  if (wg)
    yield renderTable(
      ['size', 'workgroup variable (WorkgroupVariableSize)', 'type'],
      wg.map((w) => [
        String(w.size),
        w.variables.map((v) => `${v.kernel}.${v.name}`).join(', '),
        w.variables.map((v) => v.typeName).join(', '),
      ]),
    );
  for (const k of plan.kernels) {
    yield `\nkernel ${k.name}  PODs: ${k.podPlacement}${k.podPlacement !== 'none' ? ` (${k.podSize} bytes)` : ''}\n`;
    yield ARGS_TABLES.text(k.args);
    if (k.imageMetadata)
      yield renderTable(
        ['push offset', 'size', 'image metadata', 'of'],
        k.imageMetadata.map((m) => [
          String(m.pushConstantOffset),
          String(m.size),
          m.kind,
          `${m.name} (ordinal ${m.param})`,
        ]),
      );
  }
  if (plan.printf) {
    const b = plan.printf.buffer;
    yield `\nprintf buffer: ${
      b.reflection === 'PrintfBufferStorageBuffer'
        ? `set ${b.descriptorSet}, ` + `binding ${b.binding}`
        : `pointer push constant at ${b.pushConstantOffset}`
    }, ${b.bufferSize} bytes\n`;
    yield renderTable(
      ['printf id', 'argument sizes', 'format'],
      plan.printf.infos.map((p) => [String(p.id), p.argSizes.join(',') || '-', JSON.stringify(p.format)]),
    );
  }
  yield `\ncapabilities: ${plan.capabilities.join(', ')}\nvulkan features: ${plan.vulkanFeatures.join(', ') || '(none)'}\nvulkan extensions: ${plan.vulkanExtensions.join(', ')}\n`;
}

/** A kernel's argument table, made once for the kernels of one shape (the memo's shared slot lists). */
const ARGS_TABLES = new SlotListTexts<VulkanSlot>((args) => {
  const rows = args.map((a) => [
    String(a.param),
    a.name,
    a.argKind,
    cell(a.descriptorSet),
    cell(a.binding),
    a.argKind === 'local' ? '' : cell(a.offset),
    cell(a.argSize),
    a.argKind === 'local' ? `spec ${a.specId} x ${a.arrayElemSize} B` : '',
    a.typeName,
  ]);
  return rows.length
    ? renderTable(['ordinal', 'name', 'kind', 'set', 'binding', 'offset', 'size', 'local', 'type'], rows)
    : '(no arguments)\n';
});

/** The vulkan plan for reading: one table per kernel. */
export function* vulkanTablePieces(plan: StreamPlan<VulkanPlan>): Generator<string, void, undefined> {
  yield* separated(vulkanTableParts(plan), '\n');
}

export function vulkanTable(plan: VulkanPlan): string {
  return joinPieces(vulkanTablePieces(plan));
}
