// Target scaling: in-process lowering of generated files of N kernels (struct, local and constant
// arguments, short bodies) through every target, at 1×, 10× and 100× a base size. Prints the time
// per size, the fitted exponent (log-log slope between the smallest and largest size: 1.0 is
// linear) and each target's time against the fastest target at the middle size.
// Run: npm run bench -- targets   (BASE=1000 kernels by default; SIZES=1,4 for a quick look)
import { performance } from 'node:perf_hooks';
import { lower } from '../src/lower.js';
import type { TargetName } from '../src/lower.js';

const BASE = Number(process.env.BASE ?? 1000);
const FACTORS = (process.env.SIZES ?? '1,10,100').split(',').map(Number);
const TARGETS: TargetName[] = ['opencl', 'vulkan', 'amdhsa', 'amd-cl2', 'r600', 'llvm'];

/** One file of `n` kernels; each has a struct, a local, a constant and a global argument and calls a helper. */
function source(n: number): string {
  const parts: string[] = ['typedef struct { float3 p; int id; char tag; } Item;\n', 'int helper(int x) { return x * 2; }\n'];
  for (let i = 0; i < n; i++) {
    parts.push(
      `kernel void k${i}(global float* out, constant Item* items, local float* tile, Item it, uint n${i % 7 === 0 ? ', image2d_t img' : ''}) {\n` +
        `  size_t g = get_global_id(0); if (g < n) out[g] = tile[0] + it.p.x + helper((int)g);\n}\n`,
    );
  }
  return parts.join('');
}

const host = { readFile: () => undefined };
const results = new Map<TargetName, number[]>();
for (const t of TARGETS) results.set(t, []);
for (const f of FACTORS) {
  const text = source(BASE * f);
  for (const t of TARGETS) {
    const runs = f >= 100 ? 1 : 3;
    let best = Infinity;
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      const res = lower('scale.cl', text, host, { target: t, format: 'json' });
      const ms = performance.now() - t0;
      if (!res.output) throw new Error(`${t}: ${res.diagnostics.map((d) => d.message).join('\n')}`);
      best = Math.min(best, ms);
    }
    results.get(t)!.push(best);
  }
}
const mid = Math.min(1, FACTORS.length - 1);
const fastest = Math.min(...TARGETS.map((t) => results.get(t)![mid]));
console.log(`kernels: ${FACTORS.map((f) => BASE * f).join(' / ')}; ms (best of 3, 1 run at 100×)`);
console.log(['target'.padEnd(8), ...FACTORS.map((f) => `${BASE * f}`.padStart(10)), 'exponent'.padStart(9), `×fastest@${BASE * FACTORS[mid]}`.padStart(16)].join(' '));
for (const t of TARGETS) {
  const ms = results.get(t)!;
  const k = Math.log(ms[ms.length - 1] / ms[0]) / Math.log(FACTORS[FACTORS.length - 1] / FACTORS[0]);
  console.log([t.padEnd(8), ...ms.map((m) => m.toFixed(0).padStart(10)), k.toFixed(2).padStart(9), (ms[mid] / fastest).toFixed(2).padStart(16)].join(' '));
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
