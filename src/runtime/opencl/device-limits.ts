import type { LimitsOfDevice, LimitsOfKernel } from '../checks/limits.js';
import type { CL, Handle } from './cl.js';
import { deviceLimit, workItemSizes } from './device-info.js';

// cl_kernel_work_group_info values (Khronos cl.h).
const CL_KERNEL_WORK_GROUP_SIZE = 0x11b0;
const CL_KERNEL_LOCAL_MEM_SIZE = 0x11b2;

/** Limits past 2^53 are clamped: no launch or allocation comes near them. */
const NONE = Number.MAX_SAFE_INTEGER;
const safe = (v: number | null, fallback: number) => (v === null ? fallback : Math.min(v, NONE));

const cache = new WeakMap<object, LimitsOfDevice>();

/**
 * The limits kernarg checks every launch against, read once per device: allocation size, local
 * memory, argument bytes, work-group and work-item sizes, and whether work-groups may be non-uniform.
 */
export function deviceLimits(cl: CL, device: { readonly handle: Handle; readonly version: string }): LimitsOfDevice {
  const hit = cache.get(device);
  if (hit) return hit;
  const d = device.handle;
  const nonUniform = deviceLimit(cl, d, 'nonUniformWorkGroupSupport');
  const limits: LimitsOfDevice = {
    maxMemAllocSize: safe(deviceLimit(cl, d, 'maxMemAllocSize'), NONE),
    localMemSize: safe(deviceLimit(cl, d, 'localMemSize'), NONE),
    maxParameterSize: safe(deviceLimit(cl, d, 'maxParameterSize'), NONE),
    maxWorkGroupSize: safe(deviceLimit(cl, d, 'maxWorkGroupSize'), NONE),
    maxWorkItemSizes: workItemSizes(cl, d, Math.min(3, deviceLimit(cl, d, 'maxWorkItemDimensions') ?? 3)).map((x) =>
      Math.min(x, NONE),
    ),
    addressBits: deviceLimit(cl, d, 'addressBits') ?? 64,
    // OpenCL 2.x devices always take non-uniform work-groups (from OpenCL C 2.0 programs); 3.0 devices say whether they
    // do.
    nonUniformWorkGroups: nonUniform !== null ? nonUniform !== 0 : /^OpenCL 2\./.test(device.version),
  };
  cache.set(device, limits);
  return limits;
}

/** What one built kernel allows: its largest work-group and the local memory it already uses. */
export function kernelLimits(cl: CL, kernel: Handle, device: Handle): LimitsOfKernel {
  const out = Buffer.alloc(8);
  const get = (param: number, fallback: number) =>
    cl.GetKernelWorkGroupInfo(kernel, device, param, 8, out, null) === 0
      ? Math.min(Number(out.readBigUInt64LE(0)), NONE)
      : fallback;
  return { workGroupSize: get(CL_KERNEL_WORK_GROUP_SIZE, NONE), staticLocalMemSize: get(CL_KERNEL_LOCAL_MEM_SIZE, 0) };
}
