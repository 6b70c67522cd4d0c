// The order of the keys of each plan's JSON form, declared per plan kind (the target that made it):
// the JSON emitter writes the plan, each kernel and each slot in these orders and reads nothing
// else of them, so the text does not depend on the order in which a lowering (or readPlan, or a
// binary reader) happened to write the objects' properties. test/json-key-order.test.ts checks
// that each list names every field of its plan type (and no other), so a field added to a plan
// type without a place here fails to compile.
//
// Left out everywhere: a slot's `type` (a compiler object), `where` and `fill` (they restate the
// target's own fields; readPlan attaches them again). Written elsewhere: a plan's `kernels` after
// its `plan` keys, a kernel's `name` and `args` before its `kernel` keys.

import { ptxNameOf } from '../abi/ptx-param-name.js';

/** What a cuda slot's PTX name is made of. */
type CudaNamed = Parameters<typeof ptxNameOf>[1];

/** The key orders of one kind of plan. */
export interface JsonKeyOrder {
  /** The plan's keys before `kernels`. */
  readonly plan: readonly string[];
  /** A kernel's keys after `name` and `args`. */
  readonly kernel: readonly string[];
  /** A slot of a source parameter. */
  readonly slot: readonly string[];
  /**
   * A slot without a source parameter (setup, hidden, implicit: `param: null`). amd-cl2 and r600
   * write these in an order of their own (the goldens have it: amd-cl2's setup arguments put
   * `typeName` after `argType`, r600's implicit words put `size` and `irType` before `typeName`);
   * the other targets use `slot`.
   */
  readonly implicitSlot: readonly string[];
  /**
   * A slot member made of its kernel's name where the slot leaves it out (cuda's `ptxName`, `<kernel>_param_<n>`),
   * written in its place in the slot's order: kernels of one shape then share one slot list, their JSON differing
   * only there.
   */
  readonly kernelNamed?: KernelNamedMember;
}

/** A slot member a kernel's name makes (`JsonKeyOrder.kernelNamed`). */
export interface KernelNamedMember {
  readonly key: string;
  readonly of: (kernel: string, slot: object) => string;
}

/** One order for both kinds of slot. */
function oneSlotOrder<
  const P extends readonly string[],
  const K extends readonly string[],
  const S extends readonly string[],
>(plan: P, kernel: K, slot: S): { readonly plan: P; readonly kernel: K; readonly slot: S; readonly implicitSlot: S } {
  return { plan, kernel, slot, implicitSlot: slot };
}

/** Every plan kind's key orders, keyed by the target name a plan carries in `target`. */
export const JSON_KEY_ORDER = {
  opencl: oneSlotOrder(
    ['target', 'arch'],
    ['reqdWorkGroupSize', 'workGroupSizeHint', 'vecTypeHint', 'intelReqdSubGroupSize', 'workGroupSizeChosen'],
    [
      'name',
      'param',
      'role',
      'dim',
      'host',
      'index',
      'kind',
      'typeName',
      'typeQual',
      'size',
      'addressSpace',
      'layout',
      'access',
    ],
  ),
  vulkan: oneSlotOrder(
    [
      'target',
      'arch',
      'pushConstants',
      'literalSamplers',
      'constantData',
      'specConstants',
      'localSize',
      'descriptorSets',
      'pushConstantRange',
      'capabilities',
      'spirvExtensions',
      'vulkanFeatures',
      'vulkanExtensions',
      'printf',
      'workgroupVariables',
    ],
    ['podPlacement', 'podSize', 'podOffset', 'reqdWorkGroupSize', 'imageMetadata', 'mayUsePrintf'],
    [
      'name',
      'param',
      'role',
      'dim',
      'host',
      'typeName',
      'argKind',
      'descriptorSet',
      'binding',
      'offset',
      'argSize',
      'vkDescriptorType',
      'layout',
      'specId',
      'arrayElemSize',
      'reflection',
      'pointerTable',
    ],
  ),
  amdhsa: oneSlotOrder(
    ['target', 'codeObject', 'llvm', 'mcpu'],
    ['kernargSegmentSize', 'kernargSegmentAlign', 'hiddenBytes'],
    [
      'name',
      'param',
      'typeName',
      'role',
      'dim',
      'host',
      'offset',
      'size',
      'valueKind',
      'addressSpace',
      'layout',
      'access',
      'pointeeAlign',
      'align',
    ],
  ),
  'amd-cl2': {
    plan: ['target', 'bits', 'driver', 'use', 'gfx9', 'setupBuffer'],
    kernel: ['kernargSize', 'userSgprs'],
    slot: [
      'name',
      'param',
      'typeName',
      'role',
      'dim',
      'host',
      'offset',
      'size',
      'align',
      'argType',
      'addressSpace',
      'access',
      'resourceId',
      'structSize',
      'layout',
      'qualifiers',
    ],
    implicitSlot: ['name', 'param', 'role', 'offset', 'size', 'align', 'argType', 'typeName', 'addressSpace'],
  },
  llvm: oneSlotOrder(
    ['target', 'triple', 'metadata'],
    ['reqdWorkGroupSize', 'workGroupSizeHint', 'vecTypeHint', 'intelReqdSubGroupSize'],
    ['name', 'param', 'role', 'dim', 'host', 'addrSpace', 'accessQual', 'typeName', 'baseType', 'typeQual'],
  ),
  r600: {
    plan: ['target', 'mcpu'],
    kernel: ['inputSize'],
    slot: [
      'name',
      'param',
      'role',
      'dim',
      'host',
      'typeName',
      'size',
      'irType',
      'accessQual',
      'resourceId',
      'layout',
      'offset',
    ],
    implicitSlot: ['name', 'param', 'role', 'size', 'irType', 'typeName', 'image', 'fields', 'offset'],
  },
  cuda: {
    ...oneSlotOrder(
      ['target', 'arch', 'sm', 'localMemory'],
      ['paramBytes', 'dynamicShared'],
      [
        'name',
        'param',
        'role',
        'dim',
        'host',
        'ptxName',
        'index',
        'offset',
        'size',
        'align',
        'ptxType',
        'space',
        'pointeeAlign',
        'typeName',
        'layout',
      ],
    ),
    kernelNamed: { key: 'ptxName', of: (kernel, slot) => ptxNameOf(kernel, slot as CudaNamed) },
  },
  zebin: oneSlotOrder(
    ['target', 'device', 'privateMemory'],
    ['payloadSize'],
    [
      'name',
      'param',
      'role',
      'dim',
      'host',
      'argType',
      'offset',
      'size',
      'argIndex',
      'addrmode',
      'addrspace',
      'accessType',
      'bindingTable',
      'imageType',
      'samplerIndex',
      'imageTransformable',
      'slmAlignment',
      'pieces',
      'typeName',
      'layout',
      'access',
    ],
  ),
} as const satisfies Record<string, JsonKeyOrder>;

/** The kinds of plan the JSON emitter writes: the targets' names. */
export type PlanKind = keyof typeof JSON_KEY_ORDER;

/** The key orders of a plan's kind; a plan of a kind not declared above is a programming error, not an input error. */
export function keyOrderOf(target: string): JsonKeyOrder {
  if (!Object.hasOwn(JSON_KEY_ORDER, target))
    throw new Error(`the JSON emitter declares no key order for plans of target '${target}'`);
  return JSON_KEY_ORDER[target as PlanKind];
}
