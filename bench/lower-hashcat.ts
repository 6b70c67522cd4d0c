// Lowering throughput on real body-heavy code: the hashcat selection of the real-world corpus
// (test/corpus/corpora.ts, hashcat's build options; every file pulls in ~2.6 MB of hashcat's inc_*
// library: huge function bodies and #if groups), file by file. kernarg in process, warm (a child
// process per checkout: each file lowered three times, then the median of RUNS runs' CPU time, user +
// system; --target opencl --format json), against clang-16 `-target spir64 -emit-llvm -S -O0` (the
// cheapest clang run that yields the same argument metadata; median of 3 processes' CPU time, peak
// RSS from GNU time): the median of the per-file ratios. (Growth with input size: the generated
// files of `npm run bench -- lower-bodies`.)
// With BASELINE=/other/checkout (dist/ built, e.g. main) its lowering is measured too, and the
// ratio baseline/this per file. Needs the corpus (scripts/fetch-corpus.sh).
// Run: npm run bench -- lower-hashcat   (RUNS=5, VERBOSE=1 for every file)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA, CORPUS_ROOT } from '../test/corpus/corpora.js';
import { frontendFlags } from '../test/corpus/frontend-flags.js';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const baseline = process.env.BASELINE;
const runs = Number(process.env.RUNS ?? 5);

interface Job {
  path: string;
  std: string;
  includeDirs: string[];
  commandLine: unknown[];
}
interface Measured {
  cpu: number[];
  rss: number;
}

/** In a fresh process: each job lowered three times to warm up, then `runs` times; the median CPU time per job. */
const CHILD = `
const [lib, jobsJson, runs] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const { lower } = await import(lib);
// Included files are read as kernarg lower reads them (its build's own reader, beside the lowering).
const { readInput } = await import(new URL('cli/read-input.js', 'file://' + lib).href);
const host = { readFile: (p) => { const r = readInput(p); return 'text' in r ? r.text : undefined; } };
const cpu = [];
for (const job of JSON.parse(jobsJson)) {
  const text = readFileSync(job.path, 'utf8');
  const opts = { target: 'opencl', format: 'json', std: job.std, includeDirs: job.includeDirs, commandLine: job.commandLine };
  const once = () => { const r = lower(job.path, text, host, opts); if (r.output === undefined) throw new Error(job.path + ': ' + r.diagnostics.map((d) => d.message).join('; ')); };
  for (let i = 0; i < 3; i++) once();
  const ts = [];
  for (let i = 0; i < Number(runs); i++) { const c = process.cpuUsage(); once(); const d = process.cpuUsage(c); ts.push((d.user + d.system) / 1000); }
  ts.sort((a, b) => a - b);
  cpu.push(ts[ts.length >> 1]);
}
console.log(JSON.stringify({ cpu, rss: process.resourceUsage().maxRSS / 1024 }));
`;

function kernarg(checkout: string, jobs: Job[]): Measured {
  const p = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', CHILD, join(checkout, 'dist/lower.js'), JSON.stringify(jobs), String(runs)],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  if (p.status !== 0) throw new Error(`${checkout}: ${p.stderr}`);
  return JSON.parse(p.stdout.trim().split('\n').pop()!) as Measured;
}

/** clang-16 on one file: the median CPU time of `count` runs and the largest peak RSS. */
function clang(job: Job, flags: readonly string[], count = 3): { cpu: number; rss: number } {
  const cpu: number[] = [];
  let rss = 0;
  for (let i = 0; i < count; i++) {
    const args = [
      `-cl-std=${job.std}`,
      '-target',
      'spir64',
      '-emit-llvm',
      '-S',
      '-O0',
      '-o',
      '/dev/null',
      ...flags,
      job.path,
    ];
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

// The hashcat selection, file by file.
{
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
      if (process.env.VERBOSE)
        console.log(
          `  ${f.name}: kernarg ${ms(hours.cpu[i])}, clang-16 ${ms(c.cpu)}, ${(c.cpu / hours.cpu[i]).toFixed(1)}x`,
        );
    });
    console.log(
      `hashcat (${files.length} files, hashcat's build options): kernarg median ${ms(median(hours.cpu))} per file, clang-16/kernarg median of per-file ratios ${median(ratios).toFixed(1)}x (min ${Math.min(...ratios).toFixed(1)}x, max ${Math.max(...ratios).toFixed(1)}x)${hbase ? `; baseline/this median ${median(baseRatios).toFixed(2)}x` : ''}`,
    );
    console.log(
      `peak RSS: kernarg ${hours.rss.toFixed(0)} MiB (whole process, all files)${hbase ? `, baseline ${hbase.rss.toFixed(0)} MiB` : ''}; clang-16 ${clangRss.toFixed(0)} MiB (largest single run)`,
    );
  }
}
