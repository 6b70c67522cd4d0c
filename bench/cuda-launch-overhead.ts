// Launch overhead through the CUDA driver API: kernarg's CUDA host against a small C host making
// the same driver calls (bench/cuda-launch-host.c: dlopen(libcuda.so.1), no CUDA header), on the
// `empty(global float *a, int n, float4 v)` kernel of scripts/gpu-cuda/launch-kernels.ptx.
// sync: per launch event record, cuLaunchKernel, event record, event synchronize, elapsed time.
// async: N cuLaunchKernel calls, then one cuCtxSynchronize. kernarg packs the arguments every
// launch (validate, pack, copy into the native parameter buffer), in both parameter forms.
// Run: npm run bench -- launch (after the OpenCL rows), or on its own; without libcuda.so.1 it says so.
// Wall and CPU time (user + system of the process, the driver's threads included) per launch, medians.
// BASELINE_BENCH=<another checkout's bench/cuda-launch-overhead.ts> adds that build's kernarg rounds,
// alternating with these (before/after pairs in one run).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { CudaContext } from '../dist/runtime/cuda/host.js';
import { openCuda } from '../dist/runtime/cuda/driver.js';
import { readPtx } from '../dist/readers/ptx.js';

const PTX = join(import.meta.dirname, '..', 'scripts', 'gpu-cuda', 'launch-kernels.ptx');
const N = Number(process.env.LAUNCHES ?? 20000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
type Mode = 'sync' | 'sync-extra' | 'async';

async function kernargRound(mode: Mode): Promise<{ us: number; cpuUs: number; device: string }> {
  const ptx = readFileSync(PTX, 'utf8');
  const plan = readPtx(new TextEncoder().encode(ptx), PTX).plan!;
  const ctx = CudaContext.open(process.env.KERNARG_DEVICE);
  const module = ctx.module(ptx, 'launch-kernels.ptx');
  const k = module.kernel('empty', plan, { form: mode === 'sync-extra' ? 'extra' : 'params' });
  const a = ctx.buffer(1024);
  // The plan read from the PTX names parameters as the PTX does; the vector is its 16 bytes.
  const o = {
    args: {
      empty_param_0: a,
      empty_param_1: 7,
      empty_param_2: Array.from(new Uint8Array(Float32Array.of(1, 2, 3, 4).buffer)),
    },
    global: [1],
    local: [1],
  };
  let us: number;
  let c0: NodeJS.CpuUsage;
  if (mode === 'async') {
    for (let i = 0; i < 1000; i++) k.enqueue(o);
    ctx.synchronize();
    c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) k.enqueue(o);
    ctx.synchronize();
    us = ((performance.now() - t0) / N) * 1000;
  } else {
    for (let i = 0; i < 1000; i++) k.launchAndWait(o);
    c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) k.launchAndWait(o);
    us = ((performance.now() - t0) / N) * 1000;
  }
  const c = process.cpuUsage(c0);
  const cpuUs = (c.user + c.system) / N;
  const device = ctx.device.name;
  k.dispose();
  a.dispose();
  module.dispose();
  ctx.dispose();
  return { us, cpuUs, device };
}

const round = process.env.KERNARG_CUDA_LAUNCH_ROUND as Mode | undefined;
if (round) {
  console.log(JSON.stringify(await kernargRound(round)));
  process.exit(0);
}

