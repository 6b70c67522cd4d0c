// Instructions the OpenCL C frontend executes per compilation (issue 30, goals 2 and 3), counted by valgrind's
// callgrind under `node --single-threaded`: on the shared 2-core machine CPU time moves by ±40% between paired runs.
// Per shape, `compileOpenCL` (the frontend alone: preprocessing, the body scan, parsing and checking) runs WARM times
// in one process, then R1 or R2 more times in a second one; (count(R2) - count(R1)) / (R2 - R1) is one warm
// compilation's count, start-up and warm-up cancelled out. The shapes: darktable's "many small kernels" and "long
// branchy bodies" files (as `lower-shapes` takes them: whole, with their include folders and build options) and the
// issue's file of `kernel void kN(global float *a, int n, float x) { }` at THREE_KERNELS kernels.
// Run: npm run bench -- frontend-instructions   (BASELINE=<another built checkout> adds its counts and the ratio;
// SHAPES="many small kernels" to pick; WARM=3, R1=1, R2=4; THREE_KERNELS=20000). Each count takes a minute or two.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPORA, type CorpusFile } from '../test/corpus/corpora.js';
import { frontendFlags } from '../test/corpus/frontend-flags.js';

const here = resolve(fileURLToPath(import.meta.url), '../..');
const WARM = Number(process.env.WARM ?? 3);
const R1 = Number(process.env.R1 ?? 1);
const R2 = Number(process.env.R2 ?? 4);
const THREE_KERNELS = Number(process.env.THREE_KERNELS ?? 20000);
const BASELINE = process.env.BASELINE ? resolve(process.env.BASELINE) : undefined;
const tmp = mkdtempSync(join(tmpdir(), 'kernarg-fe-ir-'));

interface Job {
  path: string;
  std: string;
  includeDirs: string[];
  commandLine: unknown[];
}

const darktable = (names: readonly string[]): Job[] =>
  CORPORA.find((c) => c.name === 'darktable')!
    .files()
    .filter((f: CorpusFile) => names.includes(basename(f.path)))
    .map((f) => ({ path: f.path, std: 'CL1.2', ...frontendFlags(f.flags) }));

function threeShape(): Job[] {
  const parts = ['typedef struct { float4 p; int id; short tag; } Item;\n'];
  for (let i = 0; i < THREE_KERNELS; i++) parts.push(`kernel void k${i}(global float *a, int n, float x) { }\n`);
  const path = join(tmp, 'three.cl');
  writeFileSync(path, parts.join(''));
  return [{ path, std: 'CL1.2', includeDirs: [], commandLine: [] }];
}

const SHAPES: Record<string, () => Job[]> = {
  'many small kernels': () => darktable(['basic.cl', 'blendop.cl', 'extended.cl', 'colorspaces.cl']),
  'long branchy bodies': () =>
    darktable(['filmic.cl', 'demosaic_markesteijn.cl', 'demosaic_rcd.cl', 'demosaic_ppg.cl']),
  'issue 30 file': threeShape,
};
const picked = process.env.SHAPES ? process.env.SHAPES.split(',') : Object.keys(SHAPES);

/** In the child: every job compiled `warm` + `rounds` times through the frontend alone. */
const CHILD = `
const [root, jobsPath, warm, rounds] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const { compileOpenCL } = await import(root + '/dist/frontend/opencl-c/index.js');
const { SourceFile } = await import(root + '/dist/diagnostics/source.js');
const { targetNamed } = await import(root + '/dist/targets/index.js');
const jobs = JSON.parse(readFileSync(jobsPath, 'utf8')).map((j) => ({ ...j, text: readFileSync(j.path, 'utf8') }));
const host = { readFile: (p) => { try { return readFileSync(p, 'utf8'); } catch { return undefined; } } };
const layout = targetNamed('opencl').layout({ target: 'opencl' });
for (let i = 0; i < Number(warm) + Number(rounds); i++)
  for (const j of jobs)
    compileOpenCL(new SourceFile(j.path, j.text), host, { std: j.std, layout, includeDirs: j.includeDirs, commandLine: j.commandLine });
`;

/** The instructions of one child process (callgrind's total). */
function count(root: string, jobsPath: string, rounds: number): number {
  const p = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      // V8's background compiler and GC threads otherwise make the count depend on timing (on this machine two
      // children of the same build differed by a quarter): everything on the main thread, the same work each run.
      '--single-threaded',
      '--input-type=module',
      '-e',
      CHILD,
      root,
      jobsPath,
      String(WARM),
      String(rounds),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const m = /Collected : (\d+)/.exec(p.stderr);
  if (p.status !== 0 || !m) throw new Error(`valgrind failed (${p.status}):\n${p.stderr.slice(-2000)}`);
  return Number(m[1]);
}

/** One warm compilation's instructions, in millions. */
const perCompilation = (root: string, jobsPath: string): number =>
  (count(root, jobsPath, R2) - count(root, jobsPath, R1)) / (R2 - R1) / 1e6;

try {
  for (const name of picked) {
    const jobs = SHAPES[name]();
    const jobsPath = join(tmp, 'jobs.json');
    writeFileSync(jobsPath, JSON.stringify(jobs));
    const chars = jobs.reduce((n, j) => n + readFileSync(j.path, 'utf8').length, 0);
    const ours = perCompilation(here, jobsPath);
    let line = `${name} (${jobs.length} files, ${chars} characters): ${ours.toFixed(1)} M instructions a compilation`;
    if (BASELINE) {
      const base = perCompilation(BASELINE, jobsPath);
      line += `; baseline ${base.toFixed(1)} M, this ÷ baseline ${(ours / base).toFixed(3)}`;
    }
    console.log(line);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
