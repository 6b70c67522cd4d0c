import { type CL, type Handle, check, openCL, platformIds } from './cl.js';

// clGetPlatformInfo / clGetDeviceInfo parameter names (OpenCL 3.0 headers, cl.h).
const PLATFORM = { profile: 0x0900, version: 0x0901, name: 0x0902, vendor: 0x0903, extensions: 0x0904 } as const;
const DEVICE_STRING = {
  name: 0x102b,
  vendor: 0x102c,
  driverVersion: 0x102d,
  profile: 0x102e,
  version: 0x102f,
  extensions: 0x1030,
  openclCVersion: 0x103d,
  // CL_DEVICE_IL_VERSION (OpenCL 2.1): the intermediate languages clCreateProgramWithIL takes, e.g. 'SPIR-V_1.2'.
  ilVersion: 0x105b,
} as const;
const CL_DEVICE_TYPE = 0x1000;
const CL_DEVICE_MAX_WORK_ITEM_SIZES = 0x1005;
/** The numeric limits `kernarg devices` reports, with the size of each query's result in bytes. */
const DEVICE_LIMITS = {
  maxComputeUnits: [0x1002, 4],
  maxWorkItemDimensions: [0x1003, 4],
  maxWorkGroupSize: [0x1004, 8],
  maxClockFrequencyMHz: [0x100c, 4],
  addressBits: [0x100d, 4],
  maxMemAllocSize: [0x1010, 8],
  maxParameterSize: [0x1017, 8],
  memBaseAddrAlign: [0x1019, 4],
  globalMemSize: [0x101f, 8],
  maxConstantBufferSize: [0x1020, 8],
  maxConstantArgs: [0x1021, 4],
  localMemSize: [0x1023, 8],
  imageSupport: [0x1016, 4],
  svmCapabilities: [0x1053, 8],
  // CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT is 0x1065 in cl.h (OpenCL 3.0).
  nonUniformWorkGroupSupport: [0x1065, 4],
} as const satisfies Record<string, readonly [number, 4 | 8]>;

export type DeviceLimitName = keyof typeof DEVICE_LIMITS;

export interface DeviceReport {
  readonly name: string;
  readonly vendor: string;
  readonly type: string;
  readonly version: string;
  readonly driverVersion: string;
  readonly openclCVersion: string;
  readonly profile: string;
  readonly extensions: readonly string[];
  readonly maxWorkItemSizes: readonly number[];
  /** Each limit, or null where the driver does not answer the query (an older OpenCL version). */
  readonly limits: Readonly<Record<DeviceLimitName, number | null>>;
}

export interface PlatformReport {
  readonly name: string;
  readonly vendor: string;
  readonly version: string;
  readonly profile: string;
  readonly extensions: readonly string[];
  readonly devices: readonly DeviceReport[];
}

export function infoString(
  get: (size: number, out: Buffer | null, ret: number[] | null) => number,
  call: string,
): string {
  const size = [0];
  check(get(0, null, size), call);
  const buf = Buffer.alloc(size[0]);
  check(get(size[0], buf, null), call);
  return buf.toString('utf8').replace(/\0+$/, '');
}

export function platformString(cl: CL, p: Handle, what: keyof typeof PLATFORM): string {
  return infoString((s, o, r) => cl.GetPlatformInfo(p, PLATFORM[what], s, o, r), 'clGetPlatformInfo');
}

export function deviceString(cl: CL, d: Handle, what: keyof typeof DEVICE_STRING): string {
  return infoString((s, o, r) => cl.GetDeviceInfo(d, DEVICE_STRING[what], s, o, r), 'clGetDeviceInfo');
}

/** One numeric device limit; null where the driver refuses the query. */
export function deviceLimit(cl: CL, d: Handle, what: DeviceLimitName): number | null {
  const [param, size] = DEVICE_LIMITS[what];
  const out = Buffer.alloc(8);
  if (cl.GetDeviceInfo(d, param, size, out, null) !== 0) return null;
  return size === 4 ? out.readUInt32LE(0) : Number(out.readBigUInt64LE(0));
}

export function deviceType(cl: CL, d: Handle): string {
  const out = Buffer.alloc(8);
  check(cl.GetDeviceInfo(d, CL_DEVICE_TYPE, 8, out, null), 'clGetDeviceInfo');
  const t = out.readBigUInt64LE(0);
  const names: [bigint, string][] = [
    [1n, 'default'],
    [2n, 'cpu'],
    [4n, 'gpu'],
    [8n, 'accelerator'],
    [16n, 'custom'],
  ];
  return (
    names
      .filter(([bit]) => (t & bit) !== 0n)
      .map(([, n]) => n)
      .join('|') || 'unknown'
  );
}

export function workItemSizes(cl: CL, d: Handle, dims: number): number[] {
  const out = Buffer.alloc(8 * dims);
  if (cl.GetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, out.length, out, null) !== 0) return [];
  return Array.from({ length: dims }, (_, i) => Number(out.readBigUInt64LE(8 * i)));
}

const words = (s: string) => s.split(/\s+/).filter(Boolean);

/** Everything `kernarg devices` prints about one device. */
export function describeDevice(cl: CL, d: Handle): DeviceReport {
  const limits = Object.fromEntries(
    (Object.keys(DEVICE_LIMITS) as DeviceLimitName[]).map((k) => [k, deviceLimit(cl, d, k)]),
  ) as Record<DeviceLimitName, number | null>;
  return {
    name: deviceString(cl, d, 'name'),
    vendor: deviceString(cl, d, 'vendor'),
    type: deviceType(cl, d),
    version: deviceString(cl, d, 'version'),
    driverVersion: deviceString(cl, d, 'driverVersion'),
    openclCVersion: deviceString(cl, d, 'openclCVersion'),
    profile: deviceString(cl, d, 'profile'),
    extensions: words(deviceString(cl, d, 'extensions')),
    maxWorkItemSizes: workItemSizes(cl, d, limits.maxWorkItemDimensions ?? 3),
    limits,
  };
}

/** Every platform and its devices, with versions, extensions and limits. */
export function describePlatforms(): PlatformReport[] {
  const cl = openCL();
  const platforms = platformIds(cl);
  return platforms.map((p) => {
    const dn = [0];
    let devices: Handle[] = [];
    if (cl.GetDeviceIDs(p, 0xffffffffn, 0, null, dn) === 0 && dn[0] > 0) {
      const list: (Handle | null)[] = new Array(dn[0]).fill(null);
      check(cl.GetDeviceIDs(p, 0xffffffffn, dn[0], list, null), 'clGetDeviceIDs');
      devices = list as Handle[];
    }
    return {
      name: platformString(cl, p, 'name'),
      vendor: platformString(cl, p, 'vendor'),
      version: platformString(cl, p, 'version'),
      profile: platformString(cl, p, 'profile'),
      extensions: words(platformString(cl, p, 'extensions')),
      devices: devices.map((d) => describeDevice(cl, d)),
    };
  });
}
