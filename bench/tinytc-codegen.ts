// tinytc code generation: kernarg's OpenCL C and SPIR-V printers on one large generated .ir file
// (hundreds of functions with chained collective instructions), side by side with clang-16
// compiling that OpenCL C to LLVM IR (what an OpenCL driver does next) and spirv-val checking the
// module. Run: npm run bench -- codegen   (FUNCS=400 to change the size)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import type { VulkanPlan } from '../dist/targets/vulkan/lower.js';
import { SourceFile } from '../dist/diagnostics/source.js';
import { emitTinytcOpenCLC } from '../dist/codegen/opencl-c/index.js';
import { emitTinytcSpirv } from '../dist/codegen/spirv/index.js';
import { compileTinytc } from '../dist/codegen/compile-tinytc.js';
import { DATA_LAYOUTS } from '../dist/layout/data-layout.js';
import { lower } from '../dist/lower.js';
import { chainSpec, renderChain } from '../test/support/gen-tinytc-bodies.js';

const count = Number(process.env.FUNCS ?? 400);
const specs = fc.sample(chainSpec, { numRuns: count, seed: 20261123 });
const source = specs.map((s, i) => renderChain(s).ir.replace('@chain(', `@f${i}(`)).join('\n');
const dir = mkdtempSync(join(tmpdir(), 'kernarg-codegen-'));
const host = { readFile: () => undefined };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
function time(runs: number, f: () => void): number {
  f();
  const ts: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  return median(ts);
}

// The front end and the vulkan plan alone (what both printers start from), then each printer on top.
const tPlan = time(5, () => {
  lower('big.ir', source, host, { target: 'vulkan', format: 'json' });
});
let openclC = '';
let spirv: Uint8Array = new Uint8Array();
const tC = time(5, () => {
  openclC = lower('big.ir', source, host, { target: 'opencl', format: 'opencl-c' }).output!;
});
const rssAfterC = process.resourceUsage().maxRSS / 1024;
const tS = time(5, () => {
  spirv = lower('big.ir', source, host, { target: 'vulkan', format: 'spirv' }).binary!;
});
const rssAfterS = process.resourceUsage().maxRSS / 1024;
// The printers alone, on one checked program and plan, alternating so load on the machine hits both alike.
const fe = compileTinytc(new SourceFile('big.ir', source), { layout: DATA_LAYOUTS.spir });
const plan = lower('big.ir', source, host, { target: 'vulkan', format: 'json' }).plan as VulkanPlan;
const printC: number[] = [];
const printS: number[] = [];
for (let r = 0; r < 8; r++) {
  let t0 = performance.now();
  emitTinytcOpenCLC(fe.compiled!);
  printC.push(performance.now() - t0);
  t0 = performance.now();
  emitTinytcSpirv(fe.compiled!, plan);
  printS.push(performance.now() - t0);
}
const [pC, pS] = [median(printC.slice(1)), median(printS.slice(1))];
writeFileSync(join(dir, 'big.cl'), openclC);
writeFileSync(join(dir, 'big.spv'), spirv);

function external(cmd: string, args: string[], runs: number): { ms: number; peak: number } {
  const ts: number[] = [];
  let peak = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const p = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
    ts.push(performance.now() - t0);
    if (p.status !== 0) throw new Error(`${cmd}: ${p.stderr}`);
    peak = Math.max(peak, Number(p.stderr.trim().split('\n').pop()) / 1024);
  }
  return { ms: median(ts), peak };
}
const clang = external(
  'clang-16',
  ['-cl-std=CL2.0', '-target', 'spir64', '-emit-llvm', '-S', '-O0', '-o', '/dev/null', join(dir, 'big.cl')],
  3,
);
const val = external('spirv-val', ['--target-env', 'vulkan1.2', join(dir, 'big.spv')], 3);

console.log(`input: ${count} functions, ${source.split('\n').length} lines of tinytc IR`);
console.log(`kernarg parse + check + vulkan plan (--format json): median ${tPlan.toFixed(1)} ms`);
console.log(
  `kernarg --format opencl-c: median ${tC.toFixed(1)} ms, ${(openclC.length / 1024).toFixed(0)} KiB of OpenCL C`,
);
console.log(`kernarg --format spirv:    median ${tS.toFixed(1)} ms, ${(spirv.length / 1024).toFixed(0)} KiB of SPIR-V`);
console.log(
  `kernarg peak RSS: ${rssAfterC.toFixed(0)} MiB after the OpenCL C runs, ${rssAfterS.toFixed(0)} MiB after the SPIR-V runs (whole bench process)`,
);
console.log(
  `${execFileSync('clang-16', ['--version'], { encoding: 'utf8' }).split('\n')[0]} on that OpenCL C (-emit-llvm -O0): median ${clang.ms.toFixed(1)} ms, peak RSS ${clang.peak.toFixed(0)} MiB`,
);
console.log(
  `spirv-val --target-env vulkan1.2 on that module: median ${val.ms.toFixed(1)} ms, peak RSS ${val.peak.toFixed(0)} MiB`,
);
console.log(
  `printers alone (same program and plan, alternating, median of 7 warm runs): OpenCL C ${pC.toFixed(1)} ms, SPIR-V ${pS.toFixed(1)} ms (${(pS / pC).toFixed(2)}x)`,
);
console.log(
  `ratios: SPIR-V / OpenCL C end to end ${(tS / tC).toFixed(2)}x; clang-16 / kernarg SPIR-V ${(clang.ms / tS).toFixed(1)}x; spirv-val / kernarg SPIR-V ${(val.ms / tS).toFixed(1)}x`,
);
