// Target scaling: in-process lowering of generated files of N kernels (struct, local and constant
// arguments, short bodies) through every target with --format json (streamed: its pieces made and
// dropped one by one, as the CLI writes them; 100,000 kernels of amdhsa JSON is longer than one
// V8 string), at 1×, 4×, 10× and 100× a base size. The targets run in turn within each repetition, so all see the same machine.
// Prints the CPU time per size (best of the repetitions), the fitted exponent (log-log slope between
// the smallest and largest size: 1.0 is linear), each target's time against the fastest target at
// 4× (the 4,000-kernel file), the output size and peak memory.
// Run: npm run bench -- targets   (BASE=1000 kernels by default; SIZES=1,4 for a quick look; REPS=5)
import { lower } from '../dist/lower.js';
import type { TargetName } from '../dist/lower.js';
import { targetScalingSource as source } from './target-source.js';

const BASE = Number(process.env.BASE ?? 1000);
const FACTORS = (process.env.SIZES ?? '1,4,10,100').split(',').map(Number);
const TARGETS: TargetName[] = ['opencl', 'vulkan', 'amdhsa', 'amd-cl2', 'r600', 'llvm'];

const REPS = Number(process.env.REPS ?? 5);
const host = { readFile: () => undefined };
const results = new Map<TargetName, number[]>();
const bytes = new Map<TargetName, number[]>();
for (const t of TARGETS) {
  results.set(t, []);
  bytes.set(t, []);
}
for (const f of FACTORS) {
  const text = source(BASE * f);
  const best = new Map<TargetName, number>(TARGETS.map((t) => [t, Infinity]));
  const runs = f >= 100 ? 1 : REPS;
  for (let r = 0; r < runs; r++) {
    for (const t of TARGETS) {
      // CPU time of this process (user + system, GC threads included): steadier than wall time on a shared machine.
      const c0 = process.cpuUsage();
      const res = lower('scale.cl', text, host, { target: t, format: 'json', chunked: true, streamed: true });
      if (!res.pieces) throw new Error(`${t}: ${res.diagnostics.map((d) => d.message).join('\n')}`);
      // The pieces made and dropped one by one, as the CLI writes them (its writes left out).
      let length = 0;
      for (const piece of res.pieces) length += piece.length;
      const c = process.cpuUsage(c0);
      const ms = (c.user + c.system) / 1000;
      best.set(t, Math.min(best.get(t)!, ms));
      if (r === 0) bytes.get(t)!.push(length);
    }
  }
  for (const t of TARGETS) results.get(t)!.push(best.get(t)!);
}
const mid = Math.max(0, FACTORS.indexOf(4));
const fastest = Math.min(...TARGETS.map((t) => results.get(t)![mid]));
console.log(`kernels: ${FACTORS.map((f) => BASE * f).join(' / ')}; CPU ms, best of ${REPS} (1 run at 100×); JSON size at the largest`);
console.log(['target'.padEnd(8), ...FACTORS.map((f) => `${BASE * f}`.padStart(10)), 'exponent'.padStart(9), `×fastest@${BASE * FACTORS[mid]}`.padStart(16), 'MiB'.padStart(8)].join(' '));
for (const t of TARGETS) {
  const ms = results.get(t)!;
  const k = Math.log(ms[ms.length - 1] / ms[0]) / Math.log(FACTORS[FACTORS.length - 1] / FACTORS[0]);
  const mib = bytes.get(t)!.at(-1)! / 2 ** 20;
  console.log([t.padEnd(8), ...ms.map((m) => m.toFixed(0).padStart(10)), k.toFixed(2).padStart(9), (ms[mid] / fastest).toFixed(2).padStart(16), mib.toFixed(0).padStart(8)].join(' '));
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
