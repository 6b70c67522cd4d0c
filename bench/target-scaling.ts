// Target scaling: in-process lowering of generated files of N kernels (struct, local and constant
// arguments, short bodies) through every target with --format json (streamed: its pieces made and
// dropped one by one, as the CLI writes them; 100,000 kernels of amdhsa JSON is longer than one
// V8 string), at 1×, 4×, 10× and 100× a base size.
//
// Each target is measured in a process of its own (this file again, KERNARG_TARGET_ROUND set),
// warmed up by WARM lowerings of the file, then the best of REPS (one run at 100×, warmed on the
// 4× file). In one process the targets shared one heap, and whichever ran when the old generation
// was full paid its collection: the same build measured vulkan at 1.09× the fastest in one order
// of the targets and 1.50× in the reverse order. Rounds (ROUNDS) alternate the targets, so a busy
// machine slows all alike; each figure is the best over the rounds.
// Prints the CPU time per size (user + system, GC threads included: steadier than wall time on a
// shared machine), the fitted exponent (log-log slope between the smallest and largest size: 1.0
// is linear), each target's time against the fastest target at 4× (the 4,000-kernel file), the
// output size and the largest child's peak memory.
// Run: npm run bench -- targets   (BASE=1000 kernels by default; SIZES=1,4 for a quick look; REPS=5, ROUNDS=2, WARM=4)
import { spawnSync } from 'node:child_process';
import { lower } from '../dist/lower.js';
import type { TargetName } from '../dist/lower.js';
import { targetScalingSource as source } from './target-source.js';

const BASE = Number(process.env.BASE ?? 1000);
const FACTORS = (process.env.SIZES ?? '1,4,10,100').split(',').map(Number);
const TARGETS: TargetName[] = ['opencl', 'vulkan', 'amdhsa', 'amd-cl2', 'r600', 'llvm'];
const REPS = Number(process.env.REPS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const WARM = Number(process.env.WARM ?? 4);
const host = { readFile: () => undefined };

/** One lowering, its pieces made and dropped: CPU ms and output characters. */
function lowerOnce(target: TargetName, text: string): { ms: number; length: number } {
  const c0 = process.cpuUsage();
  const res = lower('scale.cl', text, host, { target, format: 'json', chunked: true, streamed: true });
  if (!res.pieces) throw new Error(`${target}: ${res.diagnostics.map((d) => d.message).join('\n')}`);
  let length = 0;
  for (const piece of res.pieces) length += piece.length;
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000, length };
}

const round = process.env.KERNARG_TARGET_ROUND;
if (round) {
  // A child: one target at one size.
  const [target, kernels] = [round as TargetName, Number(process.env.KERNARG_TARGET_KERNELS)];
  const big = kernels >= 100 * BASE;
  const warmText = big ? source(4 * BASE) : source(kernels);
  for (let i = 0; i < WARM; i++) lowerOnce(target, warmText);
  const text = big ? source(kernels) : warmText;
  let best = Infinity;
  let length = 0;
  for (let i = 0; i < (big ? 1 : REPS); i++) {
    const r = lowerOnce(target, text);
    best = Math.min(best, r.ms);
    length = r.length;
  }
  console.log(JSON.stringify({ ms: best, length, rssMiB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const results = new Map<TargetName, number[]>(TARGETS.map((t) => [t, FACTORS.map(() => Infinity)]));
const bytes = new Map<TargetName, number>();
let peak = 0;
for (let fi = 0; fi < FACTORS.length; fi++) {
  const kernels = BASE * FACTORS[fi];
  for (let r = 0; r < (FACTORS[fi] >= 100 ? 1 : ROUNDS); r++) {
    for (const t of TARGETS) {
      const env = { ...process.env, KERNARG_TARGET_ROUND: t, KERNARG_TARGET_KERNELS: String(kernels) };
      const c = spawnSync(process.execPath, [...process.execArgv, import.meta.filename], {
        encoding: 'utf8',
        env,
        maxBuffer: 1 << 20,
      });
      if (c.status !== 0) throw new Error(`${t} at ${kernels} kernels: ${c.stderr}`);
      const out = JSON.parse(c.stdout.trim().split('\n').pop()!) as { ms: number; length: number; rssMiB: number };
      const row = results.get(t)!;
      row[fi] = Math.min(row[fi], out.ms);
      if (fi === FACTORS.length - 1) bytes.set(t, out.length);
      peak = Math.max(peak, out.rssMiB);
    }
  }
}
const mid = Math.max(0, FACTORS.indexOf(4));
const fastest = Math.min(...TARGETS.map((t) => results.get(t)![mid]));
console.log(
  `kernels: ${FACTORS.map((f) => BASE * f).join(' / ')}; CPU ms, each target in a process of its own, ${WARM} warm-up lowerings, best of ${REPS} × ${ROUNDS} rounds (1 run at 100×); JSON size at the largest`,
);
console.log(
  [
    'target'.padEnd(8),
    ...FACTORS.map((f) => `${BASE * f}`.padStart(10)),
    'exponent'.padStart(9),
    `×fastest@${BASE * FACTORS[mid]}`.padStart(16),
    'MiB'.padStart(8),
  ].join(' '),
);
for (const t of TARGETS) {
  const ms = results.get(t)!;
  const k = Math.log(ms[ms.length - 1] / ms[0]) / Math.log(FACTORS[FACTORS.length - 1] / FACTORS[0]);
  const mib = bytes.get(t)! / 2 ** 20;
  console.log(
    [
      t.padEnd(8),
      ...ms.map((m) => m.toFixed(0).padStart(10)),
      k.toFixed(2).padStart(9),
      (ms[mid] / fastest).toFixed(2).padStart(16),
      mib.toFixed(0).padStart(8),
    ].join(' '),
  );
}
console.log(`peak RSS of the largest child ${peak.toFixed(0)} MiB`);
