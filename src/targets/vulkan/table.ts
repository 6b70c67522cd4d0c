import type { VulkanPlan } from './lower.js';
import { renderTable, cell } from '../../emit/text-table.js';

/** The vulkan plan for reading: one table per kernel. */
export function vulkanTable(plan: VulkanPlan): string {
  const out: string[] = [];
  const sets = plan.descriptorSets.map((d) => `set ${d.set}: ${d.use}`).join('; ');
  out.push(`module (vulkan, ${plan.arch})  ${sets || 'no descriptor sets'}${plan.pushConstantRange ? `; push constants ${plan.pushConstantRange.size} bytes` : ''}\n`);
  if (plan.literalSamplers.length) out.push(renderTable(['set', 'binding', 'sampler'], plan.literalSamplers.map((s) => [String(s.descriptorSet), String(s.binding), s.expr])));
  if (plan.pushConstants.length) out.push(renderTable(['push offset', 'size', 'module push constant'], plan.pushConstants.map((p) => [String(p.offset), String(p.size), p.name])));
  const c = plan.constantData;
  if (c) out.push(`module constants: ${'pushConstantOffset' in c ? `pointer push constant at ${c.pushConstantOffset}` : `set ${c.descriptorSet}, binding 0`}, ${c.hexbytes.length / 2} bytes\n`);
  out.push(`spec constants: ${plan.specConstants.map((s) => `${s.name}=${s.specId}`).join(', ') || '(none)'}${plan.localSize ? '; work-group size from reqd_work_group_size (LocalSize)' : ''}\n`);
  const wg = plan.workgroupVariables;
  if (wg) out.push(renderTable(['size', 'workgroup variable (WorkgroupVariableSize)', 'type'], wg.map((w) => [String(w.size), w.variables.map((v) => `${v.kernel}.${v.name}`).join(', '), w.variables.map((v) => v.typeName).join(', ')])));
  for (const k of plan.kernels) {
    out.push(`\nkernel ${k.name}  PODs: ${k.podPlacement}${k.podPlacement !== 'none' ? ` (${k.podSize} bytes)` : ''}\n`);
    const rows = k.args.map((a) => [
      String(a.param), a.name, a.argKind, cell(a.descriptorSet), cell(a.binding), a.argKind === 'local' ? '' : cell(a.offset), cell(a.argSize),
      a.argKind === 'local' ? `spec ${a.specId} x ${a.arrayElemSize} B` : '', a.typeName,
    ]);
    out.push(rows.length ? renderTable(['ordinal', 'name', 'kind', 'set', 'binding', 'offset', 'size', 'local', 'type'], rows) : '(no arguments)\n');
    if (k.imageMetadata) out.push(renderTable(['push offset', 'size', 'image metadata', 'of'], k.imageMetadata.map((m) => [String(m.pushConstantOffset), String(m.size), m.kind, `${m.name} (ordinal ${m.param})`])));
  }
  if (plan.printf) {
    const b = plan.printf.buffer;
    out.push(`\nprintf buffer: ${b.reflection === 'PrintfBufferStorageBuffer' ? `set ${b.descriptorSet}, binding ${b.binding}` : `pointer push constant at ${b.pushConstantOffset}`}, ${b.bufferSize} bytes\n`);
    out.push(renderTable(['printf id', 'argument sizes', 'format'], plan.printf.infos.map((p) => [String(p.id), p.argSizes.join(',') || '-', JSON.stringify(p.format)])));
  }
  out.push(`\ncapabilities: ${plan.capabilities.join(', ')}\nvulkan features: ${plan.vulkanFeatures.join(', ') || '(none)'}\nvulkan extensions: ${plan.vulkanExtensions.join(', ')}\n`);
  return out.join('\n');
}
