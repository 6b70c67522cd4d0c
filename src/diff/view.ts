import type { AbiPlan, ValueLayout } from '../abi/plan.js';
import { assertNever } from './assert-never.js';

/** One comparable fact: a number, a string, or absent (null). */
export type Fact = string | number | null;

/** One physical slot, reduced to the properties a host depends on, in one vocabulary for every target. */
export interface SlotView {
  readonly name: string;
  readonly param: number | null;
  readonly role: string;
  readonly props: Readonly<Record<string, Fact>>;
}

export interface KernelView {
  readonly name: string;
  readonly facts: Readonly<Record<string, Fact>>;
  readonly slots: readonly SlotView[];
}

/** A plan as the diff sees it: the target, module facts, kernels. */
export interface AbiView {
  readonly target: AbiPlan['target'];
  /** The slot properties this target has: only these are compared across two targets. */
  readonly vocabulary: readonly string[];
  readonly facts: Readonly<Record<string, Fact>>;
  readonly kernels: readonly KernelView[];
}

/** Slot properties per target, in display order. */
export const SLOT_VOCABULARY: Readonly<Record<AbiPlan['target'], readonly string[]>> = {
  opencl: ['index', 'kind', 'addressSpace', 'access', 'typeName', 'size', 'layout'],
  amdhsa: ['offset', 'size', 'align', 'kind', 'addressSpace', 'access', 'pointeeAlign', 'typeName', 'layout'],
  'amd-cl2': ['offset', 'size', 'align', 'kind', 'addressSpace', 'access', 'resourceId', 'typeName', 'layout'],
  vulkan: ['kind', 'reflection', 'descriptorSet', 'binding', 'offset', 'pushConstantOffset', 'size', 'specId', 'elemSize', 'typeName', 'layout'],
  llvm: ['addressSpace', 'access', 'typeName', 'baseType', 'typeQual'],
  r600: ['offset', 'size', 'irType', 'access', 'resourceId', 'typeName', 'layout'],
};

/** A compact, name-free spelling of a value's bytes: what the host must write, and where. */
export function layoutKey(l: ValueLayout): string {
  switch (l.kind) {
    case 'scalar':
      return l.scalar;
    case 'vector':
      return `${l.element}${l.length}`;
    case 'array':
      return `${layoutKey(l.element)}[${l.length}]`;
    case 'record':
      return `${l.tagKind}{${l.fields.map((f) => `${f.offset}${f.bitWidth !== undefined ? `.${f.bitOffset}:${f.bitWidth}b` : ''}:${layoutKey(f.layout)}`).join(',')}}${l.size}`;
    default:
      return assertNever(l);
  }
}

const n = (v: number | undefined | null): Fact => (v === undefined ? null : v);
const s = (v: string | undefined | null): Fact => (v === undefined || v === '' ? null : v);
const triple = (v: readonly number[] | undefined): Fact => (v ? v.join(',') : null);
const lay = (l: ValueLayout | undefined): Fact => (l ? layoutKey(l) : null);

