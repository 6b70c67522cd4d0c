// The CLI per file against clang-16 on the real corpora: for every file, the wall time of
// `kernarg lower FILE --target amdhsa --format json` and of
// `clang-16 -target amdgcn-amd-amdhsa -mcpu=gfx900 -nogpulib -O0 -S` (the cheapest clang run that
// yields the same kernarg metadata), both given the build options the file's host passes
// (test/corpus/corpora.ts: darktable's, hashcat's, silx's), run in turn (kernarg, clang, kernarg,
// clang, …) so both see the same machine. Also `kernarg --version` against `node -e 0` (Node's own
// start-up, the floor). Prints per-file medians, each corpus's median of the per-pair ratios and
// peak memory of each side. Then each corpus's files in batches: one `kernarg lower --output-dir`
// call for all of them against clang-16 once per file and clang-16 with all files in one call.
// Run: npm run bench -- cli      (CORPUS=darktable|hashcat|silx|all, default all; or a folder of
// .cl files, given `-I` that folder; RUNS=7 pairs per file by default)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CORPORA } from '../test/corpus/corpora.js';

const RUNS = Number(process.env.RUNS ?? 7);
const KERNARG_FLAGS = ['--target', 'amdhsa', '--format', 'json'];
const CLANG_FLAGS = [
  '-x',
  'cl',
  '-cl-std=CL1.2',
  '-target',
  'amdgcn-amd-amdhsa',
  '-mcpu=gfx900',
  '-nogpulib',
  '-O0',
  '-S',
];
const bin = resolve(import.meta.dirname, '..', 'bin', 'kernarg.js');

interface Sample {
  readonly ms: number;
  readonly kib: number;
}

/** Runs a command under GNU time; returns its wall time and peak RSS (the command's own). */
function timed(cmd: string, args: readonly string[], cwd?: string): Sample {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, cwd });
  const ms = performance.now() - t0;
  const lines = r.stderr.trim().split('\n');
  const kib = Number(lines.at(-1));
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stderr}`);
  return { ms, kib };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function pair(
  name: string,
  a: [string, string[]],
  b: [string, string[]],
): { a: number; b: number; ratio: number; aPeak: number; bPeak: number } {
  timed(...a);
  timed(...b);
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  let aPeak = 0;
  let bPeak = 0;
  for (let i = 0; i < RUNS; i++) {
    const x = timed(...a);
    const y = timed(...b);
    as.push(x.ms);
    bs.push(y.ms);
    ratios.push(x.ms / y.ms);
    aPeak = Math.max(aPeak, x.kib);
    bPeak = Math.max(bPeak, y.kib);
  }
  const out = { a: median(as), b: median(bs), ratio: median(ratios), aPeak: aPeak / 1024, bPeak: bPeak / 1024 };
  console.log(
    `${name.padEnd(28)} ${out.a.toFixed(0).padStart(6)} ms ${out.b.toFixed(0).padStart(6)} ms  ratio ${out.ratio.toFixed(2)}  peak ${out.aPeak.toFixed(0)} / ${out.bPeak.toFixed(0)} MiB`,
  );
  return out;
}

function tryPair(...args: Parameters<typeof pair>): ReturnType<typeof pair> | undefined {
  try {
    return pair(...args);
  } catch {
    return undefined;
  }
}

console.log(`kernarg --version vs node -e 0 (${RUNS} pairs; median ms, median of per-pair ratios, peak RSS)`);
pair('--version', [process.execPath, [bin, '--version']], [process.execPath, ['-e', '0']]);

interface BenchFile {
  readonly path: string;
  readonly flags: readonly string[];
}

/** The corpora to time: CORPUS names one of test/corpus/corpora.ts (or `all`), or is a folder of .cl files. */
function corpora(which: string): { name: string; files: BenchFile[] }[] {
  const named = CORPORA.filter((c) => which === 'all' || c.name === which);
  if (named.length)
    return named.map((c) => ({ name: c.name, files: c.files().map((f) => ({ path: f.path, flags: f.flags })) }));
  const files = readdirSync(which)
    .filter((f) => f.endsWith('.cl'))
    .sort();
  return [{ name: which, files: files.map((f) => ({ path: join(which, f), flags: ['-I', which] })) }];
}

const summary: string[] = [];
for (const { name, files } of corpora(process.env.CORPUS ?? 'all')) {
  console.log(
    `\n${name}: kernarg lower --target amdhsa --format json vs clang-16 -O0 -S, per file (${files.length} files, the host's build options)`,
  );
  const ratios: number[] = [];
  const failed: string[] = [];
  const passed: BenchFile[] = [];
  for (const f of files) {
    const r = tryPair(
      basename(f.path),
      [process.execPath, [bin, 'lower', f.path, ...KERNARG_FLAGS, ...f.flags]],
      ['clang-16', [...CLANG_FLAGS, ...f.flags, '-o', '/dev/null', f.path]],
    );
    if (r) {
      ratios.push(r.ratio);
      passed.push(f);
    } else failed.push(basename(f.path));
  }
  if (failed.length) console.log(`left out (kernarg or clang refused them): ${failed.join(', ')}`);
  if (!ratios.length) throw new Error(`no file of ${name} went through both`);
  const speedups = ratios.map((r) => 1 / r);
  const line = `${name}, ${ratios.length} files: kernarg/clang median ratio ${median(ratios).toFixed(2)} (clang/kernarg ${median(speedups).toFixed(2)}×), worst ${Math.max(...ratios).toFixed(2)}, best ${Math.min(...ratios).toFixed(3)}`;
  console.log(`\n${line}`);
  summary.push(line);
  // Batches share one set of options: files with other options than the first one's are timed per call only.
  batch(passed.filter((f) => f.flags.join('\0') === passed[0].flags.join('\0')));
}
console.log(`\nper file, one call each:\n${summary.join('\n')}`);

