// In-process lowering against clang-16 on real files of several shapes (issue 30, goal 3: ≥20× on
// any realistic file, not one benchmark file). The shapes are files from the fetched corpus
// (scripts/fetch-corpus.sh), taken whole with their include folders and their host's build options
// (test/corpus/corpora.ts), grouped by what makes them costly:
//   many small kernels      darktable's kernel libraries: tens of short kernels a file
//   long branchy bodies     darktable's filmic and demosaic files: few kernels, bodies of hundreds of lines
//   struct-heavy signatures hashcat's slow hashes: kernels of 20+ parameters, pointers to structs, tmps/esalt
//   include-heavy           hashcat's fast hashes: each file pulls in ~2.6 MB of its inc_* library
//   small real files        silx's resource files, each built on its own
// Per shape and target: kernarg `lower(--format json)` in a fresh process (the JSON streamed and every
// piece made, as the CLI writes it), every target warmed on every file WARM times, then the median of
// RUNS runs' CPU time (user + system: the machine may be shared, so wall time measures the neighbours too);
// clang-16 `-target spir64 -emit-llvm -S -O0` (the cheapest run that yields the same kernel_arg_*
// metadata) on the same files, median of 3 processes' CPU time. The shape's ratio is the sum of
// clang's medians over the sum of kernarg's; the line prints the slowest target's, with the peak
// RSS of kernarg's process (all targets of that shape) and clang's largest.
// Run: npm run bench -- lower-shapes   (SHAPES="include-heavy" to pick; TARGETS="opencl amdhsa"; RUNS=5, WARM=6)
// Paired with another built checkout (BASELINE=/path/to/it: its dist/lower.js): per shape, clang once and kernarg's
// children of both in the order this, baseline, baseline, this; each target's CPU time is the lower of its two
// children's, so both sides meet the same neighbours; each line then gives both, each with its ratio to clang.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS_ROOT, type CorpusFile } from '../test/corpus/corpora.js';
import { frontendFlags } from '../test/corpus/frontend-flags.js';
import { TARGET_NAMES } from '../src/targets/target-names.js';
import { SHAPES } from './lower-shape-files.js';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const RUNS = Number(process.env.RUNS ?? 5);
const WARM = Number(process.env.WARM ?? 6);
const TARGETS = (process.env.TARGETS ?? TARGET_NAMES.join(' ')).split(/\s+/).filter(Boolean);
const BASELINE = process.env.BASELINE ? resolve(process.env.BASELINE) : undefined;

interface Job {
  path: string;
  std: string;
  includeDirs: string[];
  commandLine: unknown[];
}

/** In a fresh process: every target warmed on every job, then per target the median CPU time of `runs` lowerings. */
const CHILD = `
const [lib, jobsJson, targetsJson, runs, warm] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const { lower } = await import(lib);
// Included files are read as kernarg lower reads them (its build's own reader, beside the lowering).
const { readInput } = await import(new URL('cli/read-input.js', 'file://' + lib).href);
const host = { readFile: (p) => { const r = readInput(p); return 'text' in r ? r.text : undefined; } };
const jobs = JSON.parse(jobsJson).map((j) => ({ ...j, text: readFileSync(j.path, 'utf8') }));
const targets = JSON.parse(targetsJson);
const refused = {};
/** One lowering, every piece of its JSON made; false if the target refuses the file. */
function once(target, job) {
  const opts = { ...job, target, format: 'json', chunked: true, streamed: true };
  const r = lower(job.path, job.text, host, opts);
  if (r.pieces === undefined) {
    const errors = r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
    refused[target] = job.path.split('/').pop() + ': ' + errors.join('; ').slice(0, 120);
    return false;
  }
  for (const p of r.pieces) p.length;
  return true;
}
// Every target on every file first: no target is timed while V8 still optimises code the others share.
for (let i = 0; i < Number(warm); i++)
  for (const target of targets) for (const job of jobs) if (!refused[target] && !once(target, job)) break;
const out = {};
for (const target of targets) {
  if (refused[target]) { out[target] = { refused: refused[target] }; continue; }
  const cpu = [];
  for (const job of jobs) {
    const ts = [];
    for (let i = 0; i < Number(runs); i++) {
      const c = process.cpuUsage();
      once(target, job);
      const d = process.cpuUsage(c);
      ts.push((d.user + d.system) / 1000);
    }
    ts.sort((a, b) => a - b);
    cpu.push(ts[ts.length >> 1]);
  }
  out[target] = { cpu };
}
console.log(JSON.stringify({ out, rss: process.resourceUsage().maxRSS / 1024 }));
`;

interface Measured {
  out: Record<string, { cpu?: number[]; refused?: string }>;
  rss: number;
}

function kernarg(jobs: Job[], root = here): Measured {
  const p = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      CHILD,
      join(root, 'dist/lower.js'),
      JSON.stringify(jobs),
      JSON.stringify(TARGETS),
      String(RUNS),
      String(WARM),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  if (p.status !== 0) throw new Error(p.stderr);
  return JSON.parse(p.stdout.trim().split('\n').pop()!) as Measured;
}

