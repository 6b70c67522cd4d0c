// How the Vulkan host waits for a submission's fence.
//
// A thread blocked in vkWaitForFences is woken late: on an H200 (NVIDIA driver 580) a sync launch of
// an empty kernel took 43.6 µs through the C host that blocks, and 15.8 µs through the same C host
// polling the fence (bench/vulkan-launch.ts, one run, both beside kernarg's OpenCL launch at
// 19.8 µs). So the host polls the fence first, at most FENCE_POLLS times, and blocks only after that:
// a short launch returns at the polling latency, a long one costs at most that much CPU time more.
// On a CPU device (lavapipe) the host does not poll: the polling thread takes a core from the
// threads that run the kernel (2-core machine, C host: 39 µs blocking, 76 µs polling).
// The bound is a count, not a clock: performance.now() boxes its result and the warm launch must
// allocate nothing (test/vulkan-launch.test.ts counts the GCs).
// The poll is vkWaitForFences with a zero timeout (VK_TIMEOUT while unsignalled): the same binding and
// arguments as the blocking wait, and bench/vulkan-launch-host.c makes the same calls.
import { type VK, type VkHandle, check } from './vk.js';

/** How many times the host polls a fence before it blocks in vkWaitForFences (one driver call each; not timed per call). */
export const FENCE_POLLS = 2000;

/** The polls for a device of this type (VulkanDeviceInfo.type). */
export function fencePolls(deviceType: string): number {
  return deviceType === 'CPU' ? 0 : FENCE_POLLS;
}

const VK_SUCCESS = 0;
const VK_TIMEOUT = 2;
const NO_TIMEOUT = 0xffffffffffffffffn;

/** Returns once the fence whose handle `fenceSlot` holds is signalled: polled first, then waited on. */
export function waitForFence(vk: VK, device: VkHandle, fenceSlot: bigint, polls: number): void {
  let code = VK_TIMEOUT;
  while (code === VK_TIMEOUT && polls-- > 0) code = vk.WaitForFences(device, 1, fenceSlot, 1, 0n);
  if (code === VK_SUCCESS) return;
  if (code !== VK_TIMEOUT) check(code, 'vkWaitForFences');
  check(vk.WaitForFences(device, 1, fenceSlot, 1, NO_TIMEOUT), 'vkWaitForFences');
}
