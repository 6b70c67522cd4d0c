// The persistent build cache: building a program from source (cache off) against loading it from
// the cache (clCreateProgramWithBinary + clBuildProgram), on the same device in the same run.
// The program is the OpenCL C kernarg generates for test/fixtures/tinytc-kernels/input.ir
// (GEMMs, reductions, atomics; group tables as ulong so that NVIDIA builds it too).
// Run: npm run bench -- cache   (KERNARG_DEVICE picks the device; ROUNDS, default 5)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceFile } from '../dist/diagnostics/source.js';
import { emitTinytcOpenCLC } from '../dist/codegen/opencl-c/index.js';
import { compileTinytc } from '../dist/codegen/compile-tinytc.js';
import { SPIR64 } from '../dist/layout/data-layout.js';
import { Context } from '../dist/runtime/opencl/host.js';
import { buildProgram } from '../dist/runtime/opencl/program.js';

const path = join(import.meta.dirname, '..', 'test', 'fixtures', 'tinytc-kernels', 'input.ir');
const fe = compileTinytc(new SourceFile(path, readFileSync(path, 'utf8')), { layout: SPIR64 });
if (!fe.compiled) throw new Error('the fixture does not compile');
const base = emitTinytcOpenCLC(fe.compiled, { groupTables: 'ulong' });
const rounds = Number(process.env.ROUNDS ?? 5);
const ctx = Context.open(process.env.KERNARG_DEVICE);
const dir = mkdtempSync(join(tmpdir(), 'kernarg-cache-bench-'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const off: number[] = [];
const miss: number[] = [];
const hit: number[] = [];
for (let r = 0; r < rounds; r++) {
  // A new comment per round: a new program for kernarg's cache and for any cache the driver keeps.
  const source = `// round ${r} ${process.pid} ${Date.now()}\n${base}`;
  const spec = { source, options: '-cl-std=CL1.2', origin: 'tinytc-kernels.ir.cl' };
  const a = buildProgram(ctx, { ...spec, cache: false });
  off.push(a.ms);
  ctx.cl.ReleaseProgram(a.handle);
  const b = buildProgram(ctx, { ...spec, source: `${source}\n// stored`, cache: dir });
  if (b.cache !== 'miss') throw new Error(`expected a miss, got ${b.cache}`);
  miss.push(b.ms);
  ctx.cl.ReleaseProgram(b.handle);
  const c = buildProgram(ctx, { ...spec, source: `${source}\n// stored`, cache: dir });
  if (c.cache !== 'hit') throw new Error(`expected a hit, got ${c.cache}`);
  hit.push(c.ms);
  ctx.cl.ReleaseProgram(c.handle);
}
console.log(
  `device: ${ctx.device.platform} / ${ctx.device.name}; program: ${base.length} bytes of OpenCL C, ${rounds} rounds, medians`,
);
console.log(`  build from source, cache off:        ${median(off).toFixed(1)} ms`);
console.log(`  build from source and store (miss):  ${median(miss).toFixed(1)} ms`);
console.log(`  load from the cache (hit):           ${median(hit).toFixed(1)} ms`);
console.log(
  `  saved per build: ${(median(off) - median(hit)).toFixed(1)} ms (hit = ${(median(hit) / median(off)).toFixed(3)}x the uncached build)`,
);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
ctx.dispose();
rmSync(dir, { recursive: true });
