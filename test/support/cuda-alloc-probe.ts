// Counts scavenges over many warm CUDA launches through the driver library named by KERNARG_LIBCUDA
// (test/support/mock-libcuda.c in CI); run in a child process with a 1 MiB young generation, as
// launch-alloc-probe.ts does for OpenCL. argv: 'enqueue' | 'wait' | 'extra' (enqueue, the extra form)
// | 'fresh' (a new arguments object per launch: the control, which must allocate).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GCProfiler } from 'node:v8';
import { readPtx } from '../../src/readers/ptx.js';
import { CudaContext } from '../../src/runtime/cuda/host.js';

const mode = process.argv[2] ?? 'enqueue';
const path = join(import.meta.dirname, '..', '..', 'scripts', 'gpu-cuda', 'launch-kernels.ptx');
const ptx = readFileSync(path, 'utf8');
const plan = readPtx(new TextEncoder().encode(ptx), path).plan!;
const ctx = CudaContext.open();
const module = ctx.module(ptx);
const k = module.kernel('empty', plan, { form: mode === 'extra' ? 'extra' : 'params' });
const a = ctx.buffer(1024);
const bytes = Array.from(new Uint8Array(Float32Array.of(1, 2, 3, 4).buffer));
const o = { args: { empty_param_0: a, empty_param_1: 7, empty_param_2: bytes }, global: [1], local: [1] };
const batch = 5000;
const COUNTED = 80;
const run = (batches: number) => {
  for (let b = 0; b < batches; b++) {
    if (mode === 'wait') for (let i = 0; i < batch; i++) k.launchAndWait(o);
    else if (mode === 'fresh')
      for (let i = 0; i < batch; i++)
        k.enqueue({ args: { empty_param_0: a, empty_param_1: i & 7, empty_param_2: bytes }, global: [1], local: [1] });
    else for (let i = 0; i < batch; i++) k.enqueue(o);
    ctx.synchronize();
  }
};
run(4);
const profiler = new GCProfiler();
profiler.start();
const before = process.memoryUsage().heapUsed;
run(COUNTED);
const after = process.memoryUsage().heapUsed;
const gcs = (profiler.stop()?.statistics ?? []).filter((x) => x.gcType === 'Scavenge').length;
console.log(JSON.stringify({ mode, calls: COUNTED * batch, gcs, heapGrowth: after - before }));
k.dispose();
module.dispose();
ctx.dispose();
