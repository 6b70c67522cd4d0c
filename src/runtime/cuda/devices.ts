// The CUDA devices the driver sees, with the attributes a context reads of them.
import { type CudaDriver, cuCheck, openCuda } from './driver.js';

// cuDeviceGetAttribute numbers (CUdevice_attribute).
export const ATTR = { maxThreadsPerBlock: 1, maxBlockDimX: 2, maxGridDimX: 5, ccMajor: 75, ccMinor: 76 } as const;

export interface CudaDeviceInfo {
  /** 'CUDA', so that `platform / name` reads as the OpenCL host's devices do. */
  readonly platform: string;
  readonly name: string;
  readonly ordinal: number;
  /** cuDriverGetVersion: 12040 for CUDA 12.4. */
  readonly driverVersion: number;
  readonly computeCapability: string;
  readonly totalMemory: number;
}

/** Every CUDA device the driver sees (cuInit, cuDeviceGetCount, cuDeviceGetName). */
export function listCudaDevices(cu: CudaDriver = openCuda()): CudaDeviceInfo[] {
  const init = cu.Init(0);
  if (init === 100) return [];
  cuCheck(cu, init, 'cuInit');
  const n = new Int32Array(1);
  cuCheck(cu, cu.DriverGetVersion(n), 'cuDriverGetVersion');
  const driverVersion = n[0];
  cuCheck(cu, cu.DeviceGetCount(n), 'cuDeviceGetCount');
  const out: CudaDeviceInfo[] = [];
  for (let i = 0; i < n[0]; i++) {
    const dev = new Int32Array(1);
    cuCheck(cu, cu.DeviceGet(dev, i), 'cuDeviceGet');
    const name = Buffer.alloc(256);
    cuCheck(cu, cu.DeviceGetName(name, 255, dev[0]), 'cuDeviceGetName');
    const major = new Int32Array(1);
    const minor = new Int32Array(1);
    cuCheck(cu, cu.DeviceGetAttribute(major, ATTR.ccMajor, dev[0]), 'cuDeviceGetAttribute');
    cuCheck(cu, cu.DeviceGetAttribute(minor, ATTR.ccMinor, dev[0]), 'cuDeviceGetAttribute');
    const mem = new BigUint64Array(1);
    cuCheck(cu, cu.DeviceTotalMem(mem, dev[0]), 'cuDeviceTotalMem');
    out.push({
      platform: 'CUDA',
      name: name.toString('utf8', 0, name.indexOf(0)),
      ordinal: dev[0],
      driverVersion,
      computeCapability: `${major[0]}.${minor[0]}`,
      totalMemory: Number(mem[0]),
    });
  }
  return out;
}
