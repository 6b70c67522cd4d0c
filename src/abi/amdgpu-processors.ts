// The AMDGPU processors an amdhsa plan may name (`mcpu`): gfx9 and later, each with the
// EF_AMDGPU_MACH value its code objects carry in e_flags (the low byte; LLVM's
// llvm/BinaryFormat/ELF.h, checked against clang-22's objects for every processor listed here).
// gfx7 and gfx8 are left out: their code objects 5 and 6 add hidden_private_base and
// hidden_shared_base (no aperture registers), which kernarg's amdhsa lowering does not place.
// Every processor here lays out the kernarg segment as gfx900 does at -O0 (clang-16/19/22, code
// objects 4-6: scripts/amdgpu-processors-sweep.sh); the first LLVM generation that knows it is
// `since` (kernarg's generations: 16, 19, 22).

export interface AmdgpuProcessor {
  /** EF_AMDGPU_MACH_AMDGCN_* (e_flags & 0xff). */
  readonly mach: number;
  /** The first of kernarg's LLVM generations whose clang accepts `-mcpu=` it. */
  readonly since: 16 | 19 | 22;
  /** The ISA family: gfx10 and later run 32-wide wavefronts by default and define __AMDGCN_CUMODE__ 0. */
  readonly family: 9 | 10 | 11 | 12;
  /**
   * A generic processor (one binary for a family): only code object 6 has them ("is only available on code object
   * version 6").
   */
  readonly generic?: true;
}

export const AMDGPU_PROCESSORS = {
  gfx900: { mach: 0x2c, since: 16, family: 9 },
  gfx902: { mach: 0x2d, since: 16, family: 9 },
  gfx904: { mach: 0x2e, since: 16, family: 9 },
  gfx906: { mach: 0x2f, since: 16, family: 9 },
  gfx908: { mach: 0x30, since: 16, family: 9 },
  gfx909: { mach: 0x31, since: 16, family: 9 },
  gfx90a: { mach: 0x3f, since: 16, family: 9 },
  gfx90c: { mach: 0x32, since: 16, family: 9 },
  gfx942: { mach: 0x4c, since: 19, family: 9 },
  gfx950: { mach: 0x4f, since: 22, family: 9 },
  gfx1010: { mach: 0x33, since: 16, family: 10 },
  gfx1011: { mach: 0x34, since: 16, family: 10 },
  gfx1012: { mach: 0x35, since: 16, family: 10 },
  gfx1013: { mach: 0x42, since: 16, family: 10 },
  gfx1030: { mach: 0x36, since: 16, family: 10 },
  gfx1031: { mach: 0x37, since: 16, family: 10 },
  gfx1032: { mach: 0x38, since: 16, family: 10 },
  gfx1033: { mach: 0x39, since: 16, family: 10 },
  gfx1034: { mach: 0x3e, since: 16, family: 10 },
  gfx1035: { mach: 0x3d, since: 16, family: 10 },
  gfx1036: { mach: 0x45, since: 16, family: 10 },
  gfx1100: { mach: 0x41, since: 16, family: 11 },
  gfx1101: { mach: 0x46, since: 16, family: 11 },
  gfx1102: { mach: 0x47, since: 16, family: 11 },
  gfx1103: { mach: 0x44, since: 16, family: 11 },
  gfx1150: { mach: 0x43, since: 19, family: 11 },
  gfx1151: { mach: 0x4a, since: 19, family: 11 },
  gfx1152: { mach: 0x55, since: 19, family: 11 },
  gfx1153: { mach: 0x58, since: 22, family: 11 },
  gfx1200: { mach: 0x48, since: 19, family: 12 },
  gfx1201: { mach: 0x4e, since: 19, family: 12 },
  'gfx9-generic': { mach: 0x51, since: 19, family: 9, generic: true },
  'gfx9-4-generic': { mach: 0x5f, since: 22, family: 9, generic: true },
  'gfx10-1-generic': { mach: 0x52, since: 19, family: 10, generic: true },
  'gfx10-3-generic': { mach: 0x53, since: 19, family: 10, generic: true },
  'gfx11-generic': { mach: 0x54, since: 19, family: 11, generic: true },
  'gfx12-generic': { mach: 0x59, since: 19, family: 12, generic: true },
} as const satisfies Record<string, AmdgpuProcessor>;

export type AmdgpuProcessorName = keyof typeof AMDGPU_PROCESSORS;
export const AMDGPU_PROCESSOR_NAMES = Object.keys(AMDGPU_PROCESSORS) as AmdgpuProcessorName[];
export const DEFAULT_AMDGPU_PROCESSOR: AmdgpuProcessorName = 'gfx900';

/** The processor whose EF_AMDGPU_MACH this is, or undefined (gfx7, gfx8, or one kernarg does not know). */
export function processorOfMach(mach: number): AmdgpuProcessorName | undefined {
  return AMDGPU_PROCESSOR_NAMES.find((n) => AMDGPU_PROCESSORS[n].mach === mach);
}
