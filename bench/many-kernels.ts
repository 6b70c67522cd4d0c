// Files of very many small kernels, through the CLI as users run it (`node bin/kernarg.js lower`),
// every target × every format an OpenCL C file can have, beside `clang-16 -fsyntax-only` on the
// same file in the same run (issue 30, goal 2: within 1.0× clang's wall time, peak RSS ≤ 600 MB at
// 10 MB of input, linear in the number of kernels).
//
// The inputs mix a few shapes, kernel by kernel: three scalar/pointer arguments and an empty body
// (the shape of the 190,000-kernel file the goal was measured on), a struct by value and a constant
// struct pointer, and a short body with a branch and a loop. Each measurement is one process under
// `/usr/bin/time` (wall, user + system CPU, peak RSS); output goes to /dev/null (not a pipe, so
// the benchmark does not hold it). The machine may be shared: CPU ratios hold up better than wall
// ratios there, so both are printed, each against clang's figure from the same size of the same run.
//
// Run: npm run bench -- many-kernels
//   SIZES=1000,10000,100000,200000 (default)   MANY_TARGETS=amdhsa,opencl   MANY_FORMATS=table,json
//   MANY_SHAPE=three: every kernel the three-argument one (the file: 190,000 kernels are 10 MB)
//   REPEAT=n: each measurement n times, the best kept (clang's too)
//   PAIRED=1: each case's REPEAT runs alternate with clang's on the same file, and the case's ratio is the median of
//   the rounds' wall ratios (what a shared machine's load, which moves within minutes, leaves steady)
//   BASELINE_CLI=<path to another checkout's bin/kernarg.js>: each case run with it too, in pairs
//   (baseline then this one, side by side), and the ratio of this one's CPU time to the baseline's
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORMATS, TARGETS } from '../dist/lower.js';
import { TINYTC_FORMATS } from '../dist/codegen/formats.js';
import { manyKernelsSource } from './many-kernels-source.js';

const SIZES = (process.env.SIZES ?? '1000,10000,100000,200000').split(',').map(Number);
const PICK_TARGETS = process.env.MANY_TARGETS?.split(',');
const PICK_FORMATS = process.env.MANY_FORMATS?.split(',');
const REPEAT = Math.max(1, Number(process.env.REPEAT ?? 1));
const CLI = fileURLToPath(new URL('../bin/kernarg.js', import.meta.url));
const CLANG = ['clang-16', '-x', 'cl', '-cl-std=CL1.2', '-fsyntax-only'];
const BASELINE = process.env.BASELINE_CLI;
const ONLY_THREE = process.env.MANY_SHAPE === 'three';
const PAIRED = process.env.PAIRED === '1';

interface Measure {
  readonly wall: number;
  /** user + system seconds. */
  readonly cpu: number;
  readonly rssMB: number;
}

