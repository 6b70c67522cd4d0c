/* What a Vulkan driver says about the compute pipelines it makes of SPIR-V modules (VK_KHR_pipeline_executable_properties):
 * for each module, each executable's statistics (NVIDIA: its registers, among others) and, with `ir`, the size and first
 * line of each internal representation. For the GEMM sweeps (bench/tinytc-kernels.ts writes each row's module with
 * GEMM_SPV_DIR): Vulkan's answer to the registers and occupancy that ptxas gives the OpenCL rows.
 * The pipeline layout is read from the module: every variable's DescriptorSet and Binding (StorageBuffer, or Uniform of
 * a BufferBlock struct: storage buffers; Uniform of a Block: uniform buffers) and a push-constant range of the device's
 * whole maxPushConstantsSize where the module has PushConstant variables; specialization constants keep their defaults.
 * Usage: stats <device substring> [ir] <module.spv>...   Prints "<file>: <executable>: <name> = <value>; ..." per module.
 * Build: cc -O2 -o stats vulkan-pipeline-stats.c -lvulkan (or <libvulkan.so.1>) */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CK(call) do { VkResult r_ = (call); if (r_) { fprintf(stderr, "%s failed: %d\n", #call, r_); return 1; } } while (0)

enum { MAX_IDS = 1 << 20, MAX_SETS = 8, MAX_BINDINGS = 64 };
static uint32_t code[1 << 22];
static uint32_t setOf[MAX_IDS], bindingOf[MAX_IDS], ptrClass[MAX_IDS], ptrType[MAX_IDS];
static uint8_t blockKind[MAX_IDS]; /* 1 Block, 2 BufferBlock */

/* Bindings per set: the descriptor type of each, or -1 where none. */
static int layoutOf(const uint32_t *w, size_t n, int types[MAX_SETS][MAX_BINDINGS], int *push) {
  memset(setOf, 0xff, sizeof setOf);
  memset(bindingOf, 0xff, sizeof bindingOf);
  memset(blockKind, 0, sizeof blockKind);
  for (int s = 0; s < MAX_SETS; s++) for (int b = 0; b < MAX_BINDINGS; b++) types[s][b] = -1;
  *push = 0;
  if (n < 5 || w[0] != 0x07230203) return 1;
  for (size_t i = 5; i < n;) {
    uint32_t len = w[i] >> 16, op = w[i] & 0xffff;
    if (!len || i + len > n) return 1;
    if (op == 71 && len >= 3 && w[i + 1] < MAX_IDS) { /* OpDecorate */
      uint32_t id = w[i + 1], d = w[i + 2];
      if (d == 34 && len >= 4) setOf[id] = w[i + 3];
      else if (d == 33 && len >= 4) bindingOf[id] = w[i + 3];
      else if (d == 2) blockKind[id] = 1;
      else if (d == 3) blockKind[id] = 2;
    } else if (op == 32 && len >= 4 && w[i + 1] < MAX_IDS) { /* OpTypePointer */
      ptrClass[w[i + 1]] = w[i + 2];
      ptrType[w[i + 1]] = w[i + 3];
    } else if (op == 59 && len >= 4 && w[i + 2] < MAX_IDS && w[i + 1] < MAX_IDS) { /* OpVariable */
      uint32_t id = w[i + 2], sc = w[i + 3], pointee = ptrType[w[i + 1]];
      if (sc == 9) *push = 1;
      if ((sc == 12 || sc == 2) && setOf[id] < MAX_SETS && bindingOf[id] < MAX_BINDINGS) {
        int storage = sc == 12 || (pointee < MAX_IDS && blockKind[pointee] == 2);
        types[setOf[id]][bindingOf[id]] = storage ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
      }
    }
    i += len;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s <device> [ir] <module.spv>...\n", argv[0]); return 2; }
  int first = 2, ir = 0;
  if (!strcmp(argv[2], "ir")) { ir = 1; first = 3; }
  VkApplicationInfo app = { VK_STRUCTURE_TYPE_APPLICATION_INFO, 0, "vulkan-pipeline-stats", 1, "kernarg-bench", 1, VK_API_VERSION_1_2 };
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
    if (!*argv[1] || strcasestr(props.deviceName, argv[1])) pd = pds[i];
  }
  if (!pd) { fprintf(stderr, "no Vulkan device matches '%s'\n", argv[1]); return 1; }
  vkGetPhysicalDeviceProperties(pd, &props);
  printf("device: %s (driver %u.%u)\n", props.deviceName, props.driverVersion >> 22, (props.driverVersion >> 14) & 0xff);
  /* Every feature the device has (as queried), with the executables' properties. */
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fx = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR };
  VkPhysicalDeviceVulkan12Features f12 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &fx };
  VkPhysicalDeviceVulkan11Features f11 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12 };
  VkPhysicalDeviceFeatures2 f2 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11 };
  vkGetPhysicalDeviceFeatures2(pd, &f2);
  if (!fx.pipelineExecutableInfo) { fprintf(stderr, "%s: no pipelineExecutableInfo\n", props.deviceName); return 1; }
  uint32_t nq = 16, family = UINT32_MAX;
  VkQueueFamilyProperties qf[16];
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
  for (uint32_t i = 0; i < nq; i++) if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) { family = i; break; }
  if (family == UINT32_MAX) { fprintf(stderr, "no compute queue\n"); return 1; }
  float priority = 1;
  VkDeviceQueueCreateInfo qi = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, 0, 0, family, 1, &priority };
  const char *ext[] = { VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME };
  f2.features.robustBufferAccess = VK_FALSE; /* as kernarg's context: no bounds checks of its own */
  VkDeviceCreateInfo di = { VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f2, 0, 1, &qi, 0, 0, 1, ext, 0 };
  VkDevice dev;
  CK(vkCreateDevice(pd, &di, 0, &dev));
  PFN_vkGetPipelineExecutablePropertiesKHR props_ = (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(dev, "vkGetPipelineExecutablePropertiesKHR");
  PFN_vkGetPipelineExecutableStatisticsKHR stats_ = (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(dev, "vkGetPipelineExecutableStatisticsKHR");
  PFN_vkGetPipelineExecutableInternalRepresentationsKHR irs_ = (PFN_vkGetPipelineExecutableInternalRepresentationsKHR)vkGetDeviceProcAddr(dev, "vkGetPipelineExecutableInternalRepresentationsKHR");
  if (!props_ || !stats_ || !irs_) { fprintf(stderr, "no pipeline executable entry points\n"); return 1; }
  static int types[MAX_SETS][MAX_BINDINGS];
  for (int fi = first; fi < argc; fi++) {
    FILE *f = fopen(argv[fi], "rb");
    if (!f) { printf("%s: cannot open\n", argv[fi]); continue; }
    size_t bytes = fread(code, 1, sizeof code, f);
    fclose(f);
    int push;
    if (layoutOf(code, bytes / 4, types, &push)) { printf("%s: not SPIR-V\n", argv[fi]); continue; }
    VkDescriptorSetLayout sets[MAX_SETS];
    uint32_t nsets = 0;
    for (int s = 0; s < MAX_SETS; s++) for (int b = 0; b < MAX_BINDINGS; b++) if (types[s][b] >= 0) nsets = s + 1;
    for (uint32_t s = 0; s < nsets; s++) {
      VkDescriptorSetLayoutBinding lb[MAX_BINDINGS];
      uint32_t nb = 0;
      for (int b = 0; b < MAX_BINDINGS; b++)
        if (types[s][b] >= 0) lb[nb++] = (VkDescriptorSetLayoutBinding){ (uint32_t)b, (VkDescriptorType)types[s][b], 1, VK_SHADER_STAGE_COMPUTE_BIT, 0 };
      VkDescriptorSetLayoutCreateInfo li = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, 0, 0, nb, lb };
      CK(vkCreateDescriptorSetLayout(dev, &li, 0, &sets[s]));
    }
    VkPushConstantRange pcr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, props.limits.maxPushConstantsSize };
    VkPipelineLayoutCreateInfo pli = { VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, 0, 0, nsets, sets, push ? 1 : 0, &pcr };
    VkPipelineLayout layout;
    CK(vkCreatePipelineLayout(dev, &pli, 0, &layout));
    VkShaderModuleCreateInfo si = { VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, 0, 0, bytes, code };
    VkShaderModule sm;
    CK(vkCreateShaderModule(dev, &si, 0, &sm));
    /* The module's first entry point (kernarg's tinytc modules have one a function). */
    const char *entry = 0;
    for (size_t i = 5; i < bytes / 4;) {
      uint32_t len = code[i] >> 16;
      if ((code[i] & 0xffff) == 15) { entry = (const char *)&code[i + 3]; break; }
      i += len ? len : 1;
    }
    VkComputePipelineCreateInfo ci = { VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, 0,
      VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR | (ir ? VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR : 0),
      { VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, 0, 0, VK_SHADER_STAGE_COMPUTE_BIT, sm, entry ? entry : "main", 0 },
      layout, 0, -1 };
    VkPipeline pipe;
    VkResult r = vkCreateComputePipelines(dev, 0, 1, &ci, 0, &pipe);
    if (r) { printf("%s: vkCreateComputePipelines %d\n", argv[fi], r); continue; }
    VkPipelineInfoKHR pi = { VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, 0, pipe };
    VkPipelineExecutablePropertiesKHR ep[8];
    uint32_t ne = 8;
    for (uint32_t e = 0; e < ne; e++) ep[e] = (VkPipelineExecutablePropertiesKHR){ VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR };
    CK(props_(dev, &pi, &ne, ep));
    for (uint32_t e = 0; e < ne; e++) {
      printf("%s: %s (subgroup %u):", argv[fi], ep[e].name, ep[e].subgroupSize);
      VkPipelineExecutableInfoKHR xi = { VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, 0, pipe, e };
      VkPipelineExecutableStatisticKHR st[64];
      uint32_t ns = 64;
      for (uint32_t s = 0; s < ns; s++) st[s] = (VkPipelineExecutableStatisticKHR){ VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR };
      stats_(dev, &xi, &ns, st);
      for (uint32_t s = 0; s < ns; s++) {
        printf(" %s = ", st[s].name);
        switch (st[s].format) {
          case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: printf("%s", st[s].value.b32 ? "true" : "false"); break;
          case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: printf("%lld", (long long)st[s].value.i64); break;
          case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: printf("%llu", (unsigned long long)st[s].value.u64); break;
          default: printf("%g", st[s].value.f64);
        }
        printf(";");
      }
      printf("\n");
      if (ir) {
        VkPipelineExecutableInternalRepresentationKHR rep[8];
        uint32_t nr = 8;
        for (uint32_t k = 0; k < nr; k++) rep[k] = (VkPipelineExecutableInternalRepresentationKHR){ VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR };
        irs_(dev, &xi, &nr, rep);
        for (uint32_t k = 0; k < nr; k++) rep[k].pData = calloc(1, rep[k].dataSize + 1);
        irs_(dev, &xi, &nr, rep);
        for (uint32_t k = 0; k < nr; k++) {
          printf("%s: ir %s (%s): %zu bytes\n", argv[fi], rep[k].name, rep[k].isText ? "text" : "binary", rep[k].dataSize);
          if (rep[k].isText && rep[k].pData) {
            char path[4096];
            snprintf(path, sizeof path, "%s.%u.%u.txt", argv[fi], e, k);
            FILE *o = fopen(path, "w");
            if (o) { fwrite(rep[k].pData, 1, strlen(rep[k].pData), o); fclose(o); }
          }
          free(rep[k].pData);
        }
      }
    }
    vkDestroyPipeline(dev, pipe, 0);
    vkDestroyShaderModule(dev, sm, 0);
    vkDestroyPipelineLayout(dev, layout, 0);
    for (uint32_t s = 0; s < nsets; s++) vkDestroyDescriptorSetLayout(dev, sets[s], 0);
  }
  vkDestroyDevice(dev, 0);
  vkDestroyInstance(inst, 0);
  return 0;
}
