import type { AbiPlan } from '../abi/plan.js';
import { renderTable } from './text-table.js';

const cell = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** A human-readable view of a plan: one table per kernel, columns chosen per target. */
export function emitTable(plan: AbiPlan): string {
  const out: string[] = [];
  switch (plan.target) {
    case 'opencl':
      for (const k of plan.kernels) {
        const attrs: string[] = [];
        if (k.reqdWorkGroupSize) attrs.push(`reqd_work_group_size(${k.reqdWorkGroupSize.join(', ')})${k.workGroupSizeChosen ? ' (chosen by kernarg)' : ''}`);
        if (k.workGroupSizeHint) attrs.push(`work_group_size_hint(${k.workGroupSizeHint.join(', ')})`);
        if (k.vecTypeHint) attrs.push(`vec_type_hint(${k.vecTypeHint})`);
        if (k.intelReqdSubGroupSize) attrs.push(`intel_reqd_sub_group_size(${k.intelReqdSubGroupSize})`);
        out.push(`kernel ${k.name} (opencl, ${plan.arch})${attrs.length ? '  ' + attrs.join(' ') : ''}\n`);
        const rows = k.args.map((a) => [String(a.index), a.name, a.kind, a.addressSpace ?? a.access ?? '', a.typeName, a.typeQual, a.size === null ? 'local' : String(a.size)]);
        out.push(rows.length ? renderTable(['index', 'name', 'kind', 'space/access', 'type', 'qualifiers', 'size'], rows) : '(no arguments)\n');
      }
      break;
    case 'amdhsa':
      for (const k of plan.kernels) {
        out.push(`kernel ${k.name} (amdhsa, code object ${plan.codeObject}, LLVM ${plan.llvm}, ${plan.mcpu})  kernarg segment: size ${k.kernargSegmentSize}, align ${k.kernargSegmentAlign}\n`);
        const rows = k.args.map((a) => [String(a.offset), String(a.size), a.name, a.valueKind, a.addressSpace ?? a.access ?? '', cell(a.typeName)]);
        out.push(renderTable(['offset', 'size', 'name', 'value kind', 'space/access', 'type'], rows));
      }
      break;
    case 'amd-cl2':
      for (const k of plan.kernels) {
        const sg = k.userSgprs;
        const regs = [`${sg.count} user SGPRs`, 's[0:3] scratch'];
        if (sg.setupPointer) regs.push(`s[${sg.setupPointer.join(':')}] setup`);
        if (sg.argsPointer) regs.push(`s[${sg.argsPointer.join(':')}] args`);
        if (sg.flatBasesPointer) regs.push(`s[${sg.flatBasesPointer.join(':')}] flat bases, s${sg.flatScratchOffset} flat scratch offset, s${sg.scratchPerThread} scratch per thread`);
        out.push(`kernel ${k.name} (amd-cl2, ${plan.bits}-bit, ${plan.driver} driver${plan.gfx9 ? ', GFX9' : ''})  argument buffer: ${k.kernargSize} bytes; ${regs.join(', ')}\n`);
        const rows = k.args.map((a) => [String(a.offset), String(a.size), String(a.align), a.name, a.argType, a.addressSpace ?? a.access ?? '', a.typeName, cell(a.resourceId)]);
        out.push(renderTable(['offset', 'size', 'align', 'name', 'clrx type', 'space/access', 'type', 'resource'], rows));
      }
      break;
    case 'vulkan': {
      const sets = plan.descriptorSets.map((d) => `set ${d.set}: ${d.use}`).join('; ');
      out.push(`module (vulkan, ${plan.arch})  ${sets || 'no descriptor sets'}${plan.pushConstantRange ? `; push constants ${plan.pushConstantRange.size} bytes` : ''}\n`);
      if (plan.literalSamplers.length) out.push(renderTable(['set', 'binding', 'sampler'], plan.literalSamplers.map((s) => [String(s.descriptorSet), String(s.binding), s.expr])));
      if (plan.pushConstants.length) out.push(renderTable(['push offset', 'size', 'module push constant'], plan.pushConstants.map((p) => [String(p.offset), String(p.size), p.name])));
      if (plan.constantData) out.push(`module constants: set ${plan.constantData.descriptorSet}, binding 0, ${plan.constantData.hexbytes.length / 2} bytes\n`);
      out.push(`spec constants: ${plan.specConstants.map((s) => `${s.name}=${s.specId}`).join(', ') || '(none)'}${plan.localSize ? '; work-group size from reqd_work_group_size (LocalSize)' : ''}\n`);
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
      break;
    }
    case 'llvm':
      for (const k of plan.kernels) {
        out.push(`kernel ${k.name} (llvm, ${plan.triple}, ${plan.metadata} metadata)\n`);
        const rows = k.args.map((a) => [a.name, String(a.addrSpace), a.accessQual, a.typeName, a.baseType, a.typeQual]);
        out.push(rows.length ? renderTable(['name', 'addr_space', 'access_qual', 'type', 'base_type', 'type_qual'], rows) : '(no arguments)\n');
      }
      break;
    case 'r600':
      for (const k of plan.kernels) {
        out.push(`kernel ${k.name} (r600, ${plan.mcpu})  input buffer: ${k.inputSize} bytes, explicit arguments from byte 36\n`);
        const rows = k.args.map((a) => [String(a.offset), String(a.size), a.name, a.role, a.typeName, cell(a.accessQual), cell(a.resourceId), cell(a.image)]);
        out.push(renderTable(['offset', 'size', 'name', 'role', 'type', 'access', 'resource', 'image'], rows));
      }
      break;
  }
  return out.join('\n');
}
