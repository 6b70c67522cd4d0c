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
 * `fill=divide|hoisted`, `unroll=none|hint|full` (what SPIRV_KNOBS in bench/tinytc-kernels.ts and
 * scripts/gpu-gemm-sweep.sh take). Throws on anything else.
 */
export function parseSpirvKnobs(text: string): SpirvGemmKnobs {
  const knobs: { index32?: boolean; fill?: SpirvGemmKnobs['fill']; unroll?: SpirvGemmKnobs['unroll'] } = {};
  for (const part of text.split(',').filter((p) => p && p !== 'default')) {
    const [key, value] = part.split('=');
    if (key === 'index32' && value === undefined) knobs.index32 = true;
    else if (key === 'fill' && (value === 'divide' || value === 'hoisted')) knobs.fill = value;
    else if (key === 'unroll' && (value === 'none' || value === 'hint' || value === 'full')) knobs.unroll = value;
    else throw new Error(`SPIR-V knob '${part}' is none of index32, fill=divide|hoisted, unroll=none|hint|full`);
  }
  return knobs;
}
