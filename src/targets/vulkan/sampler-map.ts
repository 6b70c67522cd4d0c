/** Values of the sampler constants a sampler map may combine. */
const SAMPLER_BITS: Record<string, number> = {
  CLK_NORMALIZED_COORDS_FALSE: 0,
  CLK_NORMALIZED_COORDS_TRUE: 1,
  CLK_ADDRESS_NONE: 0,
  CLK_ADDRESS_CLAMP_TO_EDGE: 2,
  CLK_ADDRESS_CLAMP: 4,
  CLK_ADDRESS_REPEAT: 6,
  CLK_ADDRESS_MIRRORED_REPEAT: 8,
  CLK_FILTER_NEAREST: 0x10,
  CLK_FILTER_LINEAR: 0x20,
};

/**
 * Parses a clspv sampler map: entries separated by commas (or newlines), each a `|`-joined set
 * of CLK_ sampler constants. Returns the masks, or the 1-based line and problem of the first bad entry.
 */
export function parseSamplerMap(text: string): { masks: number[] } | { line: number; message: string } {
  const masks: number[] = [];
  let line = 1;
  for (const raw of text.split(/(,|\n)/)) {
    if (raw === '\n') {
      line++;
      continue;
    }
    if (raw === ',' || raw.trim() === '') continue;
    let mask = 0;
    for (const part of raw.split('|').map((p) => p.trim())) {
      if (!(part in SAMPLER_BITS) || !Object.hasOwn(SAMPLER_BITS, part))
        return { line, message: `unknown sampler constant '${part}'` };
      mask |= SAMPLER_BITS[part];
    }
    masks.push(mask);
  }
  return { masks };
}