/** Per target, the lower CPU time of one side's two children. */
function lowerOf(first: Measured, second: Measured): Measured {
  const out: Measured['out'] = {};
  for (const target of Object.keys(first.out)) {
    const a = first.out[target].cpu;
    const b = second.out[target]?.cpu;
    out[target] = a && b ? { cpu: sum(a) <= sum(b) ? a : b } : first.out[target];
  }
  return { out, rss: Math.max(first.rss, second.rss) };
}

/** This checkout's measures, and with BASELINE the baseline's, children run this, baseline, baseline, this. */
function measured(jobs: Job[]): { ours: Measured; base?: Measured } {
  if (!BASELINE) return { ours: kernarg(jobs) };
  const first = kernarg(jobs);
  const base = lowerOf(kernarg(jobs, BASELINE), kernarg(jobs, BASELINE));
  return { ours: lowerOf(first, kernarg(jobs)), base };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** clang-16 on one file: the median CPU time of 3 runs and the largest peak RSS; undefined if it refuses the file. */
function clang(job: Job, flags: readonly string[]): { cpu: number; rss: number } | undefined {
  const cpu: number[] = [];
  let rss = 0;
  for (let i = 0; i < 3; i++) {
    const args = [`-cl-std=${job.std}`, '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-o', '/dev/null'];
    const p = spawnSync('/usr/bin/time', ['-f', '%U %S %M', 'clang-16', ...args, ...flags, job.path], {
      encoding: 'utf8',
    });
    if (p.status !== 0) return undefined;
    const [user, sys, kb] = p.stderr.trim().split('\n').pop()!.split(' ').map(Number);
    cpu.push((user + sys) * 1000);
    rss = Math.max(rss, kb / 1024);
  }
  return { cpu: median(cpu), rss };
}

if (!existsSync(CORPUS_ROOT)) {
  console.error('no corpus: run scripts/fetch-corpus.sh');
  process.exit(1);
}
const pick = process.env.SHAPES?.split(',').map((s) => s.trim());
console.log(
  `kernarg lower (in process, warm ×${WARM}, median of ${RUNS}, CPU) ` +
    `vs clang-16 -emit-llvm -S -O0 (median of 3), per shape`,
);
const summary: string[] = [];
for (const [shape, files] of Object.entries(SHAPES)) {
  if (pick && !pick.includes(shape)) continue;
  // clang first: a file it refuses with its host's options (silx's that need -D from the host) is left out.
  const list: CorpusFile[] = [];
  const jobs: Job[] = [];
  const left: string[] = [];
  let clangCpu = 0;
  let clangRss = 0;
  for (const f of files()) {
    const job = { path: f.path, std: 'CL1.2', ...frontendFlags(f.flags) };
    const c = clang(job, f.flags);
    if (!c) {
      left.push(basename(f.path));
      continue;
    }
    list.push(f);
    jobs.push(job);
    clangCpu += c.cpu;
    clangRss = Math.max(clangRss, c.rss);
  }
  const bytes = sum(list.map((f) => statSync(f.path).size));
  const { ours, base } = measured(jobs);
  if (left.length)
    console.log(`\n${shape}: left out (clang-16 refuses them with the host's options): ${left.join(', ')}`);
  console.log(
    `\n${shape}: ${list.length} files (${(bytes / 1024).toFixed(0)} KiB before includes), ` +
      `clang-16 ${clangCpu.toFixed(1)} ms CPU`,
  );
  let slowest: { target: string; ratio: number; ms: number } | undefined;
  for (const target of TARGETS) {
    const m = ours.out[target];
    if (!m.cpu) {
      console.log(`  ${target.padEnd(8)} refused: ${m.refused}`);
      continue;
    }
    const ms = sum(m.cpu);
    const ratio = clangCpu / ms;
    const b = base?.out[target]?.cpu;
    const paired = b
      ? `   baseline ${sum(b).toFixed(2).padStart(8)} ms  ${(clangCpu / sum(b)).toFixed(1).padStart(6)}×`
      : '';
    console.log(`  ${target.padEnd(8)} ${ms.toFixed(2).padStart(8)} ms  ${ratio.toFixed(1).padStart(6)}×${paired}`);
    if (!slowest || ratio < slowest.ratio) slowest = { target, ratio, ms };
  }
  const { target, ms, ratio } = slowest!;
  const line =
    `${shape.padEnd(24)} slowest ${target.padEnd(8)} ${ms.toFixed(1).padStart(7)} ms ` +
    `vs clang-16 ${clangCpu.toFixed(0).padStart(5)} ms: ${ratio.toFixed(1).padStart(5)}×  ` +
    `peak ${ours.rss.toFixed(0)} / ${clangRss.toFixed(0)} MiB`;
  // The baseline's slowest target on the same shape, against the same clang run.
  const baseMs = base && TARGETS.map((t) => base.out[t]?.cpu).filter((c) => c !== undefined);
  const baseSlowest = baseMs?.length ? Math.max(...baseMs.map(sum)) : undefined;
  const then = baseSlowest ? `  (baseline slowest ${(clangCpu / baseSlowest).toFixed(1)}×)` : '';
  summary.push(line + then);
}
console.log(`\nper shape, the slowest target (kernarg peak RSS: its process, all targets; clang's: largest run):`);
console.log(summary.join('\n'));
