// Lowering throughput: kernarg (in process) vs clang-16 producing the same kernel_arg_* metadata,
// side by side on one large generated file (thousands of kernels, with bodies).
// Run: npm run bench -- lower   (KERNELS=4000 to change the size)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { lower } from '../dist/lower.js';
import { lowerBenchInput } from './lower-source.js';

const target = Number(process.env.KERNELS ?? 4000);
const { source, kernels } = lowerBenchInput(target);
const dir = mkdtempSync(join(tmpdir(), 'kernarg-bench-'));
const file = join(dir, 'big.cl');
writeFileSync(file, source);
const lines = source.split('\n').length;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

// kernarg: warm up once, then time runs.
lower(file, source, { readFile: () => undefined }, { target: 'opencl', format: 'json', std: 'CL2.0' });
const ours: number[] = [];
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  const res = lower(file, source, { readFile: () => undefined }, { target: 'opencl', format: 'json', std: 'CL2.0' });
  ours.push(performance.now() - t0);
  if (!res.output) throw new Error(res.diagnostics.map((d) => d.message).join('\n'));
}
const oursPeak = process.resourceUsage().maxRSS / 1024;

// clang-16: the same metadata (spir64, -O0, -emit-llvm -S), timed as a process, peak RSS from GNU time.
const clangArgs = ['-cl-std=CL2.0', '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-o', '/dev/null', file];
const theirs: number[] = [];
let clangPeak = 0;
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  const p = spawnSync('/usr/bin/time', ['-f', '%M', 'clang-16', ...clangArgs], { encoding: 'utf8' });
  theirs.push(performance.now() - t0);
  if (p.status !== 0) throw new Error(p.stderr);
  clangPeak = Math.max(clangPeak, Number(p.stderr.trim().split('\n').pop()) / 1024);
}
const clangVersion = execFileSync('clang-16', ['--version'], { encoding: 'utf8' }).split('\n')[0];
const m = median(ours);
const c = median(theirs);
console.log(`input: ${kernels} kernels, ${lines} lines, ${(source.length / 1024).toFixed(0)} KiB`);
console.log(
  `kernarg lower --target opencl --format json: median ${m.toFixed(1)} ms (${(kernels / (m / 1000)).toFixed(0)} kernels/s), peak RSS ${oursPeak.toFixed(0)} MiB (whole bench process)`,
);
console.log(`${clangVersion} -emit-llvm -S -O0: median ${c.toFixed(1)} ms, peak RSS ${clangPeak.toFixed(0)} MiB`);
console.log(`ratio: kernarg is ${(c / m).toFixed(1)}x faster than clang-16 on the same file`);
