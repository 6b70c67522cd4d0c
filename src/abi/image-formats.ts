/**
 * The AMD GCN image descriptor codes for OpenCL channel data types and channel orders
 * (CLRX's AMD Catalyst OpenCL 2.0 ABI description), both ways, with the OpenCL enum values.
 */
export const CHANNEL_TYPES = [
  { code: 0, name: 'CL_SNORM_INT8', value: 0x10d0 },
  { code: 1, name: 'CL_SNORM_INT16', value: 0x10d1 },
  { code: 2, name: 'CL_UNORM_INT8', value: 0x10d2 },
  { code: 3, name: 'CL_UNORM_INT16', value: 0x10d3 },
  { code: 4, name: 'CL_UNORM_INT24', value: 0x10df },
  { code: 5, name: 'CL_UNORM_SHORT_555', value: 0x10d5 },
  { code: 6, name: 'CL_UNORM_SHORT_565', value: 0x10d4 },
  { code: 7, name: 'CL_UNORM_INT_101010', value: 0x10d6 },
  { code: 8, name: 'CL_SIGNED_INT8', value: 0x10d7 },
  { code: 9, name: 'CL_SIGNED_INT16', value: 0x10d8 },
  { code: 10, name: 'CL_SIGNED_INT32', value: 0x10d9 },
  { code: 11, name: 'CL_UNSIGNED_INT8', value: 0x10da },
  { code: 12, name: 'CL_UNSIGNED_INT16', value: 0x10db },
  { code: 13, name: 'CL_UNSIGNED_INT32', value: 0x10dc },
  { code: 14, name: 'CL_HALF_FLOAT', value: 0x10dd },
  { code: 15, name: 'CL_FLOAT', value: 0x10de },
] as const;

export const CHANNEL_ORDERS = [
  { code: 0, name: 'CL_A', value: 0x10b1 },
  { code: 1, name: 'CL_R', value: 0x10b0 },
  { code: 2, name: 'CL_Rx', value: 0x10ba },
  { code: 3, name: 'CL_RG', value: 0x10b2 },
  { code: 4, name: 'CL_RGx', value: 0x10bb },
  { code: 5, name: 'CL_RA', value: 0x10b3 },
  { code: 6, name: 'CL_RGB', value: 0x10b4 },
  { code: 7, name: 'CL_RGBx', value: 0x10bc },
  { code: 8, name: 'CL_RGBA', value: 0x10b5 },
  { code: 9, name: 'CL_BGRA', value: 0x10b6 },
  { code: 10, name: 'CL_ARGB', value: 0x10b7 },
  { code: 11, name: 'CL_ABGR', value: 0x10c3 },
  { code: 12, name: 'CL_sRGB', value: 0x10bf },
  { code: 13, name: 'CL_sRGBx', value: 0x10c0 },
  { code: 14, name: 'CL_sRGBA', value: 0x10c1 },
  { code: 15, name: 'CL_sBGRA', value: 0x10c2 },
  { code: 16, name: 'CL_INTENSITY', value: 0x10b8 },
  { code: 17, name: 'CL_LUMINANCE', value: 0x10b9 },
  { code: 18, name: 'CL_DEPTH', value: 0x10bd },
  { code: 19, name: 'CL_DEPTH_STENCIL', value: 0x10be },
] as const;

type Entry = { readonly code: number; readonly name: string; readonly value: number };

function lookup(table: readonly Entry[], key: string | number): Entry | undefined {
  if (typeof key === 'number') return table.find((e) => e.value === key);
  const k = key.startsWith('CL_') ? key : `CL_${key}`;
  return table.find((e) => e.name === k);
}

/** OpenCL channel data type (name like 'CL_FLOAT' or 'FLOAT', or its cl_channel_type value) → AMD code. */
export function amdChannelTypeCode(t: string | number): number | undefined {
  return lookup(CHANNEL_TYPES, t)?.code;
}
/** AMD descriptor dword 8 → OpenCL channel data type; the value is masked with 0xf first. */
export function channelTypeFromAmd(dword: number): Entry {
  return CHANNEL_TYPES[dword & 0xf];
}
export function amdChannelOrderCode(o: string | number): number | undefined {
  return lookup(CHANNEL_ORDERS, o)?.code;
}
/** AMD descriptor dword 9 → OpenCL channel order; the value is masked with 0x1f first (codes 20-31 have none). */
export function channelOrderFromAmd(dword: number): Entry | undefined {
  return CHANNEL_ORDERS[dword & 0x1f];
}
