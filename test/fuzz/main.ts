// npm run fuzz -- [--seconds N] [--runs N] [--seed N] [--hang-ms N] [--tsx] [target ...]
// Fuzzes every target in test/fuzz/targets (or the ones named) for N seconds each (default 300),
// keeping the corpus in .fuzz/corpus and writing findings to .fuzz/findings. Exit 1 on a finding.
import { join } from 'node:path';
import { runFuzz } from './driver.js';

const args = process.argv.slice(2);
const opt = (name: string): number | undefined => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  if (!Number.isFinite(v)) throw new Error(`--${name} takes a number`);
  return v;
};
const seconds = opt('seconds') ?? 300;
const runs = opt('runs');
const seed = opt('seed');
// A worker silent this long is a hang (default 20 s); a differential target's first oracle batch (a PoCL
// program build) can take longer on a machine shared with other work.
const hangMs = opt('hang-ms');
// --tsx: the worker runs the TypeScript under tsx, not the compiled JavaScript (to compare rates).
const tsx = args.includes('--tsx');
if (tsx) args.splice(args.indexOf('--tsx'), 1);
const root = join(import.meta.dirname, '..', '..', '.fuzz');
const summaries = await runFuzz({
  targets: args,
  seconds,
  runs,
  seed,
  hangMs,
  tsx,
  corpusDir: join(root, 'corpus'),
  findingsDir: join(root, 'findings'),
  log: (l) => console.log(l),
});
let findings = 0;
for (const s of summaries) {
  findings += s.findings.length;
  console.log(
    `${s.target}: ${s.runs} inputs in ${s.seconds.toFixed(0)} s (${(s.runs / s.seconds).toFixed(0)}/s), corpus ${s.corpus}, ${s.blocks} of ${s.knownBlocks} blocks of src/ covered, ${s.findings.length} findings, ${s.coverageReads} coverage reads`,
  );
  if (s.oracle)
    console.log(
      `${s.target}: oracle ${Object.entries(s.oracle)
        .map(([k, v]) => `${k} ${Math.round(v)}`)
        .join(', ')}`,
    );
}
process.exit(findings ? 1 : 0);
