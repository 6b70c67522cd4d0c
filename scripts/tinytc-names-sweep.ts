// The full sweep behind test/tinytc-names.test.ts (which runs 6 batches): N batches of generated
// tinytc functions whose names are anything tinytc's lexer accepts, each batch's OpenCL C through
// clang-16 and its SPIR-V through spirv-val. Prints the accepted and refused counts; stops at the
// first disagreement with the seed and batch to reproduce it.
// Run: npx tsx scripts/tinytc-names-sweep.ts [batches=200] [seed=1]
import fc from 'fast-check';
import { kernelName } from '../src/frontend/tinytc/calling-convention.js';
import { checkNameBatch, namedFunc } from '../test/support/gen-tinytc-names.js';
import { findTool, CLANG } from '../test/support/tools.js';
import { SPIRV_VAL } from '../test/support/spirv-check.js';

const batches = Number(process.argv[2] ?? 200);
const seed = Number(process.argv[3] ?? 1);
const clang = findTool(CLANG);
const val = findTool(SPIRV_VAL, ['--version']);
if (!clang || !val) throw new Error('needs clang-16 and spirv-val (.ci/run installs them)');
const arb = fc.uniqueArray(namedFunc, { selector: (f) => kernelName(f.name), minLength: 20, maxLength: 40 });
let accepted = 0;
let refused = 0;
const t0 = performance.now();
for (const [b, funcs] of fc.sample(arb, { seed, numRuns: batches }).entries()) {
  const r = checkNameBatch(funcs, clang, val, `seed ${seed}, batch ${b}`);
  accepted += r.accepted;
  refused += r.refused;
}
console.log(
  `${batches} batches, seed ${seed}: ${accepted + refused} functions; ${accepted} accepted (clang-16 compiles the ` +
    `OpenCL C, spirv-val accepts the SPIR-V, kernels and parameters as the plan says), ${refused} refused with a ` +
    `name diagnostic; 0 disagreements; ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
