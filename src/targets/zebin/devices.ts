// The Intel GPUs `--device` names, as ocloc spells them, and what of the payload differs by device.

export type ZebinDevice = 'tgllp' | 'dg2' | 'pvc';
export const ZEBIN_DEVICES: readonly ZebinDevice[] = ['tgllp', 'dg2', 'pvc'];
/** ocloc's default device here: the one whose payload kernarg was checked against most (Ponte Vecchio). */
export const ZEBIN_DEFAULT_DEVICE: ZebinDevice = 'pvc';

export interface DeviceFacts {
  /** ocloc's family name of the device (Xe-LP, Xe-HPG, Xe-HPC). */
  readonly family: string;
  /**
   * How a global or constant buffer's address is given when nothing is known of the accesses:
   * PVC addresses every buffer statelessly (`arg_bypointer`, `addrmode: stateless`); TGL and DG2
   * promote buffers to binding-table (stateful) accesses where IGC can prove the offsets, and then
   * pass the address only as `buffer_address`. Which accesses IGC promotes depends on the code
   * (see README): kernarg predicts the promoted form there.
   */
  readonly globalBuffer: 'stateless' | 'buffer_address';
  /** Bytes of a general register (GRF): no payload argument is aligned past it. */
  readonly grfBytes: number;
  /**
   * How IGC aligns an argument, as ocloc shows it: where it lands in the registers, which the
   * payload reaches 64 bytes in on PVC and TGL (a 128-byte aligned argument after 72 payload bytes
   * goes to 192) and 32 bytes in on DG2, where no alignment passes 64 (the same argument goes to 96).
   */
  readonly alignment: { readonly registerOffset: number; readonly cap?: number };
  /** Whether the device has images (ocloc then predefines `__IMAGE_SUPPORT__`). */
  readonly images: boolean;
  /** Whether `double` is supported (ocloc refuses it for TGL and DG2 without cl_khr_fp64). */
  readonly fp64: boolean;
}

export const DEVICE_FACTS = {
  tgllp: {
    family: 'Xe-LP (Tiger Lake)',
    globalBuffer: 'buffer_address',
    grfBytes: 32,
    alignment: { registerOffset: 64 },
    images: true,
    fp64: false,
  },
  dg2: {
    family: 'Xe-HPG (DG2, Arc)',
    globalBuffer: 'buffer_address',
    grfBytes: 32,
    alignment: { registerOffset: 32, cap: 64 },
    images: true,
    fp64: false,
  },
  pvc: {
    family: 'Xe-HPC (Ponte Vecchio)',
    globalBuffer: 'stateless',
    grfBytes: 64,
    alignment: { registerOffset: 64 },
    images: false,
    fp64: true,
  },
} as const satisfies Record<ZebinDevice, DeviceFacts>;

/**
 * How ocloc's predefined macros differ from kernarg's SPIR ones (seen with `#if defined(…)` kernels
 * through ocloc): it defines the 3-D image write and subgroup features, not the embedded profile's
 * `cles_khr_int64`; `__IMAGE_SUPPORT__` only where the device has images, `cl_khr_fp64` only where
 * it has doubles. A null value: a macro ocloc leaves undefined.
 */
export function zebinPredefines(device: ZebinDevice): (readonly [string, string | null])[] {
  const f = DEVICE_FACTS[device];
  const out: (readonly [string, string | null])[] = [
    ['__opencl_c_3d_image_writes', '1'],
    ['__opencl_c_subgroups', '1'],
    ['cles_khr_int64', null],
  ];
  if (!f.images) out.push(['__IMAGE_SUPPORT__', null]);
  if (!f.fp64) out.push(['cl_khr_fp64', null]);
  return out;
}
