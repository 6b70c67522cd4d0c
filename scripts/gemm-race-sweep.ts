// Every GEMM variant of GEMM_VARIANTS on tinytc-gemm-overlap.test.ts's cases (the four batched shapes, two work-groups
// at once, and the four odd sizes), as the OpenCL C a CPU device is given, run on threads under ThreadSanitizer
// (test/support/work-group-threads.ts): per program the races TSAN reports and whether every element equals the JS
// reference. test/tinytc-gemm-races.test.ts runs a sample of these.
//
//   node --import tsx scripts/gemm-race-sweep.ts [variant-substring [opencl-knobs]]
// (the knobs as CL_KNOBS writes them, e.g. `vload=2,aligned,tile=2x4`: every program under them)
import { GEMM_VARIANTS } from '../src/codegen/blas-policy.js';
import { parseOpenclKnobs } from '../src/codegen/opencl-knobs.js';
import { type RaceCase, checkOnThreads, cpuOpenclC, oddGemm } from '../test/support/gemm-on-threads.js';
import { batchedGemm } from '../test/support/tinytc-gemm-cases.js';
import { CLANG19, findTool } from '../test/support/tools.js';

const clang = findTool(CLANG19);
if (!clang) {
  console.error('gemm-race-sweep: clang-19 (with its ThreadSanitizer runtime) is not installed');
  process.exit(2);
}
const batched = (t: 'f32' | 'f64', n: number): RaceCase => ({
  ...(batchedGemm(t, n, 2) as unknown as RaceCase),
  howmany: 2,
});
const CASES: [string, RaceCase][] = [
  ['32³ f32 × 2', batched('f32', 32)],
  ['32³ f64 × 2', batched('f64', 32)],
  ['64³ f32 × 2', batched('f32', 64)],
  ['64³ f64 × 2', batched('f64', 64)],
  ['65×63×61 f64 n.n', oddGemm('f64', 65, 63, 61, 'n', 'n', false)],
  ['37×23×19 f32 t.t dyn', oddGemm('f32', 37, 23, 19, 't', 't', true)],
  ['33×70×45 f32 n.t', oddGemm('f32', 33, 70, 45, 'n', 't', false)],
  ['17×9×100 f64 t.n dyn', oddGemm('f64', 17, 9, 100, 't', 'n', true)],
];
const only = process.argv[2];
const knobs = parseOpenclKnobs(process.argv[3] ?? 'default');
let programs = 0;
let racy = 0;
let wrong = 0;
const t0 = Date.now();
for (const variant of GEMM_VARIANTS.filter((v) => !only || v.includes(only)))
  for (const [name, c] of CASES) {
    const v = checkOnThreads(clang, c, cpuOpenclC(c.ir, variant, knobs), `${variant} ${name}`);
    programs++;
    if (v.races) racy++;
    if (v.wrong) wrong++;
    if (v.races || v.wrong) console.log(`${variant} ${name}: ${v.races} races${v.wrong ? `; ${v.wrong}` : ''}`);
  }
console.log(
  `${programs} programs: ${racy} with races, ${wrong} with wrong elements (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
);
