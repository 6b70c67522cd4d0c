// Format scaling: every format of every target, in process, on generated inputs of 1,000, 10,000
// and 100,000 kernels (OpenCL C: bench/target-source.ts, struct, local, constant and image
// arguments; tinytc: empty functions, for the formats only tinytc input has: opencl-c, spirv,
// spirv-asm). Each size runs in a fresh process (peak RSS is per process), each target and format
// once warmed on the smallest input first; 1,000 and 10,000 are the best of 3 runs, 100,000 one.
// Prints the CPU ms (user + system of the process, JIT and GC threads included) per size, the
// exponent (least-squares slope of log time on log kernels: 1.0 is linear), the output at the
// largest size, and each size's peak RSS.
// Run: npm run bench -- formats   (SIZES=1000,10000,100000; FORMAT_TARGETS=vulkan,amdhsa to pick)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FORMATS, TARGETS, type TargetName, lower } from '../dist/lower.js';
import { TINYTC_FORMATS } from '../dist/codegen/formats.js';
import { tinytcFunctions } from './scaling-inputs.js';
import { targetScalingSource } from './target-source.js';

const SIZES = (process.env.SIZES ?? '1000,10000,100000').split(',').map(Number);
const PICK = process.env.FORMAT_TARGETS?.split(',');

interface Case {
  readonly target: TargetName;
  readonly format: string;
  readonly input: 'cl' | 'ir';
}

/** Every target and format: OpenCL C input for the formats it can have, tinytc input for the rest. */
function cases(): Case[] {
  const out: Case[] = [];
  for (const target of TARGETS.filter((t) => !PICK || PICK.includes(t))) {
    const tinytcOnly = TINYTC_FORMATS[target];
    for (const format of FORMATS[target])
      out.push({ target, format, input: tinytcOnly.includes(format) ? 'ir' : 'cl' });
  }
  return out;
}

const source = (input: Case['input'], n: number) => (input === 'cl' ? targetScalingSource(n) : tinytcFunctions(n));
const host = { readFile: () => undefined };

/** CPU ms and output bytes of one lowering (chunked: outputs longer than one V8 string are fine). */
function once(c: Case, text: string): { ms: number; bytes: number } {
  const t0 = process.cpuUsage();
  const r = lower(c.input === 'cl' ? 'scale.cl' : 'scale.ir', text, host, {
    target: c.target,
    format: c.format,
    chunked: true,
  });
  const t = process.cpuUsage(t0);
  if (!r.chunks && !r.binary)
    throw new Error(`${c.target} --format ${c.format}: ${r.diagnostics.map((d) => d.message).join('\n')}`);
  return {
    ms: (t.user + t.system) / 1000,
    bytes: r.binary ? r.binary.length : r.chunks!.reduce((n, s) => n + s.length, 0),
  };
}

/** In the child: every case at one size, as JSON lines. */
function child(n: number): void {
  const texts = { cl: source('cl', n), ir: source('ir', n) };
  const warm = { cl: source('cl', SIZES[0]), ir: source('ir', SIZES[0]) };
  const runs = n >= 100000 ? 1 : 3;
  for (const c of cases()) {
    once(c, warm[c.input]);
    let best = { ms: Infinity, bytes: 0 };
    for (let r = 0; r < runs; r++) {
      const m = once(c, texts[c.input]);
      if (m.ms < best.ms) best = m;
    }
    console.log(JSON.stringify({ key: `${c.target} ${c.format}`, ...best }));
  }
  console.log(JSON.stringify({ rssMiB: process.resourceUsage().maxRSS / 1024 }));
}

const at = process.argv.indexOf('--size');
if (at >= 0) child(Number(process.argv[at + 1]));
else {
  const self = fileURLToPath(import.meta.url);
  const rows = new Map<string, { ms: number; bytes: number }[]>();
  const rss: number[] = [];
  for (const n of SIZES) {
    const p = spawnSync(process.execPath, ['--import', 'tsx', self, '--size', String(n)], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      env: process.env,
    });
    if (p.status !== 0) throw new Error(`${n} kernels: ${p.stderr}`);
    for (const line of p.stdout.trim().split('\n')) {
      const j = JSON.parse(line) as { key?: string; ms: number; bytes: number; rssMiB?: number };
      if (j.rssMiB !== undefined) rss.push(j.rssMiB);
      else rows.set(j.key!, [...(rows.get(j.key!) ?? []), { ms: j.ms, bytes: j.bytes }]);
    }
  }
  console.log(
    `kernels (functions for tinytc-only formats): ${SIZES.join(' / ')}; CPU ms (best of 3; 1 run at 100,000); output at the largest`,
  );
  console.log(
    [
      'target format'.padEnd(24),
      ...SIZES.map((n) => `${n}`.padStart(9)),
      'exponent'.padStart(9),
      'MiB'.padStart(7),
    ].join(' '),
  );
  const xs = SIZES.map(Math.log);
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  for (const [key, r] of rows) {
    const ys = r.map((m) => Math.log(m.ms));
    const my = ys.reduce((a, b) => a + b) / ys.length;
    const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    console.log(
      [
        key.padEnd(24),
        ...r.map((m) => m.ms.toFixed(0).padStart(9)),
        slope.toFixed(2).padStart(9),
        (r.at(-1)!.bytes / 2 ** 20).toFixed(1).padStart(7),
      ].join(' '),
    );
  }
  console.log(`peak RSS per size: ${rss.map((m, i) => `${SIZES[i]}: ${m.toFixed(0)} MiB`).join(', ')}`);
}
