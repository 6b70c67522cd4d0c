// Launch overhead per kernel of an empty kernel: kernarg vs a small C host program making the same
// OpenCL calls on the same device, in two modes. sync: set args, enqueue with an event, wait,
// read its start/end, release, per launch. async: set args and enqueue without an event N times,
// then one clFinish. kernarg skips clSetKernelArg for an argument whose bytes did not change since
// the kernel last set it (OpenCL keeps it): with the same arguments every launch it makes 3 fewer
// calls than the C host, so a third figure changes the int argument on every launch (one set).
// Run: npm run bench -- launch
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Context } from '../dist/runtime/opencl/host.js';
import { kernel } from '../dist/runtime/opencl/compile-kernel.js';
import type { Handle } from '../dist/runtime/opencl/cl.js';

const SRC = 'kernel void empty(global float *a, int n, float4 v) {}';
const N = Number(process.env.LAUNCHES ?? 20000);
// A kernarg round runs in a child process of its own (this file with KERNARG_LAUNCH_ROUND=1): a GPU
// in exclusive-process mode admits one process at a time, and NVIDIA's OpenCL keeps the device
// until the process ends, whatever is released.
// Each mode in a process of its own, as the C host runs each.
const roundMode = process.env.KERNARG_LAUNCH_ROUND;
if (roundMode === 'sync' || roundMode === 'async' || roundMode === 'changing' || roundMode === 'floor') {
  console.log(JSON.stringify(await kernargRound(roundMode)));
  process.exit(0);
}
// The same calls from C. sync: clSetKernelArg x3, clEnqueueNDRangeKernel with an event, clWaitForEvents,
// event profiling, release. async: clSetKernelArg x3 and clEnqueueNDRangeKernel without an event, then one clFinish.
const C = `#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
typedef void *H; typedef int32_t I;
extern I clGetPlatformIDs(uint32_t, H*, uint32_t*); extern I clGetDeviceIDs(H, uint64_t, uint32_t, H*, uint32_t*);
extern I clGetDeviceInfo(H, uint32_t, size_t, void*, size_t*);
extern H clCreateContext(void*, uint32_t, H*, void*, void*, I*); extern H clCreateCommandQueue(H, H, uint64_t, I*);
extern H clCreateBuffer(H, uint64_t, size_t, void*, I*); extern H clCreateProgramWithSource(H, uint32_t, const char**, size_t*, I*);
extern I clBuildProgram(H, uint32_t, H*, const char*, void*, void*); extern H clCreateKernel(H, const char*, I*);
extern I clSetKernelArg(H, uint32_t, size_t, const void*); extern I clEnqueueNDRangeKernel(H, H, uint32_t, const size_t*, const size_t*, const size_t*, uint32_t, void*, H*);
extern I clWaitForEvents(uint32_t, H*); extern I clGetEventProfilingInfo(H, uint32_t, size_t, void*, size_t*); extern I clReleaseEvent(H);
extern I clFinish(H);
int main(int argc, char **argv) {
  int n = atoi(argv[1]); const char *match = argc > 2 ? argv[2] : ""; int async = argc > 3 && !strcmp(argv[3], "async");
  H plats[8]; uint32_t np = 0; I pe = clGetPlatformIDs(8, plats, &np); H dev = 0;
  if (pe) { fprintf(stderr, "clGetPlatformIDs: %d\\n", pe); return 1; }
  if (np > 8) np = 8;
  for (uint32_t p = 0; p < np && !dev; p++) { H devs[8]; uint32_t nd = 0; I de = clGetDeviceIDs(plats[p], 0xFFFFFFFFull, 8, devs, &nd);
    if (de) { fprintf(stderr, "platform %u: clGetDeviceIDs %d\\n", p, de); continue; }
    if (nd > 8) nd = 8;
    for (uint32_t d = 0; d < nd; d++) { char name[256] = {0}; clGetDeviceInfo(devs[d], 0x102B, 255, name, 0); fprintf(stderr, "device: %s\\n", name); if (!*match || strstr(name, match)) { dev = devs[d]; break; } } }
  if (!dev) { fprintf(stderr, "no device matches '%s'\\n", match); return 1; }
  I e; H ctx = clCreateContext(0, 1, &dev, 0, 0, &e); H q = clCreateCommandQueue(ctx, dev, 2, &e);
  const char *src = "${SRC}"; H prog = clCreateProgramWithSource(ctx, 1, &src, 0, &e);
  if (clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", 0, 0)) return 2; H k = clCreateKernel(prog, "empty", &e); H buf = clCreateBuffer(ctx, 1, 1024, 0, &e);
  int nv = 7; float v[4] = {1, 2, 3, 4}; size_t g = 1; uint64_t t;
  struct timespec a, b;
  if (async) {
    for (int i = 0; i < 1000; i++) { clSetKernelArg(k, 0, 8, &buf); clSetKernelArg(k, 1, 4, &nv); clSetKernelArg(k, 2, 16, v); clEnqueueNDRangeKernel(q, k, 1, 0, &g, 0, 0, 0, 0); }
    clFinish(q);
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < n; i++) { clSetKernelArg(k, 0, 8, &buf); clSetKernelArg(k, 1, 4, &nv); clSetKernelArg(k, 2, 16, v); clEnqueueNDRangeKernel(q, k, 1, 0, &g, 0, 0, 0, 0); }
    clFinish(q);
  } else for (int i = 0; i < n + 1000; i++) {
    if (i == 1000) clock_gettime(CLOCK_MONOTONIC, &a);
    clSetKernelArg(k, 0, 8, &buf); clSetKernelArg(k, 1, 4, &nv); clSetKernelArg(k, 2, 16, v);
    H ev; clEnqueueNDRangeKernel(q, k, 1, 0, &g, 0, 0, 0, &ev); clWaitForEvents(1, &ev);
    clGetEventProfilingInfo(ev, 0x1282, 8, &t, 0); clGetEventProfilingInfo(ev, 0x1283, 8, &t, 0); clReleaseEvent(ev);
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%s %f\\n", async ? "async" : "sync", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
  return 0;
}`;
// KERNARG_C_HOST names a prebuilt host (for machines without a C compiler); else it is built here.
let host = process.env.KERNARG_C_HOST;
if (!host) {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-launch-'));
  writeFileSync(join(dir, 'host.c'), C);
  const lib =
    execFileSync('sh', ['-c', 'ldconfig -p | grep -m1 "libOpenCL.so.1 " | sed "s/.*=> //"'], {
      encoding: 'utf8',
    }).trim() || 'libOpenCL.so.1';
  execFileSync('cc', ['-O2', '-o', join(dir, 'host'), join(dir, 'host.c'), lib]);
  host = join(dir, 'host');
  if (process.env.KERNARG_KEEP_C_HOST) execFileSync('cp', [host, process.env.KERNARG_KEEP_C_HOST]);
}
const cHost = (mode: 'sync' | 'async') => {
  const c = spawnSync(host!, [String(N), process.env.KERNARG_DEVICE ?? '', mode], { encoding: 'utf8' });
  if (c.status !== 0) throw new Error(`C host failed: ${c.stderr}`);
  const [said, us] = c.stdout.trim().split(' ');
  // A C host built before the async mode existed prints one number: rebuild it (KERNARG_KEEP_C_HOST).
  if (said !== mode)
    throw new Error(
      `the C host ${host} has no ${mode} mode (it printed '${c.stdout.trim()}'): rebuild it with KERNARG_KEEP_C_HOST=<path> npm run bench -- launch`,
    );
  return Number(us);
};
type Mode = 'sync' | 'async' | 'changing' | 'floor';

