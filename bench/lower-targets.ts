// The targets' half of in-process lowering on real code (issue 30, goal 3): what `lower()` costs after the frontend,
// per target, on the shapes of `npm run bench -- lower-shapes`, with the frontend's output held fixed (each file
// compiled once per target, then its target part run many times: bench/lower-targets-child.mjs). The frontend is
// timed by lower-shapes and bench/frontend-baseline.ts; this one says which target costs what on real code, where
// kernels seldom share a signature and the shape memo rarely hits.
// Run: npm run bench -- lower-targets   (SHAPES="many small kernels" to pick; TARGETS="cuda zebin"; RUNS=9, WARM=20)
// Paired (BASELINE=/path/to/another/built/checkout): per shape, ROUNDS rounds of children in the order this,
// baseline, baseline, this; per target the median over a side's children of its summed per-file medians, CPU time
// (user + system), and the per-round ratio's median and range, since CPU time on a shared machine moves by tens of
// percent from one child to the next.
// CALLGRIND=1: instruction counts instead (valgrind --tool=callgrind, repeatable under load): per side and target the
// instructions of one lowering of each file (median of RUNS, GC and any compiling inside it counted), summed over the
// shape's files; node runs --single-threaded so that no compiler or GC thread works beside the lowering.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS_ROOT } from '../test/corpus/corpora.js';
import { frontendFlags } from '../test/corpus/frontend-flags.js';
import { TARGET_NAMES } from '../src/targets/target-names.js';
import { SHAPES } from './lower-shape-files.js';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const CHILD = join(here, 'bench/lower-targets-child.mjs');
const RUNS = Number(process.env.RUNS ?? (process.env.CALLGRIND ? 5 : 9));
const WARM = Number(process.env.WARM ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TARGETS = (process.env.TARGETS ?? TARGET_NAMES.join(' ')).split(/\s+/).filter(Boolean);
const BASELINE = process.env.BASELINE ? resolve(process.env.BASELINE) : undefined;

interface Measured {
  out: Record<string, number[]>;
  rss: number;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function child(root: string, jobsPath: string, targets: readonly string[], runs: number, check: boolean): Measured {
  const args = [CHILD, join(root, 'dist'), jobsPath, targets.join(','), String(runs), String(WARM)];
  const p = spawnSync(process.execPath, check ? [...args, 'check'] : args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (p.status !== 0) throw new Error(p.stderr);
  return JSON.parse(p.stdout.trim().split('\n').pop()!) as Measured;
}

/** A process run to its end, its output kept (the two sides' callgrind children run side by side). */
function run(cmd: string, args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(cmd, args);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d));
    p.stderr.on('data', (d: Buffer) => (stderr += d));
    p.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/**
 * Instructions of each timed lowering of one child under callgrind, per target the files' medians summed. Callgrind
 * dumps its counts each time the child reads its CPU time (`process.cpuUsage` calls getrusage), so the dumps alternate
 * between a timed lowering and the child's bookkeeping between two: the lowerings are dumps 1, 3, 5, ... after the
 * first, in the child's order (per target, per file, RUNS runs).
 */
async function instructions(root: string, jobsPath: string, dir: string): Promise<Record<string, number>> {
  const cg = mkdtempSync(join(dir, 'cg-'));
  const p = await run('valgrind', [
    '--tool=callgrind',
    '--dump-before=getrusage',
    `--callgrind-out-file=${join(cg, 'out')}`,
    process.execPath,
    '--single-threaded',
    CHILD,
    join(root, 'dist'),
    jobsPath,
    TARGETS.join(','),
    String(RUNS),
    String(WARM),
  ]);
  if (p.status !== 0) throw new Error(p.stderr.slice(-2000));
  const dumps = readdirSync(cg)
    .map((f) => ({ n: Number(f.split('.')[1] ?? 0), f }))
    .filter((d) => d.n > 0)
    .sort((a, b) => a.n - b.n)
    .map((d) => Number(readFileSync(join(cg, d.f), 'utf8').match(/^totals: (\d+)/m)![1]));
  rmSync(cg, { recursive: true });
  // dumps[0]: start-up, compiling and warming; then a lowering, the bookkeeping after it, the next lowering...
  const lowerings = dumps.slice(1).filter((_, i) => i % 2 === 0);
  // The files each target lowers (a target may refuse one), as the child printed its CPU times.
  const files = (JSON.parse(p.stdout.trim().split('\n').pop()!) as Measured).out;
  const want = sum(TARGETS.map((t) => files[t].length)) * RUNS;
  if (lowerings.length !== want) throw new Error(`callgrind: ${lowerings.length} lowerings dumped, ${want} expected`);
  const out: Record<string, number> = {};
  let at = 0;
  for (const t of TARGETS) {
    out[t] = 0;
    for (let f = 0; f < files[t].length; f++, at += RUNS) out[t] += median(lowerings.slice(at, at + RUNS));
  }
  return out;
}

if (!existsSync(CORPUS_ROOT)) {
  console.error('no corpus: run scripts/fetch-corpus.sh');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'lower-targets-'));
const pick = process.env.SHAPES?.split(',').map((s) => s.trim());
const mode = process.env.CALLGRIND ? `callgrind Ir, median of ${RUNS}` : `CPU, ${ROUNDS} rounds`;
console.log(`target part of lower(--format json, streamed), frontend held fixed; warm ×${WARM}, ${mode}`);
for (const [shape, files] of Object.entries(SHAPES)) {
  if (pick && !pick.includes(shape)) continue;
  const jobs = files().map((f) => ({ path: f.path, std: 'CL1.2', ...frontendFlags(f.flags) }));
  const jobsPath = join(dir, 'jobs.json');
  writeFileSync(jobsPath, JSON.stringify(jobs));
  console.log(`\n${shape}: ${jobs.length} files`);
  if (process.env.CALLGRIND) {
    // Both sides at once: instruction counts do not depend on what else runs.
    const [ours, base] = await Promise.all([
      instructions(here, jobsPath, dir),
      BASELINE ? instructions(BASELINE, jobsPath, dir) : undefined,
    ]);
    for (const target of TARGETS) {
      const [a, b] = [ours[target], base?.[target]];
      const then = b ? `   baseline ${(b / 1e6).toFixed(2).padStart(7)} M   this ÷ baseline ${(a / b).toFixed(3)}` : '';
      console.log(`  ${target.padEnd(8)} ${(a / 1e6).toFixed(2).padStart(7)} M Ir${then}`);
    }
    continue;
  }
  // The first child of each side checks that the bench's target part writes what lower() writes.
  const ours: Measured[] = [];
  const base: Measured[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    ours.push(child(here, jobsPath, TARGETS, RUNS, r === 0));
    if (!BASELINE) continue;
    base.push(child(BASELINE, jobsPath, TARGETS, RUNS, r === 0));
    base.push(child(BASELINE, jobsPath, TARGETS, RUNS, false));
    ours.push(child(here, jobsPath, TARGETS, RUNS, false));
  }
  for (const target of TARGETS) {
    const mine = ours.map((m) => sum(m.out[target]));
    let line = `  ${target.padEnd(8)} ${median(mine).toFixed(2).padStart(7)} ms`;
    if (BASELINE) {
      const theirs = base.map((m) => sum(m.out[target]));
      // Round r: ours[2r], ours[2r+1] against base[2r], base[2r+1]; each side's lower of its two.
      const ratios = Array.from({ length: ROUNDS }, (_, r) => {
        const a = Math.min(mine[2 * r], mine[2 * r + 1]);
        const b = Math.min(theirs[2 * r], theirs[2 * r + 1]);
        return a / b;
      });
      line +=
        `   baseline ${median(theirs).toFixed(2).padStart(7)} ms   this ÷ baseline ${median(ratios).toFixed(2)} ` +
        `(${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`;
    }
    console.log(line);
  }
  const rss = (ms: Measured[]) => Math.max(...ms.map((m) => m.rss)).toFixed(0);
  console.log(`  peak RSS ${rss(ours)} MiB${BASELINE ? ` (baseline ${rss(base)} MiB)` : ''}`);
}
rmSync(dir, { recursive: true });
