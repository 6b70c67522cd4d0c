// The `lower` benchmark's input: generated kernels (test/support/gen.ts, fixed seeds) with short
// bodies, shared by bench/lower-throughput.ts and bench/frontend-baseline.ts.
import { programSpec, render, samples } from '../test/support/gen.js';

/** The `lower` benchmark's file: generated kernels with bodies (the same generator and seeds). */
export function lowerBenchInput(target: number): { source: string; kernels: number } {
  const body = `{
  size_t i = get_global_id(0);
  for (int k = 0; k < 16; ++k) { if (i > k) { barrier(CLK_LOCAL_MEM_FENCE); } }
  float acc = 0.0f; acc += (float)i * 2.0f;
}`;
  let source = '';
  let kernels = 0;
  for (let i = 0; kernels < target; i++) {
    for (const spec of samples(programSpec, 50, 1000 + i).values) {
      if (kernels >= target) break;
      const r = render(spec, `b${i}_${kernels}`);
      source += r.source.replace(/\{ \}/g, body);
      kernels += r.kernelCount;
    }
  }
  return { source, kernels };
}

export const lowerBenchSource = (target: number): string => lowerBenchInput(target).source;
