/* The Vulkan launch benchmark's C host (bench/vulkan-launch.ts): the calls kernarg's Vulkan host
 * makes for one kernel, from C. It loads the SPIR-V module kernarg emitted, binds a 1024-byte
 * storage buffer and the POD block (its bytes as kernarg's packer wrote them, given in hex) in a
 * host-visible buffer of its own, makes the pipeline with the work-group size as spec constants
 * 0-2, and records one command buffer (simultaneous use) as kernarg records one: barrier, bind
 * pipeline, bind set, dispatch, barrier (timed: a query-pool reset and a timestamp either side).
 * sync and timed: per launch vkQueueSubmit with a fence, vkWaitForFences polled with a zero timeout (at most
 * 2000 times, then blocking), vkResetFences (timed: vkGetQueryPoolResults after it); block: as sync, but only the
 * blocking vkWaitForFences. async: the command buffer queued <launches> times, a vkQueueSubmit without a fence of
 * <batch> of them at a time (as kernarg's batch, src/runtime/vulkan/batch.ts: the handle written into a list, the
 * list submitted when full and before the wait; batch 1: a submit per launch), then one vkQueueWaitIdle. onecb: as
 * async, but <batch> launches recorded into one command buffer, submitted once per <batch> launches (not kernarg's
 * path: what recording a batch into one command buffer would save). record: as kernarg's recordBatch (see ENQUEUE).
 * secondary: as kernarg's recordBatch 'secondary': the launch recorded once into a secondary command buffer (barrier,
 * bind pipeline, bind set, dispatch; simultaneous use), each queued launch its handle written into a list, the batch
 * a ring command buffer of one vkCmdExecuteCommands of the list and a barrier (see SUBMIT_BATCH). Prints "<mode> <microseconds per launch> <CPU microseconds per launch>" (user + system time
 * of every thread of the process, the driver's included: the figure a loaded machine disturbs least).
 * Usage: host <launches> <module.spv> <entry> sync|block|timed|async|onecb|record|secondary <device substring> <buffer binding>
 *        <POD binding> <POD bytes in hex> [<batch>: async launches per submit, 1 to 4096, default 1]
 * Build: cc -O2 -I<vulkan headers' parent> -o host vulkan-launch-host.c <libvulkan.so.1> */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <vulkan/vulkan.h>

#define CK(call) do { VkResult r_ = (call); if (r_) { fprintf(stderr, "%s failed: %d\n", #call, r_); return 1; } } while (0)

static uint32_t memoryType(VkPhysicalDeviceMemoryProperties *m, uint32_t bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback) {
  for (int pass = 0; pass < 2; pass++) {
    VkMemoryPropertyFlags f = pass ? fallback : want;
    for (uint32_t i = 0; i < m->memoryTypeCount; i++) if ((bits & (1u << i)) && (m->memoryTypes[i].propertyFlags & f) == f) return i;
  }
  return UINT32_MAX;
}

