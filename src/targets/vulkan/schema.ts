import { PlanError, arrayOf, bool, ident, nat, object, oneOf, planReader, str } from '../../abi/plan-schema.js';
import {
  MAX_ARGUMENT_BYTES,
  bytes,
  checkKernels,
  layoutCheck,
  slotBase,
  slotExtra,
  storeBytes,
  wg,
} from '../../abi/plan-fields.js';
import { CLSPV_REFLECTION, type ClspvReflectionName } from '../../emit/spirv/clspv-instructions.js';
import type { VulkanPlan } from './plan.js';
import { placeVulkanKernel } from './placement.js';

const reflection = oneOf(Object.keys(CLSPV_REFLECTION) as ClspvReflectionName[]);
const printfBuffer = (v: unknown, path: string) =>
  (v as { reflection?: unknown } | null)?.reflection === 'PrintfBufferPointerPushConstant'
    ? object({
        reflection: oneOf(['PrintfBufferPointerPushConstant']),
        pushConstantOffset: nat(),
        size: oneOf([8]),
        bufferSize: nat(),
      })(v, path)
    : object({
        reflection: oneOf(['PrintfBufferStorageBuffer']),
        descriptorSet: nat(),
        binding: oneOf([0]),
        bufferSize: nat(),
      })(v, path);

const constantVariables = arrayOf(object({ name: str(), offset: nat(), size: nat() }));
const constantData = (v: unknown, path: string) =>
  (v as { reflection?: unknown } | null)?.reflection === 'ConstantDataPointerPushConstant'
    ? object({
        reflection: oneOf(['ConstantDataPointerPushConstant']),
        pushConstantOffset: nat(),
        size: oneOf([8]),
        hexbytes: str(1 << 26),
        variables: constantVariables,
      })(v, path)
    : object({
        descriptorSet: nat(),
        binding: nat(),
        kind: oneOf(['buffer']),
        hexbytes: str(1 << 26),
        variables: constantVariables,
      })(v, path);

const schema = object(
  {
    target: oneOf(['vulkan']),
    arch: oneOf(['spir', 'spir64']),
    pushConstants: arrayOf(object({ name: str(), offset: nat(), size: nat() })),
    literalSamplers: arrayOf(
      object({ mask: nat(), expr: str(), descriptorSet: nat(), binding: nat() }, { name: ident }),
    ),
    specConstants: arrayOf(object({ name: str(), specId: nat() })),
    localSize: bool,
    descriptorSets: arrayOf(object({ set: nat(), use: str() })),
    capabilities: arrayOf(str()),
    spirvExtensions: arrayOf(str()),
    vulkanFeatures: arrayOf(str()),
    vulkanExtensions: arrayOf(str()),
    kernels: arrayOf(
      object(
        {
          name: ident,
          args: arrayOf(
            object(
              {
                ...slotBase,
                argKind: oneOf([
                  'buffer',
                  'buffer_ubo',
                  'pod',
                  'pod_ubo',
                  'pod_pushconstant',
                  'pointer_pushconstant',
                  'pointer_ubo',
                  'ro_image',
                  'wo_image',
                  'storage_texel_buffer',
                  'uniform_texel_buffer',
                  'sampler',
                  'local',
                ]),
                typeName: str(),
              },
              {
                ...slotExtra,
                descriptorSet: nat(),
                binding: nat(),
                offset: bytes,
                argSize: bytes,
                specId: nat(),
                arrayElemSize: nat(1, MAX_ARGUMENT_BYTES),
                vkDescriptorType: str(),
                reflection,
                pointerTable: oneOf(['PhysicalStorageBuffer64']),
                layout: layoutCheck,
              },
            ),
          ),
          podPlacement: oneOf(['ssbo', 'ubo', 'pushconstant', 'none']),
          podSize: bytes,
        },
        {
          reqdWorkGroupSize: wg,
          podOffset: nat(),
          mayUsePrintf: bool,
          imageMetadata: arrayOf(
            object({
              kind: oneOf(['channel_order', 'channel_data_type', 'normalized_sampler_mask']),
              param: nat(0, 1 << 16),
              name: str(),
              index: nat(),
              reflection,
              pushConstantOffset: nat(),
              size: oneOf([4]),
            }),
          ),
        },
      ),
    ),
  },
  {
    printf: object({
      buffer: printfBuffer,
      infos: arrayOf(
        object({ id: nat(), format: str(1 << 16), argSizes: arrayOf(nat()), reflection: oneOf(['PrintfInfo']) }),
      ),
    }),
    constantData,
    pushConstantRange: object({ offset: nat(), size: nat() }),
    workgroupVariables: arrayOf(
      object({
        reflection: oneOf(['WorkgroupVariableSize']),
        size: nat(),
        variables: arrayOf(object({ kernel: ident, name: ident, typeName: str() })),
      }),
    ),
  },
);

