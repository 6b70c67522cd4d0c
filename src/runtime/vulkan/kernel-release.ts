// What a Vulkan kernel has made (pipelines, layouts, pool, shader, query pool, fence, command
// buffers, POD buffers) and its release, on dispose, collection, or a failed construction.
import type { Arena } from './arena.js';
import type { VulkanBuffer, VulkanContext } from './context.js';
import type { VkHandle } from './vk.js';

/** What a kernel has made so far, to release on dispose, collection, or a failed construction. */
export interface Made {
  pool?: VkHandle;
  layout?: VkHandle;
  shader?: VkHandle;
  fence?: VkHandle;
  query?: VkHandle;
  sets: VkHandle[];
  pipelines: Map<string, VkHandle>;
  cbs: VkHandle[];
  pods: VulkanBuffer[];
}

/**
 * The release of a kernel's objects, made outside its constructor: a closure made there would
 * share the constructor's scope, which holds `this`, and keep every kernel alive.
 */
export function releaser(ctx: VulkanContext, made: Made, arena: Arena): () => void {
  const { vk, vkDevice: device } = ctx;
  return () => {
    // A queued launch may still use the command buffers, sets and pipelines.
    ctx.finish();
    for (const p of made.pipelines.values()) vk.DestroyPipeline(device, p, null);
    if (made.layout) vk.DestroyPipelineLayout(device, made.layout, null);
    if (made.pool) vk.DestroyDescriptorPool(device, made.pool, null);
    for (const l of made.sets) vk.DestroyDescriptorSetLayout(device, l, null);
    if (made.shader) vk.DestroyShaderModule(device, made.shader, null);
    if (made.query) vk.DestroyQueryPool(device, made.query, null);
    if (made.fence) vk.DestroyFence(device, made.fence, null);
    for (const cb of made.cbs) ctx.freeCommandBuffer(cb);
    for (const b of made.pods) b.dispose();
    arena.free();
  };
}
