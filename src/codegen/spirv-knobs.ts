import { parseTile } from './tiling.js';

/**
 * Switches of the SPIR-V GEMM (src/codegen/spirv/gemm.ts) that change how it is spelled,
 * never what it computes (the products are added in the same order under every setting), so that
 * a sweep can find what NVIDIA's Vulkan compiler is slow on (scripts/gpu-gemm-sweep.sh, SPIRV_KNOBS).
 */
export interface SpirvGemmKnobs {
  /**
   * 32-bit integer arithmetic for the GEMM's indices (work-item ids, block and K loops, tile fills,
   * work-group array indices, and element offsets whose static shape and strides stay below 2^31)
   * where M, N and K are static and small; otherwise, and without it, 64-bit as the index type.
   */
  readonly index32?: boolean;
  /**
   * The staged tile fill: `divide` walks the tile's elements in one loop and splits each index by
   * UMod/UDiv; `hoisted` splits the work-item id once, before the loop, where the work-group's size
   * is a multiple of the tile's fast extent or the other way round (else `divide`).
   */
  readonly fill?: 'divide' | 'hoisted';
  /**
   * `none`: runtime loops; `hint`: loops marked LoopControl Unroll; `full`: loops with static trip
   * counts (K loops up to UNROLL_K_STEPS steps in all, fills, blocks up to 4) emitted unrolled, and
   * then the accumulators as SSA values instead of Function variables — in the 32-bit spelling only
   * (where `index32` applies) and up to UNROLL_PRODUCTS products per work-item; elsewhere `full`
   * spells what `hint` does (gemm.ts says why).
   */
  readonly unroll?: 'none' | 'hint' | 'full';
  /**
   * Elements per global read of a staged tile fill (`staged-*`, `vector-*`, `overlap-*`): 2 or 4 reads
   * `vec2`/`vec4`s (f32: 8 or 16 bytes; f64: 16 or 32), as the OpenCL C's vload4 does, where the operand
   * is a global f32/f64 matrix of C's type whose first stride is 1 and second a static multiple of it,
   * and the tile covers its first mode whole; each work-item's vector index is its own part, widened
   * once, plus static steps in 64 bits. Its first element's alignment is checked at run time, once: each
   * fill branches on it around its reads (one vector, or its elements one by one, into the same registers),
   * the GEMM printed once. 1 (default): element by element. In the 32-bit
   * spelling only (where `index32` applies); elsewhere element by element (gemm.ts says why).
   */
  readonly vload?: 1 | 2 | 4;
  /**
   * Each f32/f64 product added to its accumulator by one fused multiply-add (GLSL.std.450 Fma, OpenCL.std
   * fma) instead of OpMul then OpAdd: the same products in the same order, each rounded once, as the
   * contraction OpenCL C allows by default (and NVIDIA's OpenCL compiler makes) gives; whether a Vulkan
   * compiler contracts an OpFMul and OpFAdd itself is its choice.
   */
  readonly fma?: boolean;
  /**
   * `batch` (staged and vector variants): each K tile's two fills as one, every invocation's global reads of both
   * tiles first (into Function variables: the overlapped variants' copy through registers, gemm-overlap.ts), then
   * its stores into the work-group arrays. Fill after fill, each behind its own alignment branch under `vload`,
   * a compiler keeps one operand's reads in flight at a time; batched, both operands' are (issue #30 goal 5).
   */
  readonly batch?: boolean;
  /**
   * `tile=RxC`: each invocation keeps at most R rows × C columns of C (R and C 1, 2, 4 or 8) where tiling.ts keeps
   * at most 4 × 8, as the OpenCL C knob of that name does (opencl-knobs.ts): smaller, a smaller block of C a
   * work-group, more blocks walked, fewer accumulators and registers an invocation; 8 rows, a larger block for
   * fewer invocations. The same sums in the same order.
   */
  readonly tile?: readonly [number, number];
  /**
   * `lvec` (`vector-*` variants): the work-group tiles as arrays of 16-byte vectors (4 f32s, 2 f64s), each invocation
   * reading its neighbouring rows of A's tile and columns of B's as whole vectors (one load a vector, its components
   * extracted) where its register tile's extents and the tiles' rows are multiples of the vector; the fills store
   * element by element into the vectors' components. Scalar reads of neighbours leave merging them to the compiler.
   */
  readonly lvec?: boolean;
  /**
   * `pad=P` (`staged-*`, `overlap-*` and `vector-*` variants): B's work-group tile padded by P elements (0 to 8) a
   * column (`staged-*`, `overlap-*`: stride T + P, default T + 1; `overlap-*` only where both copies still fit the
   * work-group memory) or a row (`vector-*`: stride nb + P, default nb + rn). `staged-*` with
   * `pad=0` (stride T, 16 for staged-k16) keeps a column's neighbouring k on 16-byte boundaries: a work-item's `vload`
   * vector of B lands in the tile as one aligned vector, and the k steps written out read 4 f32s (2 f64s) of a column
   * at once, which NVIDIA's Vulkan compiler then reads and stores whole (Vulkan's rule takes it: blas-policy.ts).
   * Under `lvec`, B's vector reads need nb + P a multiple of the vector.
   */
  readonly pad?: number;
  /**
   * `apad=P` (`staged-*` and `overlap-*` variants): A's work-group tile stored k-fastest, its rows T + P elements apart,
   * where without it the tile keeps its rows fastest (T columns of mb); `overlap-*` also takes `pad` for B's columns.
   * With T + P a multiple of the 16-byte vector (f64: even; f32: a multiple of 4), an invocation's neighbouring k of one
   * row of A sit in one aligned vector, as `pad=0` puts B's, so that the k steps written out can read both operands'
   * tiles a vector at a time; P sets the banks a warp's rows fall in (f64 `apad=2`: 16 rows of 144 bytes, two
   * wavefronts a 16-byte read). Where the padded tile would not fit the work-group memory the K tile was sized for
   * (blas-policy.ts's stagedKTile), A keeps its own layout.
   */
  readonly apad?: number;
  /**
   * `kloop` (`staged-*`, `vector-*` and `overlap-*` variants, under `unroll=full`): the K-tile loop kept a loop, marked
   * DontUnroll, each K tile's k steps and fills still written out (the accumulators Function variables). Written out
   * whole, the GEMM lets a compiler hoist the next K tile's global reads and the tiles' reads far ahead of their use:
   * NVIDIA's Vulkan compiler gives the 64³ f64 rule's kernel 165 registers (3 work-groups an SM;
   * bench/vulkan-pipeline-stats.c); inside a loop it cannot move them past the barriers.
   */
  readonly kloop?: boolean;
  /**
   * `cvec` (`staged-*` and `vector-*` variants, in the 32-bit spelling): C written back as 16-byte vectors (2 f64s, 4
   * f32s), each invocation's rows of C neighbours (lid0·rm + r, as `vector-*` has them; `staged-*` reads its rows of A's
   * tile there too), where C is a global f32/f64 matrix with first stride 1, a static second stride the vector divides,
   * rm a multiple of the vector and C's rows whole blocks; C's alignment checked at run time, the element-by-element
   * write-back where it fails. Element by element, a warp's store writes 8 bytes a work-item (gemm-write-vectors.ts).
   */
  readonly cvec?: boolean;
  /**
   * `nrows` (`staged-*` variants): each invocation's rows of C neighbours (lid0·rm + r) and read so from A's tile, C
   * written element by element: the layout `cvec` writes vectors from, without the vectors (what each costs apart).
   */
  readonly nrows?: boolean;
  /**
   * `cstage` (`staged-*` and `vector-*` variants, in the 32-bit spelling): C written back through work-group memory, each
   * invocation's alpha · acc stored into a block of C there, then after a barrier the block written to C as 16-byte
   * vectors, neighbouring invocations neighbouring vectors (gemm-stage-c.ts); where C is a global f32/f64 matrix with first
   * stride 1 and a static second stride the vector divides, C's rows and columns whole blocks and the block fits beside
   * A's and B's tiles; C's alignment checked at run time. The register tile's layout stays (`cvec` wins over it).
   * `cstage=Q` (1, 2, 4 or 8; bare: 8, the whole block) stages Q of an invocation's columns of C at a time (`staged-*`:
   * wg1·Q neighbouring columns of C, in an array no larger than that), a barrier between stages.
   */
  readonly cstage?: number;
}