/* A buffer with its memory, as kernarg's VulkanContext.buffer makes one (device addresses where enabled). */
static int makeBuffer(VkDevice dev, VkPhysicalDeviceMemoryProperties *mp, VkDeviceSize size, int host, int bda, VkBuffer *buf, VkDeviceMemory *mem, void **mapped) {
  VkBufferCreateInfo bi = { VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, 0, 0, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | (bda ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0), VK_SHARING_MODE_EXCLUSIVE, 0, 0 };
  CK(vkCreateBuffer(dev, &bi, 0, buf));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, *buf, &req);
  VkMemoryPropertyFlags hostFlags = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = host ? memoryType(mp, req.memoryTypeBits, hostFlags | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, hostFlags) : memoryType(mp, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  if (type == UINT32_MAX) { fprintf(stderr, "no memory type\n"); return 1; }
  VkMemoryAllocateFlagsInfo fi = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, 0, VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, 0 };
  VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, bda ? &fi : 0, req.size, type };
  CK(vkAllocateMemory(dev, &ai, 0, mem));
  CK(vkBindBufferMemory(dev, *buf, *mem, 0));
  *mapped = 0;
  if ((mp->memoryTypes[type].propertyFlags & hostFlags) == hostFlags) CK(vkMapMemory(dev, *mem, 0, VK_WHOLE_SIZE, 0, mapped));
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 9) { fprintf(stderr, "usage: %s <launches> <module.spv> <entry> sync|block|timed|async|onecb|record|secondary <device> <buffer binding> <POD binding> <POD hex> [batch]\n", argv[0]); return 2; }
  int n = atoi(argv[1]);
  int batch = argc > 9 ? atoi(argv[9]) : 1;
  if (batch < 1 || batch > 4096) { fprintf(stderr, "batch must be 1 to 4096\n"); return 2; }
  const char *mode = argv[4], *match = argv[5];
  int onecb = !strcmp(mode, "onecb"), rec = !strcmp(mode, "record"), sec = !strcmp(mode, "secondary");
  int async = !strcmp(mode, "async") || onecb || rec || sec, timed = !strcmp(mode, "timed"), block = !strcmp(mode, "block");
  uint32_t bufBinding = (uint32_t)atoi(argv[6]), podBinding = (uint32_t)atoi(argv[7]);
  size_t podLen = strlen(argv[8]) / 2;
  uint8_t pod[4096];
  if (podLen > sizeof pod) { fprintf(stderr, "POD block too large\n"); return 2; }
  for (size_t i = 0; i < podLen; i++) { unsigned v; sscanf(argv[8] + 2 * i, "%2x", &v); pod[i] = (uint8_t)v; }
  FILE *f = fopen(argv[2], "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", argv[2]); return 1; }
  static uint32_t code[1 << 20];
  size_t codeSize = fread(code, 1, sizeof code, f);
  fclose(f);

  VkApplicationInfo app = { VK_STRUCTURE_TYPE_APPLICATION_INFO, 0, "vulkan-launch-host", 1, "kernarg-bench", 1, VK_API_VERSION_1_2 };
  VkInstanceCreateInfo ii = { VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, 0, 0, &app, 0, 0, 0, 0 };
  VkInstance inst;
  CK(vkCreateInstance(&ii, 0, &inst));
  VkPhysicalDevice pds[16];
  uint32_t np = 16;
  CK(vkEnumeratePhysicalDevices(inst, &np, pds));
  VkPhysicalDevice pd = 0;
  VkPhysicalDeviceProperties props;
  for (uint32_t i = 0; i < np && !pd; i++) {
    vkGetPhysicalDeviceProperties(pds[i], &props);
    fprintf(stderr, "device: %s\n", props.deviceName);
    if (!*match || strcasestr(props.deviceName, match)) pd = pds[i];
  }
  if (!pd) { fprintf(stderr, "no Vulkan device matches '%s'\n", match); return 1; }
  vkGetPhysicalDeviceProperties(pd, &props);
  int cpu = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  /* The features kernarg's context enables where the device has them (context.ts KERNARG_FEATURES, float atomics aside). */
  VkPhysicalDeviceVulkan12Features f12 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
  VkPhysicalDeviceVulkan11Features f11 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12 };
  VkPhysicalDeviceFeatures2 f2 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11 };
  vkGetPhysicalDeviceFeatures2(pd, &f2);
  VkPhysicalDeviceVulkan12Features e12 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
  e12.shaderInt8 = f12.shaderInt8; e12.storageBuffer8BitAccess = f12.storageBuffer8BitAccess;
  e12.uniformAndStorageBuffer8BitAccess = f12.uniformAndStorageBuffer8BitAccess; e12.storagePushConstant8 = f12.storagePushConstant8;
  e12.bufferDeviceAddress = f12.bufferDeviceAddress; e12.shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics;
  e12.shaderSharedInt64Atomics = f12.shaderSharedInt64Atomics; e12.vulkanMemoryModel = f12.vulkanMemoryModel;
  e12.vulkanMemoryModelDeviceScope = f12.vulkanMemoryModelDeviceScope;
  VkPhysicalDeviceVulkan11Features e11 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &e12 };
  e11.storageBuffer16BitAccess = f11.storageBuffer16BitAccess; e11.uniformAndStorageBuffer16BitAccess = f11.uniformAndStorageBuffer16BitAccess;
  e11.storagePushConstant16 = f11.storagePushConstant16; e11.variablePointersStorageBuffer = f11.variablePointersStorageBuffer;
  e11.variablePointers = f11.variablePointers;
  VkPhysicalDeviceFeatures2 e2 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &e11 };
  e2.features.shaderInt16 = f2.features.shaderInt16; e2.features.shaderInt64 = f2.features.shaderInt64; e2.features.shaderFloat64 = f2.features.shaderFloat64;
  int bda = e12.bufferDeviceAddress;
  VkQueueFamilyProperties qf[16];
  uint32_t nq = 16, family = UINT32_MAX;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
  for (uint32_t i = 0; i < nq; i++) if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) { family = i; break; }
  if (family == UINT32_MAX) { fprintf(stderr, "no compute queue\n"); return 1; }
  float priority = 1;
  VkDeviceQueueCreateInfo qi = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, 0, 0, family, 1, &priority };
  VkDeviceCreateInfo di = { VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &e2, 0, 1, &qi, 0, 0, 0, 0, 0 };
  VkDevice dev;
  CK(vkCreateDevice(pd, &di, 0, &dev));
  VkQueue q;
  vkGetDeviceQueue(dev, family, 0, &q);
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);

  /* The storage buffer, and the POD block in a host-visible buffer of its own at offset 0. */
  VkBuffer buf, podBuf;
  VkDeviceMemory bufMem, podMem;
  void *bufMap, *podMap;
  VkDeviceSize align = props.limits.minStorageBufferOffsetAlignment > props.limits.minUniformBufferOffsetAlignment ? props.limits.minStorageBufferOffsetAlignment : props.limits.minUniformBufferOffsetAlignment;
  if (align < 4) align = 4;
  VkDeviceSize podSlice = ((podLen < 4 ? 4 : podLen) + align - 1) / align * align;
  if (makeBuffer(dev, &mp, 1024, 0, bda, &buf, &bufMem, &bufMap) || makeBuffer(dev, &mp, podSlice, 1, bda, &podBuf, &podMem, &podMap)) return 1;
  memcpy(podMap, pod, podLen);

  VkShaderModuleCreateInfo si = { VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, 0, 0, codeSize, code };
  VkShaderModule sm;
  CK(vkCreateShaderModule(dev, &si, 0, &sm));
  VkDescriptorSetLayoutBinding lb[2] = {
    { bufBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, 0 },
    { podBinding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, 0 },
  };
  VkDescriptorSetLayoutCreateInfo li = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, 0, 0, 2, lb };
  VkDescriptorSetLayout dsl;
  CK(vkCreateDescriptorSetLayout(dev, &li, 0, &dsl));
  VkPipelineLayoutCreateInfo pli = { VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, 0, 0, 1, &dsl, 0, 0 };
  VkPipelineLayout pl;
  CK(vkCreatePipelineLayout(dev, &pli, 0, &pl));
  VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 };
  VkDescriptorPoolCreateInfo dpi = { VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, 0, 0, 1, 1, &ps };
  VkDescriptorPool dp;
  CK(vkCreateDescriptorPool(dev, &dpi, 0, &dp));
  VkDescriptorSetAllocateInfo dai = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, 0, dp, 1, &dsl };
  VkDescriptorSet ds;
  CK(vkAllocateDescriptorSets(dev, &dai, &ds));
  VkDescriptorBufferInfo infos[2] = { { buf, 0, VK_WHOLE_SIZE }, { podBuf, 0, podSlice } };
  VkWriteDescriptorSet w[2] = {
    { VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, 0, ds, bufBinding, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, &infos[0], 0 },
    { VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, 0, ds, podBinding, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, &infos[1], 0 },
  };
  vkUpdateDescriptorSets(dev, 2, w, 0, 0);
  /* The work-group size (1, 1, 1) as spec constants 0-2, as kernarg specializes this module. */
  uint32_t spec[3] = { 1, 1, 1 };
  VkSpecializationMapEntry me[3] = { { 0, 0, 4 }, { 1, 4, 4 }, { 2, 8, 4 } };
  VkSpecializationInfo spi = { 3, me, sizeof spec, spec };
  VkComputePipelineCreateInfo cpi = { VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, 0, 0,
    { VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, 0, 0, VK_SHADER_STAGE_COMPUTE_BIT, sm, argv[3], &spi }, pl, 0, -1 };
  VkPipeline pipe;
  CK(vkCreateComputePipelines(dev, 0, 1, &cpi, 0, &pipe));
  VkQueryPoolCreateInfo qpi = { VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, 0, 0, VK_QUERY_TYPE_TIMESTAMP, 2, 0 };
  VkQueryPool qp;
  CK(vkCreateQueryPool(dev, &qpi, 0, &qp));
  VkCommandPoolCreateInfo cpoi = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, 0, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, family };
  VkCommandPool cpool;
  CK(vkCreateCommandPool(dev, &cpoi, 0, &cpool));
  VkCommandBufferAllocateInfo cai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, 0, cpool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1 };
  VkCommandBuffer cb;
  CK(vkAllocateCommandBuffers(dev, &cai, &cb));
  VkFenceCreateInfo fci = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, 0, 0 };
  VkFence fence;
  CK(vkCreateFence(dev, &fci, 0, &fence));

  /* The command buffer, recorded once. */
  VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT;
  VkMemoryBarrier mb = { VK_STRUCTURE_TYPE_MEMORY_BARRIER, 0, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT,
    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT };
  VkCommandBufferBeginInfo cbi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, 0, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, 0 };
  CK(vkBeginCommandBuffer(cb, &cbi));
  if (timed) vkCmdResetQueryPool(cb, qp, 0, 2);
  vkCmdPipelineBarrier(cb, stages, stages, 0, 1, &mb, 0, 0, 0, 0);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, 0);
  if (timed) vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
  vkCmdDispatch(cb, 1, 1, 1);
  if (timed) vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 1);
  vkCmdPipelineBarrier(cb, stages, stages, 0, 1, &mb, 0, 0, 0, 0);
  CK(vkEndCommandBuffer(cb));
  if (onecb) {
    /* onecb: what kernarg does not do, for comparison: <batch> launches recorded into one command buffer (each its
     * barrier, bind pipeline, bind set, dispatch, barrier), submitted as one command buffer per batch. */
    VkCommandBuffer many;
    CK(vkAllocateCommandBuffers(dev, &cai, &many));
    CK(vkBeginCommandBuffer(many, &cbi));
    for (int i = 0; i < batch; i++) {
      vkCmdPipelineBarrier(many, stages, stages, 0, 1, &mb, 0, 0, 0, 0);
      vkCmdBindPipeline(many, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
      vkCmdBindDescriptorSets(many, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, 0);
      vkCmdDispatch(many, 1, 1, 1);
      vkCmdPipelineBarrier(many, stages, stages, 0, 1, &mb, 0, 0, 0, 0);
    }
    CK(vkEndCommandBuffer(many));
    cb = many;
    n = (n + batch - 1) / batch;
    batch = 1;
  }
  VkSubmitInfo sub = { VK_STRUCTURE_TYPE_SUBMIT_INFO, 0, 0, 0, 0, 1, &cb, 0, 0 };
  /* async: the queued launches' command buffers, submitted <batch> at a time. */
  static VkCommandBuffer queued[4096];
  int nQueued = 0;
  VkSubmitInfo batchSub = { VK_STRUCTURE_TYPE_SUBMIT_INFO, 0, 0, 0, 0, 0, queued, 0, 0 };
  /* record: as kernarg's recordBatch (src/runtime/vulkan/batch.ts): each launch's commands (barrier, bind pipeline,
   * bind set, dispatch) recorded into the batch's command buffer, one of a ring of four, each with a fence waited on
   * (and reset) before it is begun again; a barrier closes the batch, submitted as one command buffer. */
  VkCommandBuffer ring[4];
  VkFence ringFence[4];
  int ringFenced[4] = { 0, 0, 0, 0 }, slot = 0;
  VkCommandBufferBeginInfo once = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, 0, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, 0 };
  if (rec || sec) for (int i = 0; i < 4; i++) { CK(vkAllocateCommandBuffers(dev, &cai, &ring[i])); CK(vkCreateFence(dev, &fci, 0, &ringFence[i])); }
  /* secondary: the launch's commands recorded once into a secondary command buffer (simultaneous use: it runs many
   * times in one batch and in batches in flight), as kernarg's src/runtime/vulkan/secondary.ts. */
  VkCommandBuffer second = VK_NULL_HANDLE;
  if (sec) {
    VkCommandBufferAllocateInfo sai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, 0, cpool, VK_COMMAND_BUFFER_LEVEL_SECONDARY, 1 };
    CK(vkAllocateCommandBuffers(dev, &sai, &second));
    VkCommandBufferInheritanceInfo inh = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, 0, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, VK_FALSE, 0, 0 };
    VkCommandBufferBeginInfo sbi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, 0, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT, &inh };
    CK(vkBeginCommandBuffer(second, &sbi));
    vkCmdPipelineBarrier(second, stages, stages, 0, 1, &mb, 0, 0, 0, 0);
    vkCmdBindPipeline(second, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(second, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, 0);
    vkCmdDispatch(second, 1, 1, 1);
    CK(vkEndCommandBuffer(second));
  }
  /* record and secondary: the ring's next command buffer begun, once the submission that last used it has finished. */
