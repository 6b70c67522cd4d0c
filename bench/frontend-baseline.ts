// The OpenCL C frontend against a baseline build, side by side: `kernarg lower` of the scaling
// inputs (0.1, 1 and 10 MB) and of the `lower` benchmark's file, each run alternating between the
// baseline's CLI and this checkout's, in fresh processes. CPU time (user + system, from GNU time:
// the machine may be loaded) and peak RSS, medians over PAIRS pairs, and this/baseline ratios.
// Run: BASELINE=/path/to/other/checkout npm run bench -- frontend   (PAIRS=5 to change the count)
// The baseline checkout needs its dist/ built (npm ci there, or `git worktree add` + npm run build).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lowerBenchSource } from './lower-source.js';
import { openclSource } from './scaling-inputs.js';

const baseline = process.env.BASELINE;
if (!baseline) {
  console.error('set BASELINE to the checkout to compare with (its dist/ built)');
  process.exit(2);
}
const pairs = Number(process.env.PAIRS ?? 3);
const here = resolve(fileURLToPath(import.meta.url), '../..');

interface Run {
  cpu: number;
  rss: number;
}

function run(checkout: string, file: string): Run {
  const p = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%U %S %M',
      process.execPath,
      join(checkout, 'bin/kernarg.js'),
      'lower',
      file,
      '--target',
      'opencl',
      '--format',
      'json',
      '--cl-std',
      'CL2.0',
      '-o',
      '/dev/null',
    ],
    { encoding: 'utf8' },
  );
  if (p.status !== 0) throw new Error(`${checkout}: ${p.stderr}`);
  const [user, sys, kb] = p.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { cpu: (user + sys) * 1000, rss: kb / 1024 };
}

/** In a fresh process: lower() warmed once, then RUNS timed runs; the median run's CPU time and the process's peak RSS. */
const WARM = `
const [lib, file] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const { lower } = await import(lib);
const source = readFileSync(file, 'utf8');
const opts = { target: 'opencl', format: 'json', std: 'CL2.0' };
const once = () => { const r = lower(file, source, { readFile: () => undefined }, opts); if (r.output === undefined) throw new Error('did not lower'); };
once();
const ts = [];
for (let i = 0; i < 5; i++) { const c = process.cpuUsage(); once(); const d = process.cpuUsage(c); ts.push((d.user + d.system) / 1000); }
ts.sort((a, b) => a - b);
console.log(JSON.stringify({ cpu: ts[2], rss: process.resourceUsage().maxRSS / 1024 }));
`;
function warm(checkout: string, file: string): Run {
  const p = spawnSync(process.execPath, ['--input-type=module', '-e', WARM, join(checkout, 'dist/lower.js'), file], {
    encoding: 'utf8',
  });
  if (p.status !== 0) throw new Error(`${checkout}: ${p.stderr}`);
  return JSON.parse(p.stdout.trim().split('\n').pop()!) as Run;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const dir = mkdtempSync(join(tmpdir(), 'kernarg-frontend-'));
try {
  const row = (name: string, bytes: number, base: Run[], ours: Run[]) => {
    const b = { cpu: median(base.map((r) => r.cpu)), rss: median(base.map((r) => r.rss)) };
    const o = { cpu: median(ours.map((r) => r.cpu)), rss: median(ours.map((r) => r.rss)) };
    console.log(
      `${name.padEnd(44)} ${`${(bytes / 1e6).toFixed(1)} MB`.padStart(7)} ${`${b.cpu.toFixed(0)} ms`.padStart(13)} ${`${b.rss.toFixed(0)} MiB`.padStart(9)} ${`${o.cpu.toFixed(0)} ms`.padStart(12)} ${`${o.rss.toFixed(0)} MiB`.padStart(9)} ${`${(o.cpu / b.cpu).toFixed(2)}x`.padStart(11)} ${`${(o.rss / b.rss).toFixed(2)}x`.padStart(10)}`,
    );
  };
  const inputs: [string, string][] = [
    ['scaling 1x', openclSource(100)],
    ['scaling 10x', openclSource(1000)],
    ['scaling 100x', openclSource(10000)],
    ['lower bench (4,000 kernels)', lowerBenchSource(4000)],
  ];
  console.log(`baseline: ${baseline}; this: ${here}; ${pairs} alternating pairs, medians`);
  console.log(`${'input'.padEnd(44)}    size   baseline CPU  peak RSS     this CPU  peak RSS   CPU ratio  RSS ratio`);
  for (const [name, source] of inputs) {
    const file = join(dir, 'in.cl');
    writeFileSync(file, source);
    const base: Run[] = [];
    const ours: Run[] = [];
    for (let i = 0; i < pairs; i++) {
      base.push(run(baseline, file));
      ours.push(run(here, file));
    }
    row(`CLI: ${name}`, source.length, base, ours);
  }
  // In process, warm (the lower benchmark's setting): the median of 5 runs after one warm-up.
  const [name, source] = inputs[inputs.length - 1];
  const file = join(dir, 'in.cl');
  writeFileSync(file, source);
  const base: Run[] = [];
  const ours: Run[] = [];
  for (let i = 0; i < pairs; i++) {
    base.push(warm(baseline, file));
    ours.push(warm(here, file));
  }
  row(`in process, warm: ${name}`, source.length, base, ours);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
