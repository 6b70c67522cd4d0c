// Counts garbage collections and heap growth over many warm launches; run in a child process with
// a small young generation (--max-semi-space-size=1) so that any per-launch allocation shows up
// as scavenges. Prints one JSON line: { calls, gcs, heapGrowth }. argv: 'enqueue' | 'launch' | 'wait'
// (launchAndWait, the synchronous path without an event object).
import { PerformanceObserver } from 'node:perf_hooks';
import { Context, kernel } from '../../src/runtime/opencl/host.js';

const mode = process.argv[2] === 'launch' ? 'launch' : process.argv[2] === 'wait' ? 'wait' : 'enqueue';
const ctx = Context.open(process.env.KERNARG_DEVICE);
const k = await kernel('kernel void empty(global float *a, int n, float4 v) {}', 'empty', { context: ctx, cache: false });
const a = ctx.buffer(1024);
const args = { a, n: 7, v: [1, 2, 3, 4] };
const o = { args, global: [1] };
const batch = 5000;
const run = (batches: number) => {
  for (let b = 0; b < batches; b++) {
    if (mode === 'enqueue') for (let i = 0; i < batch; i++) k.enqueue(o);
    else if (mode === 'wait') for (let i = 0; i < batch; i++) k.launchAndWait(o);
    else for (let i = 0; i < batch; i++) k.launch(o);
    ctx.finish();
  }
};
run(4);
let gcs = 0;
const obs = new PerformanceObserver((list) => {
  gcs += list.getEntries().length;
});
obs.observe({ entryTypes: ['gc'] });
const before = process.memoryUsage().heapUsed;
run(20);
const after = process.memoryUsage().heapUsed;
// GC entries arrive asynchronously: let them be delivered.
await new Promise((r) => setTimeout(r, 50));
obs.disconnect();
console.log(JSON.stringify({ mode, calls: 20 * batch, gcs, heapGrowth: after - before }));
k.dispose();
ctx.dispose();
