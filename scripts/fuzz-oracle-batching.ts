// How much batching buys the opencl-c-clang target: the same generated programs checked against
// clang-16 in one translation unit per batch, and one program per clang run, side by side in this
// process (rounds alternate the order). Prints each mode's wall time and the ratio.
//   npx tsx scripts/fuzz-oracle-batching.ts [programs=48] [rounds=2]
import { ClangBatchOracle, type Program } from '../test/fuzz/differential/clang-batch.js';
import { program } from '../test/fuzz/targets/opencl-c-clang.js';
import { CLANG, findTool } from '../test/support/tools.js';

const count = Number(process.argv[2] ?? 48);
const rounds = Number(process.argv[3] ?? 2);
const clang = findTool(CLANG);
if (!clang) throw new Error(`needs ${CLANG.join(' or ')}`);
let s = 32;
const byte = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 24;
// One standard and code object (byte 0 = 0x01: CL2.0, code object 4), so the batch is one translation unit.
const programs: Program[] = Array.from({ length: count }, (_, i) =>
  program(
    Uint8Array.from({ length: 64 }, (_, j) => (j === 0 ? 0x01 : byte())),
    `f${i}`,
  ),
);
const oracle = new ClangBatchOracle(clang);
const time = (f: () => number) => {
  const t0 = performance.now();
  const n = f();
  return { ms: performance.now() - t0, n };
};
const totals = { batched: 0, alone: 0 };
for (let r = 0; r < rounds; r++) {
  const modes = r % 2 ? (['alone', 'batched'] as const) : (['batched', 'alone'] as const);
  for (const m of modes) {
    const { ms, n } = time(() =>
      m === 'batched' ? oracle.check(programs).length : programs.reduce((k, p) => k + oracle.check([p]).length, 0),
    );
    if (n) throw new Error(`${n} disagreements`);
    totals[m] += ms;
    console.log(
      `round ${r + 1} ${m}: ${count} programs in ${ms.toFixed(0)} ms (${((count / ms) * 1000).toFixed(1)} programs/s)`,
    );
  }
}
console.log(
  `one program per clang run takes ${(totals.alone / totals.batched).toFixed(1)}× the time of one batch of ${count}`,
);
oracle.dispose();
