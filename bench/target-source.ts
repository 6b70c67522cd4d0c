// The generated input of the target benchmarks (in-process `targets` and whole-CLI `targets-cli`).

/** One file of `n` kernels; each has a struct, a local, a constant and a global argument and calls a helper. */
export function targetScalingSource(n: number): string {
  const parts: string[] = [
    'typedef struct { float3 p; int id; char tag; } Item;\n',
    'int helper(int x) { return x * 2; }\n',
  ];
  for (let i = 0; i < n; i++) {
    parts.push(
      `kernel void k${i}(global float* out, constant Item* items, local float* tile, Item it, uint n${i % 7 === 0 ? ', image2d_t img' : ''}) {\n` +
        `  size_t g = get_global_id(0); if (g < n) out[g] = tile[0] + it.p.x + helper((int)g);\n}\n`,
    );
  }
  return parts.join('');
}
