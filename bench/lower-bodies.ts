// Lowering throughput where function bodies dominate: kernarg in process (warm) against clang-16
// `-target spir64 -emit-llvm -S -O0` (the cheapest clang run that yields the same argument
// metadata), on (1) a generated file of thousands of kernels with hash-round bodies
// (bench/bodies-source.ts) at several sizes, for the ratio and for linearity in input size, and
// (2) the real-world hashcat selection (test/corpus/corpora.ts, hashcat's build options; each file
// pulls in ~2.6 MB of inc_* library), file by file: the median of per-file ratios.
// kernarg runs in child processes (one per checkout and input set: warm-up, then the median of RUNS
// runs' CPU time, user + system); clang is a process per run (CPU time and peak RSS from GNU time).
// Peak RSS of kernarg is its whole process's. With BASELINE=/other/checkout (dist/ built) its
// lowering is measured beside this checkout's, alternating.
// Run: npm run bench -- lower-bodies   (KERNELS=2000 for the largest generated size, RUNS=5)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA, CORPUS_ROOT } from '../test/corpus/corpora.js';
import { frontendFlags } from '../test/corpus/frontend-flags.js';
import { bodiesBenchSource } from './bodies-source.js';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const baseline = process.env.BASELINE;
const largest = Number(process.env.KERNELS ?? 2000);
const runs = Number(process.env.RUNS ?? 5);

interface Job { path: string; std: string; includeDirs: string[]; commandLine: unknown[] }
interface Measured { cpu: number[]; rss: number }

/** In a fresh process: each job lowered once to warm up, then `runs` times; the median CPU time per job. */
const CHILD = `
const [lib, jobsJson, runs] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const { lower } = await import(lib);
const host = { readFile: (p) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } } };
const cpu = [];
for (const job of JSON.parse(jobsJson)) {
  const text = readFileSync(job.path, 'utf8');
  const opts = { target: 'opencl', format: 'json', std: job.std, includeDirs: job.includeDirs, commandLine: job.commandLine };
  const once = () => { const r = lower(job.path, text, host, opts); if (r.output === undefined) throw new Error(job.path + ': ' + r.diagnostics.map((d) => d.message).join('; ')); };
  once();
  const ts = [];
  for (let i = 0; i < Number(runs); i++) { const c = process.cpuUsage(); once(); const d = process.cpuUsage(c); ts.push((d.user + d.system) / 1000); }
  ts.sort((a, b) => a - b);
  cpu.push(ts[ts.length >> 1]);
}
console.log(JSON.stringify({ cpu, rss: process.resourceUsage().maxRSS / 1024 }));
`;

function kernarg(checkout: string, jobs: Job[]): Measured {
  const p = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, join(checkout, 'dist/lower.js'), JSON.stringify(jobs), String(runs)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (p.status !== 0) throw new Error(`${checkout}: ${p.stderr}`);
  return JSON.parse(p.stdout.trim().split('\n').pop()!) as Measured;
}