/** One process under /usr/bin/time; the best of `repeat` by CPU time. */
function measure(argv: readonly string[], repeat = REPEAT): Measure {
  let best: Measure | undefined;
  for (let r = 0; r < repeat; r++) {
    const p = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', ...argv], {
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    const line = p.stderr
      .split('\n')
      .filter((l) => l.startsWith('TIME '))
      .at(-1);
    if (p.status !== 0 || !line) throw new Error(`${argv.join(' ')} failed (${p.status}):\n${p.stderr.slice(-2000)}`);
    const [wall, user, sys, kb] = line.slice(5).split(' ').map(Number);
    const m = { wall, cpu: user + sys, rssMB: (kb * 1024) / 1e6 };
    if (!best || m.cpu < best.cpu) best = m;
  }
  return best!;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Every target and format an OpenCL C file can have (the code generator's formats need tinytc input). */
function cases(): { target: string; format: string }[] {
  const out: { target: string; format: string }[] = [];
  for (const target of TARGETS.filter((t) => !PICK_TARGETS || PICK_TARGETS.includes(t)))
    for (const format of FORMATS[target].filter(
      (f) => !TINYTC_FORMATS[target].includes(f) && (!PICK_FORMATS || PICK_FORMATS.includes(f)),
    ))
      out.push({ target, format });
  return out;
}

/** Least-squares slope of log y on log n: 1.0 is linear. */
function exponent(ns: readonly number[], ys: readonly number[]): number {
  const xs = ns.map(Math.log);
  const ls = ys.map((y) => Math.log(Math.max(y, 1e-3)));
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ls.reduce((a, b) => a + b) / ls.length;
  return xs.reduce((a, x, i) => a + (x - mx) * (ls[i] - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
}

const dir = mkdtempSync(join(tmpdir(), 'kernarg-many-'));
try {
  const all = cases();
  const rows = new Map<string, Measure[]>();
  const clang: Measure[] = [];
  const pad = (s: string, n: number) => s.padEnd(n);
  for (const n of SIZES) {
    const file = join(dir, `many-${n}.cl`);
    const text = manyKernelsSource(n, ONLY_THREE);
    writeFileSync(file, text);
    const c = measure([...CLANG, file]);
    clang.push(c);
    // The machine's load beside the figures: peak RSS and wall times mean little on a loaded machine.
    console.log(
      `-- ${n} kernels, ${(text.length / 1e6).toFixed(1)} MB: clang-16 -fsyntax-only ${c.wall.toFixed(2)} s wall, ${c.cpu.toFixed(2)} s CPU, ${c.rssMB.toFixed(0)} MB (load ${loadavg()[0].toFixed(1)})`,
    );
    let worst: { key: string; ratio: number } | undefined;
    for (const { target, format } of all) {
      const key = `${target} ${format}`;
      const args = ['lower', file, '--target', target, '--format', format];
      const b = BASELINE ? measure([process.execPath, BASELINE, ...args]) : undefined;
      let m: Measure;
      let ratio: number;
      let paired = '';
      if (PAIRED) {
        // Rounds of clang then kernarg; the kernarg run of least CPU time is the row's, the ratio the rounds' median.
        const rounds = Array.from({ length: REPEAT }, () => {
          const theirs = measure([...CLANG, file], 1);
          return { theirs, ours: measure([process.execPath, CLI, ...args], 1) };
        });
        m = rounds.reduce((a, r) => (r.ours.cpu < a.cpu ? r.ours : a), rounds[0].ours);
        ratio = median(rounds.map((r) => r.ours.wall / r.theirs.wall));
        const cpuRatio = median(rounds.map((r) => r.ours.cpu / r.theirs.cpu));
        paired = `  paired: ${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× CPU (clang ${median(rounds.map((r) => r.theirs.wall)).toFixed(2)} s)`;
      } else {
        m = measure([process.execPath, CLI, ...args]);
        ratio = m.wall / c.wall;
      }
      rows.set(key, [...(rows.get(key) ?? []), m]);
      if (!worst || ratio > worst.ratio) worst = { key, ratio };
      const shown = (x: Measure) =>
        `${x.wall.toFixed(2).padStart(7)} s wall (${(x.wall / c.wall).toFixed(2)}×)  ${x.cpu.toFixed(2).padStart(7)} s CPU (${(x.cpu / c.cpu).toFixed(2)}×)  ${x.rssMB.toFixed(0).padStart(5)} MB`;
      console.log(`   ${pad(key, 24)} ${shown(m)}${paired}`);
      if (b)
        console.log(
          `   ${pad('  baseline', 24)} ${shown(b)}   this/baseline CPU ${(m.cpu / b.cpu).toFixed(2)}×, RSS ${(m.rssMB / b.rssMB).toFixed(2)}×`,
        );
    }
    if (worst)
      console.log(
        `   worst at ${n}: ${worst.key}, ${worst.ratio.toFixed(2)}× clang's wall time${PAIRED ? ' (median of its rounds)' : ''} (load ${loadavg()[0].toFixed(1)})`,
      );
  }
  if (SIZES.length > 1) {
    console.log(`exponent of CPU time over ${SIZES.join(' / ')} kernels (1.0 is linear); peak RSS at the largest`);
    console.log(
      `   ${pad('clang-16 -fsyntax-only', 24)} ${exponent(
        SIZES,
        clang.map((m) => m.cpu),
      )
        .toFixed(2)
        .padStart(5)}  ${clang.at(-1)!.rssMB.toFixed(0).padStart(5)} MB`,
    );
    for (const [key, ms] of rows)
      console.log(
        `   ${pad(key, 24)} ${exponent(
          SIZES,
          ms.map((m) => m.cpu),
        )
          .toFixed(2)
          .padStart(5)}  ${ms.at(-1)!.rssMB.toFixed(0).padStart(5)} MB`,
      );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