/** Reduces a plan to its view. */
export function abiView(plan: AbiPlan): AbiView {
  const vocabulary = SLOT_VOCABULARY[plan.target];
  switch (plan.target) {
    case 'opencl':
      return {
        target: plan.target, vocabulary, facts: { arch: plan.arch },
        kernels: plan.kernels.map((k) => ({
          name: k.name,
          facts: { reqdWorkGroupSize: triple(k.reqdWorkGroupSize), workGroupSizeHint: triple(k.workGroupSizeHint), vecTypeHint: s(k.vecTypeHint), intelReqdSubGroupSize: n(k.intelReqdSubGroupSize) },
          slots: k.args.map((a) => ({ name: a.name, param: a.param, role: a.role, props: { index: a.index, kind: a.kind, addressSpace: s(a.addressSpace), access: s(a.access), typeName: a.typeName, size: a.size, layout: lay(a.layout) } })),
        })),
      };
    case 'amdhsa':
      return {
        target: plan.target, vocabulary, facts: { codeObject: plan.codeObject, llvm: plan.llvm, mcpu: plan.mcpu },
        kernels: plan.kernels.map((k) => ({
          name: k.name,
          facts: { segmentSize: k.kernargSegmentSize, segmentAlign: k.kernargSegmentAlign },
          slots: k.args.map((a) => ({ name: a.name, param: a.param, role: a.role, props: { offset: a.offset, size: a.size, align: n(a.align), kind: a.valueKind, addressSpace: s(a.addressSpace), access: s(a.access), pointeeAlign: n(a.pointeeAlign), typeName: s(a.typeName), layout: lay(a.layout) } })),
        })),
      };
    case 'amd-cl2':
      return {
        target: plan.target, vocabulary, facts: { bits: plan.bits, driver: plan.driver, use: plan.use.join(','), gfx9: String(plan.gfx9) },
        kernels: plan.kernels.map((k) => {
          const g = k.userSgprs;
          const pair = (p: readonly [number, number] | null) => (p ? `s[${p.join(':')}]` : null);
          return {
            name: k.name,
            facts: { segmentSize: k.kernargSize, userSgprCount: g.count, setupPointerSgprs: pair(g.setupPointer), argsPointerSgprs: pair(g.argsPointer), flatBasesSgprs: pair(g.flatBasesPointer) },
            slots: k.args.map((a) => ({ name: a.name, param: a.param, role: a.role, props: { offset: a.offset, size: a.size, align: a.align, kind: a.argType, addressSpace: s(a.addressSpace), access: s(a.access), resourceId: n(a.resourceId), typeName: a.typeName, layout: lay(a.layout) } })),
          };
        }),
      };
    case 'vulkan': {
      const facts: Record<string, Fact> = { arch: plan.arch, pushConstantRange: plan.pushConstantRange ? `${plan.pushConstantRange.offset}+${plan.pushConstantRange.size}` : null, localSize: String(plan.localSize) };
      for (const d of plan.descriptorSets) facts[`descriptorSet ${d.set}`] = d.use;
      for (const p of plan.pushConstants) facts[`pushConstant ${p.name}`] = `${p.offset}+${p.size}`;
      for (const c of plan.specConstants) facts[`specConstant ${c.name}`] = c.specId;
      for (const l of plan.literalSamplers) facts[`literalSampler ${l.mask}`] = `set ${l.descriptorSet} binding ${l.binding}`;
      if (plan.constantData) facts['constantData'] = `set ${plan.constantData.descriptorSet} binding ${plan.constantData.binding} ${plan.constantData.hexbytes}`;
      for (const c of plan.capabilities) facts[`capability ${c}`] = 'required';
      for (const f of plan.vulkanFeatures) facts[`vulkanFeature ${f}`] = 'required';
      for (const e of plan.vulkanExtensions) facts[`vulkanExtension ${e}`] = 'required';
      if (plan.printf) {
        const b = plan.printf.buffer;
        facts['printfBuffer'] = b.reflection === 'PrintfBufferStorageBuffer' ? `set ${b.descriptorSet} binding ${b.binding} ${b.bufferSize} bytes` : `push constant ${b.pushConstantOffset} ${b.bufferSize} bytes`;
        for (const i of plan.printf.infos) facts[`printfInfo ${i.id}`] = `${JSON.stringify(i.format)} [${i.argSizes.join(',')}]`;
      }
      return {
        target: plan.target, vocabulary, facts,
        kernels: plan.kernels.map((k) => ({
          name: k.name,
          facts: { podPlacement: k.podPlacement, podSize: k.podPlacement === 'none' ? null : k.podSize, podOffset: n(k.podOffset), reqdWorkGroupSize: triple(k.reqdWorkGroupSize) },
          slots: [...k.args.map((a) => {
            const push = a.argKind === 'pod_pushconstant' || a.argKind === 'pointer_pushconstant';
            return {
              name: a.name, param: a.param, role: a.role,
              props: {
                kind: a.argKind, reflection: s(a.reflection), descriptorSet: n(a.descriptorSet), binding: n(a.binding), offset: push || a.argKind === 'local' ? null : n(a.offset), pushConstantOffset: push ? n(a.offset) : null,
                size: n(a.argSize), specId: n(a.specId), elemSize: n(a.arrayElemSize), typeName: a.typeName, layout: lay(a.layout),
              },
            };
          }),
          // Implicit push-constant words: image channel order/data type, normalized-sampler masks.
          ...(k.imageMetadata ?? []).map((m) => ({
            name: `${m.kind}(${m.name})`, param: null, role: 'image-format',
            props: { kind: m.kind, reflection: m.reflection, pushConstantOffset: m.pushConstantOffset, size: m.size } as Record<string, Fact>,
          }))],
        })),
      };
    }
    case 'llvm':
      return {
        target: plan.target, vocabulary, facts: { triple: plan.triple, metadata: plan.metadata },
        kernels: plan.kernels.map((k) => ({
          name: k.name,
          facts: { reqdWorkGroupSize: triple(k.reqdWorkGroupSize), workGroupSizeHint: triple(k.workGroupSizeHint), vecTypeHint: s(k.vecTypeHint), intelReqdSubGroupSize: n(k.intelReqdSubGroupSize) },
          slots: k.args.map((a) => ({ name: a.name, param: a.param, role: a.role, props: { addressSpace: a.addrSpace, access: s(a.accessQual), typeName: a.typeName, baseType: a.baseType, typeQual: s(a.typeQual) } })),
        })),
      };
    case 'r600':
      return {
        target: plan.target, vocabulary, facts: { mcpu: plan.mcpu },
        kernels: plan.kernels.map((k) => ({
          name: k.name,
          facts: { segmentSize: k.inputSize },
          slots: k.args.map((a) => ({ name: a.name, param: a.param, role: a.role, props: { offset: a.offset, size: a.size, irType: s(a.irType), access: s(a.accessQual), resourceId: n(a.resourceId), typeName: a.typeName, layout: lay(a.layout) } })),
        })),
      };
    default:
      return assertNever(plan);
  }
}
