// Builds one program through the build cache (KERNARG_CACHE_DIR), runs it, and prints the cache
// outcome and the result as JSON: the two-processes-at-once test starts several of these together.
import { Context } from '../../src/runtime/opencl/host.js';
import { kernel } from '../../src/runtime/opencl/compile-kernel.js';

const ctx = Context.open(process.env.KERNARG_DEVICE);
const k = await kernel(
  'kernel void sq(global int *a) { size_t i = get_global_id(0); a[i] = (int)(i * i) + ADD; }',
  'sq',
  { context: ctx, buildOptions: '-DADD=5' },
);
const a = ctx.buffer(4 * 16);
await k.launch({ args: { a }, global: [16] });
console.log(JSON.stringify({ cache: k.program.cache, values: [...a.read(new Int32Array(16))] }));
k.dispose();
ctx.dispose();
