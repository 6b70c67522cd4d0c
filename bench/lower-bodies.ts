// In-process lowering against clang-16 on files shaped like real kernel libraries: thousands of
// kernels with bodies of tens of lines (bench/lower-bodies-source.ts), where clang's start-up is
// amortised. kernarg: `lower(…, --target opencl --format json)` in this process (streamed), warmed up by WARM
// lowerings (8: the first six of a 4,000-kernel file still fall, 1,000 → ~170 ms, as V8 optimises
// the hot functions on its background threads, whose CPU time counts here), median of 7; clang-16: `-target spir64 -emit-llvm -S -O0` (the cheapest run that yields the same
// kernel_arg_* metadata), median of 3. Both in CPU time (user + system: the machine is shared, and
// wall time there measures the neighbours) and wall time; peak memory: the bench process's
// resident peak after kernarg's runs, clang's from GNU time. Sizes 1,000 / 4,000 / 16,000 kernels
// give each side's exponent (time ∝ size^e).
// Run: npm run bench -- lower-bodies   (SIZES="1000 4000" to change them; WARM=8)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { lower } from '../dist/lower.js';
import { lowerBodiesSource } from './lower-bodies-source.js';

const SIZES = (process.env.SIZES ?? '1000 4000 16000').split(/\s+/).filter(Boolean).map(Number);
const WARM = Number(process.env.WARM ?? 8);
const dir = mkdtempSync(join(tmpdir(), 'kernarg-bodies-'));
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const host = { readFile: () => undefined };
// The JSON streamed, its pieces made and dropped (as the CLI writes them; clang writes to /dev/null).
const options = { target: 'opencl', format: 'json', std: 'CL1.2', chunked: true, streamed: true } as const;
/** One lowering, its output's pieces all made; the number of characters. */
function lowerAll(file: string, source: string): number {
  const r = lower(file, source, host, options);
  if (r.pieces === undefined) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  let n = 0;
  for (const piece of r.pieces) n += piece.length;
  return n;
}

interface Row {
  readonly kernels: number;
  readonly mib: number;
  readonly oursCpu: number;
  readonly oursWall: number;
  readonly theirsCpu: number;
  readonly theirsWall: number;
  readonly oursPeak: number;
  readonly theirsPeak: number;
}

const rows: Row[] = [];
for (const kernels of SIZES) {
  const source = lowerBodiesSource(kernels);
  const file = join(dir, `bodies-${kernels}.cl`);
  writeFileSync(file, source);
  for (let i = 0; i < WARM; i++) {
    lowerAll(file, source);
  }
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < 7; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    lowerAll(file, source);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const oursPeak = process.resourceUsage().maxRSS / 1024;
  const tcpu: number[] = [];
  const twall: number[] = [];
  let theirsPeak = 0;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const p = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        '%U %S %M',
        'clang-16',
        '-cl-std=CL1.2',
        '-target',
        'spir64',
        '-emit-llvm',
        '-S',
        '-O0',
        '-o',
        '/dev/null',
        file,
      ],
      { encoding: 'utf8' },
    );
    twall.push(performance.now() - t0);
    if (p.status !== 0) throw new Error(p.stderr);
    const [u, s, m] = p.stderr.trim().split('\n').pop()!.split(' ').map(Number);
    tcpu.push((u + s) * 1000);
    theirsPeak = Math.max(theirsPeak, m / 1024);
  }
  const row = {
    kernels,
    mib: source.length / 2 ** 20,
    oursCpu: median(cpu),
    oursWall: median(wall),
    theirsCpu: median(tcpu),
    theirsWall: median(twall),
    oursPeak,
    theirsPeak,
  };
  rows.push(row);
  console.log(
    `${String(kernels).padStart(6)} kernels, ${row.mib.toFixed(1)} MiB: kernarg ${row.oursCpu.toFixed(0)} ms CPU (${row.oursWall.toFixed(0)} wall), ` +
      `clang-16 ${row.theirsCpu.toFixed(0)} ms CPU (${row.theirsWall.toFixed(0)} wall) → ${(row.theirsCpu / row.oursCpu).toFixed(1)}× CPU, ${(row.theirsWall / row.oursWall).toFixed(1)}× wall; ` +
      `peak ${row.oursPeak.toFixed(0)} MiB (bench process) / ${row.theirsPeak.toFixed(0)} MiB`,
  );
}
if (rows.length > 1) {
  const [a, b] = [rows[0], rows[rows.length - 1]];
  const e = (x: number, y: number) => Math.log(y / x) / Math.log(b.kernels / a.kernels);
  console.log(
    `exponent ${a.kernels} → ${b.kernels} kernels: kernarg ${e(a.oursCpu, b.oursCpu).toFixed(2)}, clang-16 ${e(a.theirsCpu, b.theirsCpu).toFixed(2)}`,
  );
}
