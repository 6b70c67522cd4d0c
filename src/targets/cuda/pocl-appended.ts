// The parameters pocl's CUDA driver appends to every kernel (pocl-ptx-gen.cc: handleGetWorkDim,
// handleGetGlobalOffset), one row each: its name and the launch-geometry word that fills it. Each is
// a `.u32` at 4-byte alignment after the kernel's own parameters. The lowering and the placement
// read these rows; nothing else states them.
import type { GeometryField } from '../../layout/placement.js';

export const POCL_APPENDED = {
  _work_dim: { field: 'grid-dims', axis: 0 },
  _global_offset_x: { field: 'global-offset', axis: 0 },
  _global_offset_y: { field: 'global-offset', axis: 1 },
  _global_offset_z: { field: 'global-offset', axis: 2 },
} as const satisfies Record<string, { readonly field: GeometryField; readonly axis: 0 | 1 | 2 }>;

export const POCL_APPENDED_NAMES = Object.keys(POCL_APPENDED) as readonly (keyof typeof POCL_APPENDED)[];
/** Bytes of each appended parameter (a `.u32`). */
export const POCL_APPENDED_BYTES = 4;
