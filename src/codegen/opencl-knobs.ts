import { parseTile } from './tiling.js';

/**
 * Switches of the OpenCL C GEMM's tile fills (src/codegen/opencl-c/gemm-tiles.ts), changing how they read global
 * memory, never what they compute, for a sweep to find what NVIDIA's OpenCL compiler makes fastest
 * (scripts/gpu-gemm-candidates.sh, CL_KNOBS).
 */
export interface OpenclGemmKnobs {
  /**
   * Elements per global read of a staged tile fill (`staged-*`, `vector-*`, `overlap-*`) where the operand's first
   * stride is 1, the tile covers that mode whole and the types agree: 4 (default, `vload4`), 2 or 1 (element by
   * element).
   */
  readonly vload?: 1 | 2 | 4;
  /**
   * `vloadN` asks only for the element's alignment, so a compiler that cannot prove more reads the elements one by
   * one. With `aligned`, each fill tests at run time whether the operand's first element lies on the vector's
   * alignment and its leading dimension is a multiple of the width (then every vector of every tile does), and
   * reads through a pointer to vectors where it is, `vloadN` where it is not: the same elements either way.
   */
  readonly aligned?: boolean;
  /**
   * `batch` (staged and vector variants): each K tile's two fills as one, every work-item's global reads of both
   * tiles issued into registers (the overlapped variants' copy through registers, gemm-overlap.ts) before any of
   * its stores into local memory. A fill's store waits for its read, so fill after fill keeps one operand's reads
   * in flight at a time; batched, both operands' are (issue #30 goal 5: more loads in flight). The same tiles.
   */
  readonly batch?: boolean;
  /**
   * `index32` (staged, vector and overlapped variants): the GEMM's block, K and fill indices and the work-item ids
   * in them as 32-bit `int` where M, N and K are static and below 2^20 and every operand's static offsets stay
   * below 2^31 (else `long`, as without it): fewer registers a work-item (the 64³ f64 GEMM took 164, three
   * work-groups an SM on the H200), so more work-groups, and their loads, in flight. The same elements.
   */
  readonly index32?: boolean;
  /**
   * `unroll` (staged, vector and overlapped variants): `#pragma unroll` on each K tile's product loop and on the
   * tile fills' loops, so that a compiler that would keep them loops (or unroll them partly) writes them out and can
   * issue the local reads of later k, and a fill's later global reads, before the products and stores of earlier
   * ones. The same products in the same order.
   */
  readonly unroll?: boolean;
  /**
   * `tile=RxC` (every variant): each work-item keeps at most R rows × C columns of C (R and C 1, 2, 4 or 8) where
   * tiling.ts keeps at most 4 × 8. Smaller: a work-group's block of C is smaller and it walks more of them, K tile by
   * K tile each, with fewer accumulators and registers a work-item (more work-groups an SM); 8 rows: a larger block
   * for a work-group of fewer work-items (fewer local reads per product). Issue #30 goal 5 timed both for the 64³ f64
   * GEMM (docs/benchmarks.md): neither beat 4 × 8. The same sums, each element's products added in the same order.
   */
  readonly tile?: readonly [number, number];
  /**
   * `cstage` (`mma-f64` only, gemm-mma.ts): C's write-back through local memory. A warp's fragments hold rows g and
   * columns 2t, 2t + 1 of its 8 × 8 blocks, so its stores touch eight 64-byte pieces of a column-major C; staged in
   * the tiles after the K loop, the work-group writes (and for beta reads) C column by column, consecutive
   * work-items on consecutive rows: whole lines. Where C's rows are not contiguous or no pass fits, as without it.
   * It lost on the H200 (64³ f64 95.4% of cuBLAS against 99.2, docs/benchmarks.md): off in NVIDIA_TENSOR_GEMM.
   */
  readonly cstage?: boolean;
  /**
   * `async=S` (S 2 to 9; NVIDIA only: PTX's `cp.async`, sm_80 and later; cp-async.ts): the K tiles copied into local
   * memory by `cp.async`, S tiles of each operand there and S - 1 in flight while the work-group multiplies from the
   * oldest, where the overlapped copy holds one tile in registers: no registers for the data, and more bytes in
   * flight a work-group. `mma-f64` (gemm-mma.ts): the K tile is the largest whose S stages fit (64³ f64: 16 for S 2,
   * 8 for 3, 4 for 4 to 9). `staged-*` and `vector-*` (gemm.ts; A, B and C of one type of 4 or 8 bytes in global
   * memory, else as without it): the variant's K tile, halved until S stages fit; each operand copied 16 bytes at a
   * time (8 under `vload=2`) where its contiguous mode is the tile's, behind a run-time alignment test, else element
   * by element (`batch` and `aligned` then change nothing). The same products in the same order.
   */
  readonly async?: number;
}

/**
 * Knobs from their written form: `default`, or `vload=1|2|4`, `aligned`, `batch`, `index32`, `unroll`, `cstage`,
 * `tile=RxC` (R and C 1, 2, 4 or 8) and `async=S` (S 2 to 9) joined by commas.
 * Throws on anything else.
 */
export function parseOpenclKnobs(text: string): OpenclGemmKnobs {
  const knobs: {
    vload?: OpenclGemmKnobs['vload'];
    aligned?: boolean;
    batch?: boolean;
    index32?: boolean;
    unroll?: boolean;
    tile?: readonly [number, number];
    cstage?: boolean;
    async?: number;
  } = {};
  for (const part of text.split(',').filter((p) => p && p !== 'default')) {
    if (part === 'aligned') knobs.aligned = true;
    else if (part === 'batch') knobs.batch = true;
    else if (part === 'index32') knobs.index32 = true;
    else if (part === 'unroll') knobs.unroll = true;
    else if (part === 'cstage') knobs.cstage = true;
    else if (/^async=[2-9]$/.test(part)) knobs.async = Number(part.slice(6));
    else if (/^vload=[124]$/.test(part)) knobs.vload = Number(part.slice(6)) as OpenclGemmKnobs['vload'];
    else if (/^tile=[1248]x[1248]$/.test(part)) knobs.tile = parseTile(part);
    else
      throw new Error(
        `OpenCL GEMM knob '${part}': expected default, vload=1|2|4, aligned, cstage, async=2..9, batch, index32, ` +
          'unroll or tile=RxC (R, C: 1|2|4|8)',
      );
  }
  return knobs;
}