#define BEGIN_RING() do { if (ringFenced[slot]) { CK(vkWaitForFences(dev, 1, &ringFence[slot], VK_TRUE, UINT64_MAX)); CK(vkResetFences(dev, 1, &ringFence[slot])); ringFenced[slot] = 0; } \
    CK(vkBeginCommandBuffer(ring[slot], &once)); } while (0)
#define SUBMIT_BATCH() do { if (rec || sec) { if (sec) { BEGIN_RING(); vkCmdExecuteCommands(ring[slot], nQueued, queued); } \
    vkCmdPipelineBarrier(ring[slot], stages, stages, 0, 1, &mb, 0, 0, 0, 0); CK(vkEndCommandBuffer(ring[slot])); \
    queued[0] = ring[slot]; batchSub.commandBufferCount = 1; nQueued = 0; ringFenced[slot] = 1; CK(vkQueueSubmit(q, 1, &batchSub, ringFence[slot])); slot = (slot + 1) % 4; } \
    else { batchSub.commandBufferCount = nQueued; nQueued = 0; CK(vkQueueSubmit(q, 1, &batchSub, VK_NULL_HANDLE)); } } while (0)
#define ENQUEUE() do { if (rec) { if (nQueued == 0) BEGIN_RING(); VkCommandBuffer r_ = ring[slot]; vkCmdPipelineBarrier(r_, stages, stages, 0, 1, &mb, 0, 0, 0, 0); \
    vkCmdBindPipeline(r_, VK_PIPELINE_BIND_POINT_COMPUTE, pipe); vkCmdBindDescriptorSets(r_, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0, 0); vkCmdDispatch(r_, 1, 1, 1); nQueued++; } \
    else if (sec) { queued[nQueued++] = second; } \
    else { queued[nQueued++] = cb; } \
    if (nQueued == batch) SUBMIT_BATCH(); } while (0)