/** clang-16 on one file: the median CPU time of `count` runs and the largest peak RSS. */
function clang(job: Job, flags: readonly string[], count = 3): { cpu: number; rss: number } {
  const cpu: number[] = [];
  let rss = 0;
  for (let i = 0; i < count; i++) {
    const args = [`-cl-std=${job.std}`, '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-o', '/dev/null', ...flags, job.path];
    const p = spawnSync('/usr/bin/time', ['-f', '%U %S %M', 'clang-16', ...args], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`clang-16 ${job.path}: ${p.stderr.slice(0, 500)}`);
    const [user, sys, kb] = p.stderr.trim().split('\n').pop()!.split(' ').map(Number);
    cpu.push((user + sys) * 1000);
    rss = Math.max(rss, kb / 1024);
  }
  return { cpu: median(cpu), rss };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (x: number) => `${x.toFixed(1)} ms`;

const dir = mkdtempSync(join(tmpdir(), 'kernarg-bodies-'));
try {
  // (1) Generated, body-heavy: ratio to clang at each size, and how kernarg's time grows with size.
  const sizes = [largest / 8, largest / 4, largest / 2, largest].map(Math.round);
  const jobs: Job[] = sizes.map((k) => {
    const path = join(dir, `bodies-${k}.cl`);
    writeFileSync(path, bodiesBenchSource(k));
    return { path, std: 'CL1.2', includeDirs: [], commandLine: [] };
  });
  const bytes = sizes.map((k) => bodiesBenchSource(k).length);
  const ours = kernarg(here, jobs);
  const base = baseline ? kernarg(baseline, jobs) : undefined;
  console.log(`generated body-heavy files (bench/bodies-source.ts); kernarg: opencl target, json, in process, warm, median of ${runs}; clang-16 -target spir64 -emit-llvm -S -O0: median of 3 processes`);
  console.log(`${'kernels'.padStart(8)} ${'size'.padStart(8)} ${'kernarg'.padStart(10)} ${'MB/s'.padStart(6)} ${baseline ? `${'baseline'.padStart(10)} ${'base/this'.padStart(9)} ` : ''}${'clang-16'.padStart(10)} ${'clang RSS'.padStart(9)} ${'clang/kernarg'.padStart(13)}`);
  sizes.forEach((k, i) => {
    const c = clang(jobs[i], []);
    const o = ours.cpu[i];
    console.log(`${String(k).padStart(8)} ${`${(bytes[i] / 1e6).toFixed(2)} MB`.padStart(8)} ${ms(o).padStart(10)} ${(bytes[i] / 1e3 / o).toFixed(0).padStart(6)} ${base ? `${ms(base.cpu[i]).padStart(10)} ${`${(base.cpu[i] / o).toFixed(2)}x`.padStart(9)} ` : ''}${ms(c.cpu).padStart(10)} ${`${c.rss.toFixed(0)} MiB`.padStart(9)} ${`${(c.cpu / o).toFixed(1)}x`.padStart(13)}`);
  });
  const exponent = Math.log(ours.cpu[ours.cpu.length - 1] / ours.cpu[0]) / Math.log(bytes[bytes.length - 1] / bytes[0]);
  console.log(`kernarg time ~ size^${exponent.toFixed(2)} from ${sizes[0]} to ${sizes[sizes.length - 1]} kernels (1.00 is linear); peak RSS ${ours.rss.toFixed(0)} MiB${base ? `, baseline ${base.rss.toFixed(0)} MiB` : ''} (whole process, all sizes)`);

  // (2) The hashcat selection, file by file.
  const hashcat = CORPORA.find((c) => c.name === 'hashcat')!;
  if (!existsSync(CORPUS_ROOT)) console.log('hashcat: no corpus (run scripts/fetch-corpus.sh)');
  else {
    const files = hashcat.files();
    const hjobs: Job[] = files.map((f) => ({ path: f.path, std: 'CL1.2', ...frontendFlags(f.flags) }));
    const hours = kernarg(here, hjobs);
    const hbase = baseline ? kernarg(baseline, hjobs) : undefined;
    const ratios: number[] = [];
    const baseRatios: number[] = [];
    let clangRss = 0;
    files.forEach((f, i) => {
      const c = clang(hjobs[i], f.flags.filter((x) => x !== '-w').concat('-w'));
      clangRss = Math.max(clangRss, c.rss);
      ratios.push(c.cpu / hours.cpu[i]);
      if (hbase) baseRatios.push(hbase.cpu[i] / hours.cpu[i]);
      if (process.env.VERBOSE) console.log(`  ${f.name}: kernarg ${ms(hours.cpu[i])}, clang-16 ${ms(c.cpu)}, ${(c.cpu / hours.cpu[i]).toFixed(1)}x`);
    });
    console.log(`hashcat (${files.length} files, hashcat's build options): kernarg median ${ms(median(hours.cpu))} per file, clang-16/kernarg median of per-file ratios ${median(ratios).toFixed(1)}x (min ${Math.min(...ratios).toFixed(1)}x, max ${Math.max(...ratios).toFixed(1)}x)${hbase ? `; baseline/this median ${median(baseRatios).toFixed(2)}x` : ''}`);
    console.log(`peak RSS: kernarg ${hours.rss.toFixed(0)} MiB (whole process, all files)${hbase ? `, baseline ${hbase.rss.toFixed(0)} MiB` : ''}; clang-16 ${clangRss.toFixed(0)} MiB (largest single run)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
