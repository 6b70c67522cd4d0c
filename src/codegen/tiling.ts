/** The most rows × columns of C one work-item keeps when no `tile` knob caps them (opencl-knobs.ts, spirv-knobs.ts). */
export const GEMM_TILE_MAX: readonly [number, number] = [4, 8];

/**
 * The register tile of a GEMM, decided once for every backend: each work-item keeps rm × rn
 * accumulators — rows lid0 + r·wg0, columns lid1 + c·wg1 of a block of (wg0·rm) × (wg1·rn).
 * `tile` caps rm and rn (the knob of that name; GEMM_TILE_MAX by default): a smaller block, walked
 * block after block by the same work-group, for fewer accumulators and registers a work-item.
 * Bounds checks are left out where static extents divide the block.
 */
export function gemmTiling(
  wg: readonly [number, number],
  M: unknown,
  N: unknown,
  tile: readonly [number, number] = GEMM_TILE_MAX,
): { rm: number; rn: number; fullRows: boolean; fullCols: boolean } {
  const [wg0, wg1] = wg;
  const rm = Math.max(1, Math.min(tile[0], typeof M === 'number' ? Math.ceil(M / wg0) : 1));
  const rn = Math.max(1, Math.min(tile[1], typeof N === 'number' ? Math.ceil(N / wg1) : 2));
  return {
    rm,
    rn,
    fullRows: typeof M === 'number' && M % (wg0 * rm) === 0,
    fullCols: typeof N === 'number' && N % (wg1 * rn) === 0,
  };
}

/** The `tile=RxC` knob (opencl-knobs.ts, spirv-knobs.ts) as [R, C]; the caller has checked its form. */
export function parseTile(part: string): readonly [number, number] {
  const [r, c] = part.slice('tile='.length).split('x').map(Number);
  return [r, c];
}
