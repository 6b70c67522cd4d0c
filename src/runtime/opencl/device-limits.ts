import type { LimitsOfDevice, LimitsOfKernel } from '../checks/limits.js';
import { type CL, type Handle, check } from './cl.js';

// cl_device_info and cl_kernel_work_group_info values (Khronos cl.h).
const CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS = 0x1003;
const CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
const CL_DEVICE_MAX_WORK_ITEM_SIZES = 0x1005;
const CL_DEVICE_ADDRESS_BITS = 0x100d;
const CL_DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010;
const CL_DEVICE_MAX_PARAMETER_SIZE = 0x1017;
const CL_DEVICE_LOCAL_MEM_SIZE = 0x1023;
const CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT = 0x1065;
const CL_KERNEL_WORK_GROUP_SIZE = 0x11b0;
const CL_KERNEL_LOCAL_MEM_SIZE = 0x11b2;

/** A size_t or cl_ulong read back as a number (limits past 2^53 are clamped, which only loosens nothing that matters). */
function toNumber(v: bigint): number {
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
}

function info(get: (size: number, out: Buffer | null, ret: number[] | null) => number, call: string): Buffer | undefined {
  const size = [0];
  if (get(0, null, size) !== 0) return undefined;
  const out = Buffer.alloc(size[0]);
  check(get(size[0], out, null), call);
  return out;
}

function unsigned(b: Buffer | undefined, fallback: number): number {
  if (!b) return fallback;
  if (b.length >= 8) return toNumber(b.readBigUInt64LE(0));
  if (b.length >= 4) return b.readUInt32LE(0);
  return fallback;
}

const cache = new WeakMap<object, LimitsOfDevice>();

/**
 * The limits kernarg checks every launch against, read once per device: allocation size, local
 * memory, argument bytes, work-group and work-item sizes, and whether work-groups may be non-uniform.
 */
export function deviceLimits(cl: CL, device: { readonly handle: Handle; readonly version: string }): LimitsOfDevice {
  const hit = cache.get(device);
  if (hit) return hit;
  const get = (param: number) => info((s, o, r) => cl.GetDeviceInfo(device.handle, param, s, o, r), 'clGetDeviceInfo');
  const dims = unsigned(get(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS), 3);
  const itemSizes = get(CL_DEVICE_MAX_WORK_ITEM_SIZES);
  const maxWorkItemSizes: number[] = [];
  for (let i = 0; i < Math.min(dims, 3); i++) maxWorkItemSizes.push(itemSizes && itemSizes.length >= 8 * (i + 1) ? toNumber(itemSizes.readBigUInt64LE(8 * i)) : 1);
  const nonUniform = get(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT);
  // OpenCL 2.x devices always take non-uniform work-groups (from OpenCL C 2.0 programs); 3.0 devices say whether they do.
  const nonUniformWorkGroups = nonUniform ? nonUniform.readUInt32LE(0) !== 0 : /^OpenCL 2\./.test(device.version);
  const limits: LimitsOfDevice = {
    maxMemAllocSize: unsigned(get(CL_DEVICE_MAX_MEM_ALLOC_SIZE), Number.MAX_SAFE_INTEGER),
    localMemSize: unsigned(get(CL_DEVICE_LOCAL_MEM_SIZE), Number.MAX_SAFE_INTEGER),
    maxParameterSize: unsigned(get(CL_DEVICE_MAX_PARAMETER_SIZE), Number.MAX_SAFE_INTEGER),
    maxWorkGroupSize: unsigned(get(CL_DEVICE_MAX_WORK_GROUP_SIZE), Number.MAX_SAFE_INTEGER),
    maxWorkItemSizes,
    addressBits: unsigned(get(CL_DEVICE_ADDRESS_BITS), 64),
    nonUniformWorkGroups,
  };
  cache.set(device, limits);
  return limits;
}

/** What one built kernel allows: its largest work-group and the local memory it already uses. */
export function kernelLimits(cl: CL, kernel: Handle, device: Handle): LimitsOfKernel {
  const get = (param: number) => info((s, o, r) => cl.GetKernelWorkGroupInfo(kernel, device, param, s, o, r), 'clGetKernelWorkGroupInfo');
  return {
    workGroupSize: unsigned(get(CL_KERNEL_WORK_GROUP_SIZE), Number.MAX_SAFE_INTEGER),
    staticLocalMemSize: unsigned(get(CL_KERNEL_LOCAL_MEM_SIZE), 0),
  };
}