/**
 * The same files in one call each: `kernarg lower --output-dir` (every file lowered by one process)
 * against clang-16 called once per file (what a build does) and clang-16 given all files at once
 * (`-S a.cl b.cl …` writes each .s into its working folder). Rounds alternate the three; the
 * per-file cost of a batch is its wall time over the number of files.
 */
function batch(files: readonly BenchFile[]): void {
  const paths = files.map((f) => f.path);
  const flags = files[0].flags;
  const rounds = Math.max(3, Math.min(RUNS, 5));
  const out = mkdtempSync(join(tmpdir(), 'kernarg-batch-'));
  const ours: number[] = [];
  const perCall: number[] = [];
  const theirs: number[] = [];
  let oursPeak = 0;
  let perCallPeak = 0;
  let theirsPeak = 0;
  for (let r = 0; r < rounds; r++) {
    const a = timed(process.execPath, [bin, 'lower', ...paths, '--output-dir', out, ...KERNARG_FLAGS, ...flags]);
    ours.push(a.ms);
    oursPeak = Math.max(oursPeak, a.kib);
    let sum = 0;
    for (const p of paths) {
      const c = timed('clang-16', [...CLANG_FLAGS, ...flags, '-o', '/dev/null', p]);
      sum += c.ms;
      perCallPeak = Math.max(perCallPeak, c.kib);
    }
    perCall.push(sum);
    const b = timed('clang-16', [...CLANG_FLAGS, ...flags, ...paths], out);
    theirs.push(b.ms);
    theirsPeak = Math.max(theirsPeak, b.kib);
  }
  const n = paths.length;
  const k = median(ours);
  const c1 = median(perCall);
  const cb = median(theirs);
  console.log(`\nbatch: ${n} files, ${rounds} rounds (median wall of the whole set; per file = / ${n})`);
  console.log(
    `kernarg lower --output-dir (one call)   ${k.toFixed(0).padStart(6)} ms  ${(k / n).toFixed(1).padStart(6)} ms/file  peak ${(oursPeak / 1024).toFixed(0)} MiB`,
  );
  console.log(
    `clang-16, one call per file            ${c1.toFixed(0).padStart(6)} ms  ${(c1 / n).toFixed(1).padStart(6)} ms/file  peak ${(perCallPeak / 1024).toFixed(0)} MiB  → kernarg ${(c1 / k).toFixed(2)}× faster`,
  );
  console.log(
    `clang-16, all files in one call        ${cb.toFixed(0).padStart(6)} ms  ${(cb / n).toFixed(1).padStart(6)} ms/file  peak ${(theirsPeak / 1024).toFixed(0)} MiB  → kernarg ${(cb / k).toFixed(2)}× faster`,
  );
}