#define FINISH() do { if (nQueued) SUBMIT_BATCH(); CK(vkQueueWaitIdle(q)); } while (0)

  struct timespec a, b;
  struct rusage ra, rb;
  uint64_t t[2];
  if (async) {
    for (int i = 0; i < (onecb ? 16 : 1000); i++) ENQUEUE();
    FINISH();
    clock_gettime(CLOCK_MONOTONIC, &a);
    getrusage(RUSAGE_SELF, &ra);
    for (int i = 0; i < n; i++) ENQUEUE();
    FINISH();
  } else for (int i = 0; i < n + 1000; i++) {
    if (i == 1000) {
      clock_gettime(CLOCK_MONOTONIC, &a);
      getrusage(RUSAGE_SELF, &ra);
    }
    CK(vkQueueSubmit(q, 1, &sub, fence));
    /* As kernarg's host (src/runtime/vulkan/fence-wait.ts): poll with a zero timeout up to 2000 times (none on a
     * CPU device), then block. */
    VkResult st = VK_TIMEOUT;
    for (int p = 0; !block && !cpu && st == VK_TIMEOUT && p < 2000; p++) st = vkWaitForFences(dev, 1, &fence, VK_TRUE, 0);
    if (st == VK_TIMEOUT) st = vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX);
    CK(st);
    CK(vkResetFences(dev, 1, &fence));
    if (timed) vkGetQueryPoolResults(dev, qp, 0, 2, sizeof t, t, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  getrusage(RUSAGE_SELF, &rb);
  double cpuUs = (rb.ru_utime.tv_sec - ra.ru_utime.tv_sec + rb.ru_stime.tv_sec - ra.ru_stime.tv_sec) * 1e6 +
               (rb.ru_utime.tv_usec - ra.ru_utime.tv_usec + rb.ru_stime.tv_usec - ra.ru_stime.tv_usec);
  /* onecb: n counts command buffers of the batch's launches each. */
  if (onecb) n *= atoi(argv[9]);
  printf("%s %f %f\n", mode, ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n, cpuUs / n);
  vkDeviceWaitIdle(dev);
  vkDestroyFence(dev, fence, 0);
  vkDestroyCommandPool(dev, cpool, 0);
  vkDestroyQueryPool(dev, qp, 0);
  vkDestroyPipeline(dev, pipe, 0);
  vkDestroyDescriptorPool(dev, dp, 0);
  vkDestroyPipelineLayout(dev, pl, 0);
  vkDestroyDescriptorSetLayout(dev, dsl, 0);
  vkDestroyShaderModule(dev, sm, 0);
  vkDestroyBuffer(dev, buf, 0);
  vkFreeMemory(dev, bufMem, 0);
  vkDestroyBuffer(dev, podBuf, 0);
  vkFreeMemory(dev, podMem, 0);
  vkDestroyDevice(dev, 0);
  vkDestroyInstance(inst, 0);
  return 0;
}
