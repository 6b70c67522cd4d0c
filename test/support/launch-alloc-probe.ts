// Counts garbage collections and heap growth over many warm launches; run in a child process with
// a small young generation (--max-semi-space-size=1) so that any per-launch allocation shows up
// as scavenges. Prints one JSON line: { calls, gcs, heapGrowth }. argv: 'enqueue' | 'launch' | 'wait'
// (launchAndWait, the synchronous path without an event object).
import { GCProfiler } from 'node:v8';
import { Context } from '../../src/runtime/opencl/host.js';
import { kernel } from '../../src/runtime/opencl/compile-kernel.js';

const mode = process.argv[2] === 'launch' ? 'launch' : process.argv[2] === 'wait' ? 'wait' : 'enqueue';
const ctx = Context.open(process.env.KERNARG_DEVICE);
const k = await kernel('kernel void empty(global float *a, int n, float4 v) {}', 'empty', {
  context: ctx,
  cache: false,
});
const a = ctx.buffer(1024);
const args = { a, n: 7, v: [1, 2, 3, 4] };
const o = { args, global: [1] };
const batch = 5000;
// 400,000 counted calls: one object per call (12 bytes or more) would fill the 1 MiB young
// generation at least four times over, so at most one scavenge means no per-call allocation.
const COUNTED = 80;
const run = (batches: number) => {
  for (let b = 0; b < batches; b++) {
    if (mode === 'enqueue') for (let i = 0; i < batch; i++) k.enqueue(o);
    else if (mode === 'wait') for (let i = 0; i < batch; i++) k.launchAndWait(o);
    else for (let i = 0; i < batch; i++) k.launch(o);
    ctx.finish();
  }
};
run(4);
// Only scavenges (minor GCs) count: they come from young-generation allocation, while a major GC
// can be started by the memory reducer or a timer whatever the loop does. v8.GCProfiler reports
// every collection synchronously when stopped (PerformanceObserver's gc entries arrived late or not
// at all on a loaded machine, which could make the allocating control read 0).
const profiler = new GCProfiler();
profiler.start();
const before = process.memoryUsage().heapUsed;
run(COUNTED);
const after = process.memoryUsage().heapUsed;
const gcs = (profiler.stop()?.statistics ?? []).filter((x) => x.gcType === 'Scavenge').length;
console.log(JSON.stringify({ mode, calls: COUNTED * batch, gcs, heapGrowth: after - before }));
k.dispose();
ctx.dispose();
