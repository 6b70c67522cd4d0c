import type { AddressSpace } from '../types/types.js';

/** The target facts that decide sizes and alignments (clang-16's TargetInfo for each). */
export interface DataLayout {
  readonly name: 'spir' | 'spir64' | 'amdgcn';
  /** Pointer width in bytes, by the address space pointed into. */
  pointerSize(space: AddressSpace): 4 | 8;
  /** sizeof(size_t), ptrdiff_t, intptr_t and uintptr_t. */
  readonly sizeT: 4 | 8;
}

export const SPIR: DataLayout = { name: 'spir', pointerSize: () => 4, sizeT: 4 };
export const SPIR64: DataLayout = { name: 'spir64', pointerSize: () => 8, sizeT: 8 };
/** amdgcn-amd-amdhsa: 64-bit flat/global/constant pointers, 32-bit local and private pointers. */
export const AMDGCN: DataLayout = {
  name: 'amdgcn',
  pointerSize: (space) => (space === 'local' || space === 'private' ? 4 : 8),
  sizeT: 8,
};

export const DATA_LAYOUTS: Record<DataLayout['name'], DataLayout> = { spir: SPIR, spir64: SPIR64, amdgcn: AMDGCN };
