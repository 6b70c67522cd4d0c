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
}

/** Knobs from their written form: `default`, or `vload=1|2|4` and `aligned` joined by commas. Throws on anything else. */
export function parseOpenclKnobs(text: string): OpenclGemmKnobs {
  const knobs: { vload?: OpenclGemmKnobs['vload']; aligned?: boolean } = {};
  for (const part of text.split(',').filter((p) => p && p !== 'default')) {
    if (part === 'aligned') knobs.aligned = true;
    else if (/^vload=[124]$/.test(part)) knobs.vload = Number(part.slice(6)) as OpenclGemmKnobs['vload'];
    else throw new Error(`OpenCL GEMM knob '${part}': expected default, vload=1|2|4 or aligned`);
  }
  return knobs;
}
