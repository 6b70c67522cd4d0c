// Scaling: time and peak memory of the OpenCL C frontend, the tinytc frontend and tinytc code
// generation on 1x, 10x and 100x inputs, each size in a fresh process (peak RSS is per process).
// The baseline is the 1x input of the same case in the same run; the exponent is the slope of
// log(time) against log(size) over the three sizes (1 = linear, 2 = quadratic).
// For OpenCL C, clang-16 -fsyntax-only on the same file (with the OpenCL builtins declared) is
// timed beside it, so the figures can be read against a tool on the same machine at the same load.
// Run: npm run bench -- scaling    (SCALING_CASES=opencl-c,tinytc-params to pick cases)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { lower } from '../dist/lower.js';
import { openclSource, tinytcFunctions, tinytcGemms, tinytcParams } from './scaling-inputs.js';

interface Case {
  readonly name: string;
  readonly what: string;
  readonly sizes: readonly [number, number, number];
  readonly make: (n: number) => string;
  readonly path: string;
  readonly format: string;
}

const CASES: readonly Case[] = [
  {
    name: 'opencl-c',
    what: 'OpenCL C frontend + opencl lowering, JSON (units of ~1 KB)',
    sizes: [100, 1000, 10000],
    make: openclSource,
    path: 'big.cl',
    format: 'json',
  },
  {
    name: 'tinytc-frontend',
    what: 'tinytc frontend + opencl lowering, JSON (empty functions)',
    sizes: [1000, 10000, 100000],
    make: tinytcFunctions,
    path: 'big.ir',
    format: 'json',
  },
  {
    name: 'tinytc-functions',
    what: 'tinytc --format opencl-c (empty functions)',
    sizes: [1000, 10000, 100000],
    make: tinytcFunctions,
    path: 'big.ir',
    format: 'opencl-c',
  },
  {
    name: 'tinytc-params',
    what: 'tinytc --format opencl-c (parameters of one function)',
    sizes: [1000, 10000, 100000],
    make: tinytcParams,
    path: 'big.ir',
    format: 'opencl-c',
  },
  {
    name: 'tinytc-gemm',
    what: 'tinytc --format opencl-c (gemm instructions in one function)',
    sizes: [20, 200, 2000],
    make: tinytcGemms,
    path: 'big.ir',
    format: 'opencl-c',
  },
];

/** clang-16 -fsyntax-only on the same source, timed around the process (peak RSS from GNU time's format). */
function clang(source: string): { ms: number; rssBytes: number } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-scaling-'));
  try {
    const file = join(dir, 'big.cl');
    writeFileSync(file, source);
    const t0 = performance.now();
    const p = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        '%M',
        'clang-16',
        '-x',
        'cl',
        '-cl-std=CL2.0',
        '-Xclang',
        '-fdeclare-opencl-builtins',
        '-Xclang',
        '-finclude-default-header',
        '-fsyntax-only',
        file,
      ],
      { encoding: 'utf8' },
    );
    const ms = performance.now() - t0;
    if (p.status !== 0) return undefined;
    return { ms, rssBytes: Number(p.stderr.trim().split('\n').pop()) * 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In the child: builds the input, lowers it once, prints {ms, bytes, rssBytes, outputBytes}. */
function measure(c: Case, n: number): void {
  const source = c.make(n);
  const t0 = performance.now();
  const r = lower(c.path, source, { readFile: () => undefined }, { target: 'opencl', format: c.format, std: 'CL2.0' });
  const ms = performance.now() - t0;
  if (r.output === undefined) throw new Error(`${c.name} x${n} did not lower: ${r.diagnostics[0]?.message}`);
  console.log(
    JSON.stringify({
      ms,
      bytes: source.length,
      rssBytes: process.resourceUsage().maxRSS * 1024,
      outputBytes: r.output.length,
    }),
  );
}

const child = process.argv.indexOf('--measure');
if (child >= 0) {
  measure(
    CASES.find((c) => c.name === process.argv[child + 1])!,
    Number(process.argv[child + 2]),
  );
} else {
  const pick = process.env.SCALING_CASES?.split(',');
  const self = fileURLToPath(import.meta.url);
  console.log('case                 size     input      time  x baseline   peak RSS  exponent');
  for (const c of CASES.filter((x) => !pick || pick.includes(x.name))) {
    const rows: { ms: number; bytes: number; rssBytes: number; clang?: { ms: number; rssBytes: number } }[] = [];
    for (const n of c.sizes) {
      const p = spawnSync(process.execPath, ['--import', 'tsx', self, '--measure', c.name, String(n)], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      if (p.status !== 0) throw new Error(`${c.name} x${n}: ${p.stderr}`);
      rows.push({
        ...JSON.parse(p.stdout.trim().split('\n').pop()!),
        clang: c.path.endsWith('.cl') ? clang(c.make(n)) : undefined,
      });
    }
    // Least-squares slope of log(ms) on log(bytes).
    const xs = rows.map((r) => Math.log(r.bytes));
    const ys = rows.map((r) => Math.log(r.ms));
    const mx = xs.reduce((a, b) => a + b) / xs.length;
    const my = ys.reduce((a, b) => a + b) / ys.length;
    const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    rows.forEach((r, i) => {
      const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
      console.log(
        `${c.name.padEnd(18)} ${['1x', '10x', '100x'][i].padStart(5)} ${mb(r.bytes).padStart(9)} ${`${r.ms.toFixed(0)} ms`.padStart(9)} ${`${(r.ms / rows[0].ms).toFixed(1)}x`.padStart(11)} ${mb(r.rssBytes).padStart(10)}${i === 2 ? `  ${slope.toFixed(2)}` : '      '}` +
          (r.clang
            ? `   clang-16 -fsyntax-only: ${r.clang.ms.toFixed(0)} ms, ${mb(r.clang.rssBytes)} (kernarg ${(r.ms / r.clang.ms).toFixed(2)}x its time)`
            : ''),
      );
    });
  }
}