/** The K steps (products per accumulator) a `full` unroll writes out at most; longer K keeps its loops. */
export const UNROLL_K_STEPS = 256;

/**
 * The products (register tile × K × blocks of C) one work-item's GEMM may have written out under
 * `full`; beyond it `full` spells what `hint` does. The benchmarked GEMMs write out at most 2,048
 * (64³ on 16 × 8 work-items); a 64³ GEMM on a work-group of 8 writes out 32,768, which lavapipe's
 * LLVM spent over ten minutes compiling.
 */
export const UNROLL_PRODUCTS = 4096;

/** Every knob at one setting: the sweep's and the tests' list (`default` is all off, what the printer emits today). */
export const SPIRV_KNOB_SETTINGS: readonly string[] = [
  'default',
  'index32',
  'fill=hoisted',
  'unroll=hint',
  'unroll=full',
  'index32,fill=hoisted,unroll=full',
];

/**
 * Knobs from their written form: `default`, or settings joined by commas — `index32`,
 * `fill=divide|hoisted`, `unroll=none|hint|full`, `vload=1|2|4`, `fma`, `batch`, `tile=RxC`, `lvec`, `pad=P`, `apad=P`, `kloop`, `cvec`, `nrows`, `cstage[=Q]` (what SPIRV_KNOBS in
 * bench/tinytc-kernels.ts and scripts/gpu-gemm-sweep.sh take). Throws on anything else.
 */
