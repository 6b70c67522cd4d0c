// The OpenCL SPIR-V of many generated tinytc programs (chained bodies and signatures of every type,
// test/support/gen-tinytc*.ts) through three consumers: spirv-val --target-env opencl2.2 (64-bit
// atomics: spv1.2, see test/tinytc-opencl-spirv.test.ts), the Khronos translator to LLVM
// (llvm-spirv-15 -r, what PoCL runs on SPIR-V) and Intel's offline compiler (ocloc -spirv_input,
// pvc). Prints how many modules each accepts and the first refusals. npm test runs a sample of
// each; this is the sweep.
//
//   node --import tsx scripts/opencl-spirv-sweep.ts [--runs 100] [--seed 20261123]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { lower } from '../src/lower.js';
import { chainSpec, renderChain } from '../test/support/gen-tinytc-bodies.js';
import { irFunction, renderIr } from '../test/support/gen-tinytc.js';

const { values: o } = parseArgs({
  options: { runs: { type: 'string', default: '100' }, seed: { type: 'string', default: '20261123' } },
});
const runs = Number(o.runs);
const seed = Number(o.seed);
const host = { readFile: () => undefined };

const programs = [
  ...fc.sample(chainSpec, { numRuns: runs, seed }).map((s) => renderChain(s).ir),
  ...fc
    .sample(fc.array(irFunction, { minLength: 1, maxLength: 3 }), { numRuns: runs, seed })
    .map((fs) => fs.map((f, i) => renderIr(f, `k${i}`)).join('')),
].filter((ir) => lower('k.ir', ir, host, { target: 'opencl', format: 'json' }).output !== undefined);

const CONSUMERS: Record<string, (f: string, dir: string) => string[]> = {
  'spirv-val': (f) => ['spirv-val', '--target-env', 'opencl2.2', f],
  'llvm-spirv-15 -r': (f, dir) => ['llvm-spirv-15', '-r', f, '-o', join(dir, 'k.bc')],
  'ocloc (pvc)': (f, dir) => [
    'ocloc',
    'compile',
    '-spirv_input',
    '-file',
    f,
    '-device',
    'pvc',
    '-out_dir',
    join(dir, 'out'),
  ],
};
const accepted: Record<string, number> = Object.fromEntries(Object.keys(CONSUMERS).map((k) => [k, 0]));
const refusals: string[] = [];
let unsupportedSubgroup = 0;
for (const ir of programs) {
  const r = lower('k.ir', ir, host, { target: 'opencl', format: 'spirv' });
  if (!r.binary) {
    refusals.push(`kernarg: ${r.diagnostics.map((d) => d.message).join('; ')}\n${ir}`);
    continue;
  }
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-clspv-sweep-'));
  try {
    const f = join(dir, 'k.spv');
    writeFileSync(f, r.binary);
    for (const [name, argv] of Object.entries(CONSUMERS)) {
      const [cmd, ...args] = argv(f, dir);
      let p = spawnSync(cmd, args, { encoding: 'utf8' });
      // 64-bit atomics: cl_khr_int64_base_atomics's capability, which spirv-val's OpenCL 2.2 profile does not list.
      if (name === 'spirv-val' && p.status !== 0 && /Capability Int64Atomics is not allowed/.test(p.stderr))
        p = spawnSync(cmd, ['--target-env', 'spv1.2', f], { encoding: 'utf8' });
      if (p.status === 0) accepted[name]++;
      // A subgroup size the device lacks (pvc has 16 and 32): IGC refuses it for OpenCL C alike.
      else if (/required subgroup size \d+, which is unsupported/.test(p.stdout + p.stderr)) unsupportedSubgroup++;
      else if (refusals.length < 5)
        refusals.push(
          `${name} (status ${p.status}): ${(p.stderr + p.stdout).trim().split('\n').slice(-3).join(' / ')}\n${ir}`,
        );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
for (const [name, n] of Object.entries(accepted)) console.log(`${name}: ${n} of ${programs.length} modules accepted`);
console.log(
  `ocloc (pvc): ${unsupportedSubgroup} refused for a subgroup_size pvc does not have (8), as IGC refuses ` +
    `intel_reqd_sub_group_size(8) there`,
);
for (const r of refusals) console.log(`REFUSED ${r}`);
const ok = Object.entries(accepted).every(
  ([name, n]) => n + (name.startsWith('ocloc') ? unsupportedSubgroup : 0) === programs.length,
);
process.exit(ok ? 0 : 1);