let haveDriver = true;
try {
  openCuda();
} catch (e) {
  haveDriver = false;
  console.log(`CUDA row: not measured here (${(e as Error).message})`);
}
if (haveDriver) {
  // KERNARG_CUDA_C_HOST names a prebuilt host (machines without a C compiler; .node/cuda-c-host is
  // looked for too: `cc -O2 -o .node/cuda-c-host bench/cuda-launch-host.c -ldl` builds it anywhere,
  // since it needs no CUDA header); else it is built here.
  const carried = join(import.meta.dirname, '..', '.node', 'cuda-c-host');
  let host = process.env.KERNARG_CUDA_C_HOST ?? (existsSync(carried) ? carried : undefined);
  if (!host) {
    const dir = mkdtempSync(join(tmpdir(), 'kernarg-cuda-launch-'));
    host = join(dir, 'host');
    execFileSync('cc', ['-O2', '-o', host, join(import.meta.dirname, 'cuda-launch-host.c'), '-ldl']);
    if (process.env.KERNARG_KEEP_CUDA_C_HOST) execFileSync('cp', [host, process.env.KERNARG_KEEP_CUDA_C_HOST]);
  }
  let oldHost = false;
  const cHost = (mode: 'sync' | 'async') => {
    const c = spawnSync(host!, [String(N), PTX, mode], { encoding: 'utf8' });
    if (c.status !== 0) throw new Error(`the CUDA C host failed: ${c.stderr}`);
    const [said, us, cpuUs] = c.stdout.trim().split(' ');
    if (said !== mode) throw new Error(`the CUDA C host printed '${c.stdout.trim()}'`);
    // A host built before it printed its CPU time (a carried .node/cuda-c-host) gives the wall time alone.
    if (cpuUs === undefined && !oldHost) {
      oldHost = true;
      console.log(`(the C host ${host} prints no CPU time: rebuild it from bench/cuda-launch-host.c for the CPU rows)`);
    }
    return { us: Number(us), cpuUs: cpuUs === undefined ? NaN : Number(cpuUs) };
  };
  // Each kernarg round in a process of its own, as the C host runs (one CUDA context per process).
  const kernarg = (mode: Mode, file = import.meta.filename) => {
    const c = spawnSync(process.execPath, [...process.execArgv, file], {
      encoding: 'utf8',
      env: { ...process.env, KERNARG_CUDA_LAUNCH_ROUND: mode },
    });
    if (c.status !== 0) throw new Error(`kernarg ${mode} round failed: ${c.stderr}`);
    return JSON.parse(c.stdout.trim().split('\n').pop()!) as { us: number; cpuUs: number; device: string };
  };
  const baseline = process.env.BASELINE_BENCH;
  const names = ['cSync', 'cAsync', 'kSync', 'kExtra', 'kAsync', 'bSync', 'bAsync'] as const;
  const s = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<(typeof names)[number], number[]>;
  const cpu = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<(typeof names)[number], number[]>;
  const put = (n: (typeof names)[number], r: { us: number; cpuUs?: number }) => {
    s[n].push(r.us);
    cpu[n].push(r.cpuUs ?? NaN);
  };
  let device = '';
  const runs: (() => void)[] = [
    () => put('cSync', cHost('sync')),
    () => put('cAsync', cHost('async')),
    () => {
      const r = kernarg('sync');
      device = r.device;
      put('kSync', r);
    },
    () => put('kExtra', kernarg('sync-extra')),
    () => put('kAsync', kernarg('async')),
    ...(baseline
      ? [() => put('bSync', kernarg('sync', baseline)), () => put('bAsync', kernarg('async', baseline))]
      : []),
  ];
  // The order turns every round, so no run always follows the same one.
  const loads: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    loads.push(loadavg()[0]);
    for (let i = 0; i < runs.length; i++) runs[(i + r) % runs.length]();
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const paired = (ours: number[], c: number[]) => median(ours.map((x, i) => x / c[i])).toFixed(3);
  const cpuLine = (k: (typeof names)[number], c: (typeof names)[number]) =>
    `  CPU per launch: kernarg ${median(cpu[k]).toFixed(2)} us, C host ${median(cpu[c]).toFixed(2)} us: ${(median(cpu[k]) / median(cpu[c])).toFixed(3)}x (rounds' ratios ${paired(cpu[k], cpu[c])}x)`;
  console.log(`CUDA, ${device}: ${N} launches of an empty 3-parameter kernel, median of ${ROUNDS} alternating rounds`);
  console.log(
    `load average at each round's start: ${loads.map((l) => l.toFixed(1)).join(', ')} (${cpus().length} cores)`,
  );
  console.log('sync  (per launch: event record, cuLaunchKernel, event record, event synchronize, elapsed time)');
  console.log(`  kernarg, kernelParams (validate + pack every launch):  ${median(s.kSync).toFixed(2)} us/launch`);
  console.log(`  kernarg, extra (the packed buffer whole):              ${median(s.kExtra).toFixed(2)} us/launch`);
  console.log(`  C host, kernelParams:                                  ${median(s.cSync).toFixed(2)} us/launch`);
  console.log(
    `  ratio: ${(median(s.kSync) / median(s.cSync)).toFixed(3)}x the C host (extra ${(median(s.kExtra) / median(s.cSync)).toFixed(3)}x); median of the rounds' ratios ${paired(s.kSync, s.cSync)}x (${paired(s.kExtra, s.cSync)}x)`,
  );
  console.log(cpuLine('kSync', 'cSync'));
  if (baseline)
    console.log(
      `  baseline (${baseline}): ${median(s.bSync).toFixed(2)} us/launch, ${(median(s.bSync) / median(s.cSync)).toFixed(3)}x the C host; CPU ${median(cpu.bSync).toFixed(2)} us`,
    );
  console.log(`async (${N} x cuLaunchKernel, then one cuCtxSynchronize)`);
  console.log(
    `  kernarg: ${median(s.kAsync).toFixed(2)} us/launch; C host: ${median(s.cAsync).toFixed(2)} us/launch; ratio ${(median(s.kAsync) / median(s.cAsync)).toFixed(3)}x (rounds' ratios ${paired(s.kAsync, s.cAsync)}x)`,
  );
  console.log(cpuLine('kAsync', 'cAsync'));
  if (baseline)
    console.log(
      `  baseline: ${median(s.bAsync).toFixed(2)} us/launch, ${(median(s.bAsync) / median(s.cAsync)).toFixed(3)}x the C host; CPU ${median(cpu.bAsync).toFixed(2)} us`,
    );
}
