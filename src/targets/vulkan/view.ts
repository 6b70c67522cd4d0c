import {
  type Fact,
  type PlanView,
  layoutFact as lay,
  numberFact as n,
  stringFact as s,
  tripleFact as triple,
} from '../../abi/plan-view.js';
import type { VulkanPlan } from './plan.js';

/** Slot properties in display order: only these are compared across two targets. */
export const VULKAN_VOCABULARY = [
  'kind',
  'reflection',
  'descriptorSet',
  'binding',
  'offset',
  'pushConstantOffset',
  'size',
  'specId',
  'elemSize',
  'typeName',
  'layout',
] as const;

/** clspv's interface as the ABI diff sees it: module resources as facts, image metadata words as slots. */
export function vulkanView(plan: VulkanPlan): PlanView {
  const facts: Record<string, Fact> = {
    arch: plan.arch,
    pushConstantRange: plan.pushConstantRange
      ? `${plan.pushConstantRange.offset}+${plan.pushConstantRange.size}`
      : null,
    localSize: String(plan.localSize),
  };
  for (const d of plan.descriptorSets) facts[`descriptorSet ${d.set}`] = d.use;
  for (const p of plan.pushConstants) facts[`pushConstant ${p.name}`] = `${p.offset}+${p.size}`;
  for (const c of plan.specConstants) facts[`specConstant ${c.name}`] = c.specId;
  for (const l of plan.literalSamplers)
    facts[`literalSampler ${l.mask}`] = `set ${l.descriptorSet} binding ${l.binding}`;
  const c = plan.constantData;
  if (c)
    facts['constantData'] =
      'pushConstantOffset' in c
        ? `push constant ${c.pushConstantOffset} ${c.hexbytes}`
        : `set ${c.descriptorSet} binding ${c.binding} ${c.hexbytes}`;
  for (const c of plan.capabilities) facts[`capability ${c}`] = 'required';
  for (const f of plan.vulkanFeatures) facts[`vulkanFeature ${f}`] = 'required';
  for (const e of plan.vulkanExtensions) facts[`vulkanExtension ${e}`] = 'required';
  if (plan.printf) {
    const b = plan.printf.buffer;
    facts['printfBuffer'] =
      b.reflection === 'PrintfBufferStorageBuffer'
        ? `set ${b.descriptorSet} binding ${b.binding} ${b.bufferSize} bytes`
        : `push constant ${b.pushConstantOffset} ${b.bufferSize} bytes`;
    for (const i of plan.printf.infos)
      facts[`printfInfo ${i.id}`] = `${JSON.stringify(i.format)} [${i.argSizes.join(',')}]`;
  }
  for (const w of plan.workgroupVariables ?? [])
    facts[`workgroupVariable ${w.variables.map((v) => `${v.kernel}.${v.name}`).join('+')}`] = `${w.size} bytes`;
  return {
    facts,
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      facts: {
        podPlacement: k.podPlacement,
        podSize: k.podPlacement === 'none' ? null : k.podSize,
        podOffset: n(k.podOffset),
        reqdWorkGroupSize: triple(k.reqdWorkGroupSize),
      },
      slots: [
        ...k.args.map((a) => {
          const push = a.argKind === 'pod_pushconstant' || a.argKind === 'pointer_pushconstant';
          return {
            name: a.name,
            param: a.param,
            role: a.role,
            props: {
              kind: a.argKind,
              reflection: s(a.reflection),
              descriptorSet: n(a.descriptorSet),
              binding: n(a.binding),
              offset: push || a.argKind === 'local' ? null : n(a.offset),
              pushConstantOffset: push ? n(a.offset) : null,
              size: n(a.argSize),
              specId: n(a.specId),
              elemSize: n(a.arrayElemSize),
              typeName: a.typeName,
              layout: lay(a.layout),
            },
          };
        }),
        // Implicit push-constant words: image channel order/data type, normalized-sampler masks.
        ...(k.imageMetadata ?? []).map((m) => ({
          name: `${m.kind}(${m.name})`,
          param: null,
          role: 'image-format',
          props: {
            kind: m.kind,
            reflection: m.reflection,
            pushConstantOffset: m.pushConstantOffset,
            size: m.size,
          } as Record<string, Fact>,
        })),
      ],
    })),
  };
}
