// Which cooperative-matrix shapes and component types each Vulkan device offers (VK_KHR_cooperative_matrix and
// VK_NV_cooperative_matrix), through kernarg's own Vulkan bindings: issue #30 goal 5 asks whether NVIDIA's driver
// offers f64 there, for Vulkan's 64³ f64 GEMM (SPIR-V has no inline PTX, so the tensor cores are reachable only so).
// On the GPU machine: . scripts/gpu-env.sh; /tmp/node --import tsx scripts/gpu-gemm-coopmat.ts
// (vulkaninfo is not installed there). Prints one line a combination: M × N × K and the A, B, C, result types.
import { koffi } from '../src/runtime/ffi.js';
import { Arena } from '../src/runtime/vulkan/arena.js';
import { createInstance, deviceExtensions, physicalDevices } from '../src/runtime/vulkan/instance.js';
import { openVulkan } from '../src/runtime/vulkan/vk.js';

/** VkComponentTypeKHR's first values (the NV extension's are the same numbers). */
const TYPES = ['f16', 'f32', 'f64', 's8', 's16', 's32', 's64', 'u8', 'u16', 'u32', 'u64'];
const typeName = (x: number) => TYPES[x] ?? `type ${x}`;
/** The two queries: extension, entry point, the properties structure's sType and its 32-bit fields after pNext. */
const QUERIES = [
  {
    ext: 'VK_KHR_cooperative_matrix',
    fn: 'vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR',
    sType: 1000506001,
    words: 9,
  },
  {
    ext: 'VK_NV_cooperative_matrix',
    fn: 'vkGetPhysicalDeviceCooperativeMatrixPropertiesNV',
    sType: 1000249001,
    words: 8,
  },
] as const;
const MOST = 256;

const k = koffi();
const vk = openVulkan();
const gipa = k
  .load(process.platform === 'darwin' ? 'libvulkan.1.dylib' : 'libvulkan.so.1')
  .func('void *vkGetInstanceProcAddr(void *, const char *)');
const query = k.proto('int CooperativeMatrixProperties(void *, void *, void *)');
const arena = new Arena(1 << 20);
const instance = createInstance(vk, arena, false);
try {
  for (const d of physicalDevices(vk, instance, arena)) {
    const ext = deviceExtensions(vk, d.handle, arena);
    const offered = [...ext].filter((e) => /cooperative_matrix/.test(e));
    console.log(
      `${d.info.name} (Vulkan ${d.info.version}): ${offered.join(', ') || 'no cooperative-matrix extension'}`,
    );
    for (const q of QUERIES) {
      if (!ext.has(q.ext)) continue;
      const fn = gipa(instance, q.fn) as unknown;
      if (!fn) {
        console.log(`  ${q.fn}: not found`);
        continue;
      }
      // sType and pNext (16 bytes), then the 32-bit fields; each structure padded to 8 bytes in the array.
      const stride = Math.ceil((16 + 4 * q.words) / 8) * 8;
      const count = arena.alloc(4);
      arena.view.setUint32(arena.at(count), MOST, true);
      const list = arena.alloc(stride * MOST);
      for (let i = 0; i < MOST; i++) arena.view.setUint32(arena.at(list) + i * stride, q.sType, true);
      const rc = k.call(fn, query, d.handle, count, list) as number;
      const n = arena.u32(count);
      console.log(`  ${q.ext}: ${n} combinations (VkResult ${rc})`);
      for (let i = 0; i < n; i++) {
        const w = (j: number) => arena.view.getUint32(arena.at(list) + i * stride + 16 + 4 * j, true);
        const types = [3, 4, 5, 6].map((j) => typeName(w(j))).join(' ');
        console.log(`    ${w(0)} × ${w(1)} × ${w(2)}: A B C result ${types}`);
      }
    }
  }
} finally {
  vk.DestroyInstance(instance, null);
  arena.free();
}
