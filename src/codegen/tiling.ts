/**
 * The register tile of a GEMM, decided once for every backend: each work-item keeps rm × rn
 * accumulators — rows lid0 + r·wg0, columns lid1 + c·wg1 of a block of (wg0·rm) × (wg1·rn).
 * Bounds checks are left out where static extents divide the block.
 */
export function gemmTiling(
  wg: readonly [number, number],
  M: unknown,
  N: unknown,
): { rm: number; rn: number; fullRows: boolean; fullCols: boolean } {
  const [wg0, wg1] = wg;
  const rm = typeof M === 'number' ? Math.max(1, Math.min(4, Math.ceil(M / wg0))) : 1;
  const rn = typeof N === 'number' ? Math.max(1, Math.min(8, Math.ceil(N / wg1))) : 2;
  return {
    rm,
    rn,
    fullRows: typeof M === 'number' && M % (wg0 * rm) === 0,
    fullCols: typeof N === 'number' && N % (wg1 * rn) === 0,
  };
}