/** One round of kernarg's launches in one mode, on a fresh context released at the end: µs per launch. */
async function kernargRound(mode: Mode): Promise<{ us: number; device: string }> {
  const ctx = Context.open(process.env.KERNARG_DEVICE);
  const device = `${ctx.device.platform} / ${ctx.device.name}`;
  const k = await kernel(SRC, 'empty', { context: ctx, cache: false });
  const a = ctx.buffer(1024);
  const o = { args: { a, n: 7, v: [1, 2, 3, 4] }, global: [1] };
  let us: number;
  if (mode === 'sync') {
    // The same calls as the C host's sync loop: enqueue with an event, wait, read start/end, release.
    for (let i = 0; i < 1000; i++) k.launchAndWait(o);
    const t0 = performance.now();
    for (let i = 0; i < N; i++) k.launchAndWait(o);
    us = ((performance.now() - t0) / N) * 1000;
  } else if (mode === 'async') {
    for (let i = 0; i < 1000; i++) k.enqueue(o);
    ctx.finish();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) k.enqueue(o);
    ctx.finish();
    us = ((performance.now() - t0) / N) * 1000;
  } else if (mode === 'floor') {
    // Node's floor: the C host's sync calls one for one (three clSetKernelArg, enqueue with an event,
    // wait, two profiling reads, release) straight through the FFI bindings, no kernarg in between:
    // what any Node host pays for the same calls.
    const { cl, queue } = ctx;
    const err = [0];
    const prog = cl.CreateProgramWithSource(ctx.handle, 1, [SRC], null, err);
    if (cl.BuildProgram(prog, 1, [ctx.device.handle], '-cl-std=CL1.2', null, null) !== 0)
      throw new Error('floor: build failed');
    const kh = cl.CreateKernel(prog, 'empty', err);
    const mem = new BigUint64Array([a.handle]);
    const nv = new Int32Array([7]);
    const v = new Float32Array([1, 2, 3, 4]);
    const global = new BigUint64Array([1n]);
    const ev: (Handle | null)[] = [null];
    const one: Handle[] = [0n];
    const t = new BigUint64Array(1);
    const call = () => {
      cl.SetKernelArgMem(kh, 0, 8, mem);
      cl.SetKernelArg(kh, 1, 4, nv);
      cl.SetKernelArg(kh, 2, 16, v);
      cl.EnqueueNDRangeKernel(queue, kh, 1, null, global, null, 0, null, ev);
      one[0] = ev[0]!;
      cl.WaitForEvents(1, one);
      cl.GetEventProfilingInfo(one[0], 0x1282, 8, t, null);
      cl.GetEventProfilingInfo(one[0], 0x1283, 8, t, null);
      cl.ReleaseEvent(one[0]);
    };
    for (let i = 0; i < 1000; i++) call();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) call();
    us = ((performance.now() - t0) / N) * 1000;
    cl.ReleaseKernel(kh);
    cl.ReleaseProgram(prog);
  } else {
    // Sync with the int argument alternating between two values: one clSetKernelArg per launch.
    const os = [o, { args: { a, n: 8, v: [1, 2, 3, 4] }, global: [1] }];
    for (let i = 0; i < 1000; i++) k.launchAndWait(os[i & 1]);
    const t0 = performance.now();
    for (let i = 0; i < N; i++) k.launchAndWait(os[i & 1]);
    us = ((performance.now() - t0) / N) * 1000;
  }
  k.dispose();
  a.dispose();
  ctx.dispose();
  return { us, device };
}

