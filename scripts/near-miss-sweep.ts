// The leniency oracle at scale: N near-miss declarations (test/support/near-miss.ts: generated
// valid programs with one or two token edits) judged by kernarg's frontend and by clang-16
// -fsyntax-only, in batches of one clang run each; prints the agreement count and each kind of
// disagreement with an example. test/oracle/near-miss-clang.test.ts runs a small sample of the same.
//   node --import tsx scripts/near-miss-sweep.ts [--runs 5000] [--seed 1] [--batch 250] [--show 3]
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { compareNearMisses, type Disagreement, nearMissSpec } from '../test/support/near-miss.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '1' },
    batch: { type: 'string', default: '250' },
    show: { type: 'string', default: '3' },
    clang: { type: 'string', default: 'clang-16' },
  },
});
const runs = Number(values.runs);
const seed = Number(values.seed);
const batch = Number(values.batch);
const specs = fc.sample(nearMissSpec, { seed, numRuns: runs });
const t0 = performance.now();
let agree = 0;
const all: Disagreement[] = [];
for (let b = 0; b < specs.length; b += batch) {
  const r = compareNearMisses(values.clang!, specs.slice(b, b + batch));
  agree += r.agree;
  all.push(...r.disagreements);
}
// Grouped by the two first errors' messages, numbers and names blanked.
const key = (d: Disagreement) => `kernarg: ${shape(d.kernarg.first)} | clang: ${shape(d.clang.first)}`;
const shape = (m: string | undefined) => (m ?? 'no error').replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N');
const groups = new Map<string, Disagreement[]>();
for (const d of all) groups.set(key(d), [...(groups.get(key(d)) ?? []), d]);
console.log(
  `near-miss sweep: ${runs} inputs (seed ${seed}), ${agree} agree, ${all.length} disagree (kernarg errs where clang ` +
    `does not: ${all.filter((d) => d.kernarg.error).length}; clang errs where kernarg does ` +
    `not: ${all.filter((d) => !d.kernarg.error).length}), ${((performance.now() - t0) / 1000).toFixed(0)} s`,
);
for (const [k, ds] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`\n${ds.length}× ${k}`);
  for (const d of ds.slice(0, Number(values.show)))
    console.log(
      `  [${d.std}] ${d.source
        .trim()
        .split('\n')
        .filter((l) => !l.includes('_Z;'))
        .join('\n    ')}`,
    );
}