const readJson = planReader<VulkanPlan>()(schema, true);

/**
 * A vulkan plan from its JSON form: PODs and pointers inside the POD block, descriptors with a set and binding, locals
 * with a spec id.
 */
export function readVulkanPlan(json: unknown): VulkanPlan {
  const plan = readJson(json, '');
  // What each set:binding of the kernel holds: the POD block's bytes (shared by its PODs) or one
  // resource alone; a plan that puts both, or two resources, at one binding cannot be packed.
  let held = new Map<string, 'bytes' | 'resource'>();
  // Global push-constant PODs start at podOffset, and their offsets include it.
  checkKernels(
    plan.kernels,
    (k) => (k.podOffset ?? 0) + k.podSize,
    (s, p, ai, fits) => {
      if (ai === 0) held = new Map();
      const pod = (s.argKind as string).startsWith('pod');
      if (pod && (!s.layout || s.offset === undefined || s.argSize === undefined))
        throw new PlanError(p, 'a POD argument needs a layout, an offset and an argSize');
      if (pod) fits(s.offset, storeBytes(s.layout!), 'POD block');
      if (pod && storeBytes(s.layout!) > (s.argSize as number))
        throw new PlanError(
          `${p}.layout`,
          `${storeBytes(s.layout!)} bytes of layout in a ${s.argSize as number}-byte argument`,
        );
      const pointer = s.argKind === 'pointer_pushconstant' || s.argKind === 'pointer_ubo';
      if (pointer && s.offset === undefined) throw new PlanError(p, 'a pointer argument needs an offset');
      if (pointer) fits(s.offset, 8, 'POD block');
      if (s.argKind === 'local' && (s.specId === undefined || s.arrayElemSize === undefined))
        throw new PlanError(p, 'a local argument needs specId and arrayElemSize');
      if (s.argKind !== 'local' && !pointer && !pod && (s.descriptorSet === undefined || s.binding === undefined))
        throw new PlanError(p, 'a descriptor needs descriptorSet and binding');
      const inBinding = s.argKind === 'pod' || s.argKind === 'pod_ubo' || s.argKind === 'pointer_ubo';
      if (
        s.argKind === 'local' ||
        s.argKind === 'pod_pushconstant' ||
        s.argKind === 'pointer_pushconstant' ||
        s.descriptorSet === undefined ||
        s.binding === undefined
      )
        return;
      const key = `${s.descriptorSet as number}:${s.binding as number}`;
      const what = inBinding ? 'bytes' : 'resource';
      const before = held.get(key);
      if (before !== undefined && (before !== what || what === 'resource'))
        throw new PlanError(
          `${p}.binding`,
          `binding ${key} already holds ${before === 'bytes' ? 'the POD block' : 'a resource'}`,
        );
      held.set(key, what);
    },
  );
  return { ...plan, kernels: plan.kernels.map(placeVulkanKernel) };
}