const kernargInChild = (mode: Mode) => {
  const c = spawnSync(process.execPath, [...process.execArgv, import.meta.filename], {
    encoding: 'utf8',
    env: { ...process.env, KERNARG_LAUNCH_ROUND: mode },
  });
  if (c.status !== 0) throw new Error(`kernarg ${mode} round failed: ${c.stderr}`);
  return JSON.parse(c.stdout.trim().split('\n').pop()!) as { us: number; device: string };
};

// Rounds alternate the C host and kernarg (medians reported), so that a busy machine slows both alike.
// PoCL's sync launches on a small machine vary by half from round to round (its worker threads'
// wake-ups, which Node's own threads compete with): seven rounds, and the median of the rounds'
// own ratios beside the ratio of the medians.
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const samples = {
  cSync: [] as number[],
  cAsync: [] as number[],
  kSync: [] as number[],
  kAsync: [] as number[],
  kChanging: [] as number[],
  floor: [] as number[],
};
let deviceName = '';
// The order of the six runs turns by two every round, so no run always follows the same one (with a
// fixed order kernarg's sync run, always right after the C host's asynchronous batch, measured slower
// than its sync run with an argument changing, which does more work).
const runs: (() => void)[] = [
  () => samples.cSync.push(cHost('sync')),
  () => samples.cAsync.push(cHost('async')),
  () => {
    const sync = kernargInChild('sync');
    deviceName = sync.device;
    samples.kSync.push(sync.us);
  },
  () => samples.kAsync.push(kernargInChild('async').us),
  () => samples.kChanging.push(kernargInChild('changing').us),
  () => samples.floor.push(kernargInChild('floor').us),
];
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < runs.length; i++) runs[(i + 2 * r) % runs.length]();
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const theirs = { sync: median(samples.cSync), async: median(samples.cAsync) };
const oursSync = median(samples.kSync);
const oursAsync = median(samples.kAsync);
const oursChanging = median(samples.kChanging);

console.log(
  `device: ${deviceName}; ${N} launches of an empty 3-argument kernel, median of ${ROUNDS} alternating rounds`,
);
console.log(`sync  (per launch: set args, enqueue with event, wait, profile, release)`);
console.log(`  kernarg (validate + pack; unchanged args not set again): ${oursSync.toFixed(2)} us/launch`);
console.log(`  kernarg, the int argument changing every launch:       ${oursChanging.toFixed(2)} us/launch`);
console.log(`  C host (sets all 3 args every launch):                 ${theirs.sync.toFixed(2)} us/launch`);
const paired = (ours: number[], c: number[]) => median(ours.map((x, i) => x / c[i])).toFixed(3);
console.log(
  `  ratio: ${(oursSync / theirs.sync).toFixed(3)}x the C host (${(oursChanging / theirs.sync).toFixed(3)}x with one arg changing); median of the rounds' ratios ${paired(samples.kSync, samples.cSync)}x (${paired(samples.kChanging, samples.cSync)}x)`,
);
console.log(
  `  Node's floor (the C host's calls one for one through the FFI, no kernarg): ${median(samples.floor).toFixed(2)} us/launch = ${(median(samples.floor) / theirs.sync).toFixed(3)}x the C host; kernarg is ${paired(samples.kSync, samples.floor)}x the floor (median of the rounds' ratios)`,
);
console.log(`async (${N} x set args + enqueue without event, then one finish)`);
console.log(`  kernarg (validate + pack; unchanged args not set again): ${oursAsync.toFixed(2)} us/launch`);
console.log(`  C host:                                     ${theirs.async.toFixed(2)} us/launch`);
console.log(
  `  ratio: ${(oursAsync / theirs.async).toFixed(3)}x the C host; median of the rounds' ratios ${paired(samples.kAsync, samples.cAsync)}x`,
);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
// The CUDA row: the same measurement through the CUDA driver API beside a C host making the same
// driver calls (bench/cuda-launch-overhead.ts), where libcuda.so.1 is installed.
await import('./cuda-launch-overhead.js');