export function parseSpirvKnobs(text: string): SpirvGemmKnobs {
  const knobs: {
    index32?: boolean;
    fill?: SpirvGemmKnobs['fill'];
    unroll?: SpirvGemmKnobs['unroll'];
    vload?: SpirvGemmKnobs['vload'];
    fma?: boolean;
    batch?: boolean;
    tile?: readonly [number, number];
    lvec?: boolean;
    pad?: number;
    apad?: number;
    kloop?: boolean;
    cvec?: boolean;
    nrows?: boolean;
    cstage?: number;
  } = {};
  for (const part of text.split(',').filter((p) => p && p !== 'default')) {
    const [key, value] = part.split('=');
    if (key === 'index32' && value === undefined) knobs.index32 = true;
    else if (key === 'fill' && (value === 'divide' || value === 'hoisted')) knobs.fill = value;
    else if (key === 'unroll' && (value === 'none' || value === 'hint' || value === 'full')) knobs.unroll = value;
    else if (key === 'fma' && value === undefined) knobs.fma = true;
    else if (key === 'batch' && value === undefined) knobs.batch = true;
    else if (key === 'lvec' && value === undefined) knobs.lvec = true;
    else if (key === 'kloop' && value === undefined) knobs.kloop = true;
    else if (key === 'cvec' && value === undefined) knobs.cvec = true;
    else if (key === 'nrows' && value === undefined) knobs.nrows = true;
    else if (key === 'cstage' && value === undefined) knobs.cstage = 8;
    else if (key === 'cstage' && /^[1248]$/.test(value ?? '')) knobs.cstage = Number(value);
    else if (key === 'pad' && /^[0-8]$/.test(value ?? '')) knobs.pad = Number(value);
    else if (key === 'apad' && /^[0-8]$/.test(value ?? '')) knobs.apad = Number(value);
    else if (key === 'tile' && /^[1248]x[1248]$/.test(value ?? '')) knobs.tile = parseTile(part);
    else if (key === 'vload' && (value === '1' || value === '2' || value === '4'))
      knobs.vload = Number(value) as 1 | 2 | 4;
    else
      throw new Error(
        `SPIR-V knob '${part}' is none of index32, fill=divide|hoisted, unroll=none|hint|full, vload=1|2|4, fma, batch, ` +
          'tile=RxC (R, C: 1|2|4|8), lvec, pad=P, apad=P (P: 0..8), kloop, cvec, nrows, cstage[=1|2|4|8]',
      );
  }
  return knobs;
}
