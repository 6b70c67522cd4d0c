// The layouts of one entry point's resources, made once per kernel: a descriptor set layout per set
// up to the highest it binds (empty where a set is unused), the pipeline layout with the module's
// push-constant range, and a descriptor pool with room for every recording's sets.
import type { VulkanKernelPlan, VulkanPlan } from '../../targets/vulkan/lower.js';
import type { Arena } from './arena.js';
import { type VulkanContext } from './context.js';
import { SHADER_STAGE_COMPUTE } from './stage-flags.js';
import type { Made } from './kernel-release.js';
import { ST, structs as S } from './structs.js';
import { type VkHandle, check } from './vk.js';

export const DESCRIPTOR_TYPE: Record<string, number> = { buffer: 7, pod: 7, buffer_ubo: 6, pod_ubo: 6, pointer_ubo: 6 };

/** Recordings a kernel keeps: launches alternating among this many states (buffers, geometry, PODs) record nothing. */
export const RECORDINGS = 4;

export interface KernelLayouts {
  readonly setLayouts: VkHandle[];
  /** The set layouts' handles as an array in the arena (what vkAllocateDescriptorSets reads). */
  readonly layouts: bigint;
  readonly nSets: number;
  readonly layout: VkHandle;
  /** 0n where the kernel binds no descriptor. */
  readonly pool: VkHandle;
  readonly bindings: { readonly set: number; readonly binding: number; readonly type: number }[];
}

/** The layouts of kernel `k`, each handle also recorded in `made` (released there on failure too). */
export function createLayouts(
  ctx: VulkanContext,
  a: Arena,
  k: VulkanKernelPlan,
  plan: VulkanPlan,
  made: Made,
): KernelLayouts {
  const { vk, vkDevice: device } = ctx;
  const out = a.alloc(8);
  const setLayouts: VkHandle[] = [];
  const bindings: KernelLayouts['bindings'] = [];
  let pool: VkHandle = 0n;
  // One layout per set up to the highest this kernel binds (empty where a set is unused).
  const descriptorArgs = k.args.filter(
    (x) =>
      x.descriptorSet !== undefined &&
      x.binding !== undefined &&
      !x.argKind.endsWith('_pushconstant') &&
      x.argKind !== 'local',
  );
  const bySlot = new Map<string, (typeof descriptorArgs)[number]>();
  for (const x of descriptorArgs) bySlot.set(`${x.descriptorSet}:${x.binding}`, x);
  const unique = [...bySlot.values()];
  const nSets = unique.length ? Math.max(...unique.map((x) => x.descriptorSet!)) + 1 : 0;
  for (let s = 0; s < nSets; s++) {
    const inSet = unique.filter((x) => x.descriptorSet === s);
    const layoutBindings = a.array(
      S().VkDescriptorSetLayoutBinding,
      inSet.map((x) => ({
        binding: x.binding!,
        descriptorType: DESCRIPTOR_TYPE[x.argKind],
        descriptorCount: 1,
        stageFlags: SHADER_STAGE_COMPUTE,
        pImmutableSamplers: 0n,
      })),
    );
    check(
      vk.CreateDescriptorSetLayout(
        device,
        a.put(S().VkDescriptorSetLayoutCreateInfo, {
          sType: ST.DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
          pNext: 0n,
          flags: 0,
          bindingCount: inSet.length,
          pBindings: layoutBindings,
        }),
        null,
        out,
      ),
      'vkCreateDescriptorSetLayout',
    );
    made.sets.push(a.u64(out));
    setLayouts.push(a.u64(out));
  }
  const layouts = a.array('void *', setLayouts);
  const range = plan.pushConstantRange;
  const pcr = range
    ? a.put(S().VkPushConstantRange, { stageFlags: SHADER_STAGE_COMPUTE, offset: range.offset, size: range.size })
    : 0n;
  check(
    vk.CreatePipelineLayout(
      device,
      a.put(S().VkPipelineLayoutCreateInfo, {
        sType: ST.PIPELINE_LAYOUT_CREATE_INFO,
        pNext: 0n,
        flags: 0,
        setLayoutCount: nSets,
        pSetLayouts: layouts,
        pushConstantRangeCount: range ? 1 : 0,
        pPushConstantRanges: pcr,
      }),
      null,
      out,
    ),
    'vkCreatePipelineLayout',
  );
  const layout = (made.layout = a.u64(out));
  if (nSets) {
    // Room for every recording's sets.
    const counts = new Map<number, number>();
    for (const x of unique)
      counts.set(DESCRIPTOR_TYPE[x.argKind], (counts.get(DESCRIPTOR_TYPE[x.argKind]) ?? 0) + RECORDINGS);
    const sizes = a.array(
      S().VkDescriptorPoolSize,
      [...counts].map(([type, descriptorCount]) => ({ type, descriptorCount })),
    );
    check(
      vk.CreateDescriptorPool(
        device,
        a.put(S().VkDescriptorPoolCreateInfo, {
          sType: ST.DESCRIPTOR_POOL_CREATE_INFO,
          pNext: 0n,
          flags: 0,
          maxSets: nSets * RECORDINGS,
          poolSizeCount: counts.size,
          pPoolSizes: sizes,
        }),
        null,
        out,
      ),
      'vkCreateDescriptorPool',
    );
    pool = made.pool = a.u64(out);
    for (const x of unique)
      bindings.push({ set: x.descriptorSet!, binding: x.binding!, type: DESCRIPTOR_TYPE[x.argKind] });
  }
  return { setLayouts, layouts, nSets, layout, pool, bindings };
}
