// The zebin reader against ocloc on every valid fixture and the hand-written zebin cases: each
// compiled for pvc (IGC_EnableZEBinary=1, -cl-kernel-arg-info), read back by kernarg, its plan
// written as ze-info and compared with the section ocloc wrote (the reader's oracle), and compared
// slot by slot with the plan kernarg predicts from the source (the round trip).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readBinary } from '../src/readers/index.js';
import { emitZeInfo } from '../src/targets/zebin/ze-info.js';
import { fixtureFiles } from '../test/support/fixtures.js';
import { type Source, zebinRoundTrip } from '../test/support/reader-roundtrip.js';
import { elfSection, entryText, payloadArguments } from '../test/support/zebin-oracle.js';

const root = join(import.meta.dirname, '..');
const hand = ['hand-pointers', 'hand-values', 'hand-images', 'hand-builtins'].map((c) =>
  join(root, 'test/oracle/zebin-ocloc', `${c}.cl`),
);
const sources: (Source & { path: string })[] = [
  ...fixtureFiles().map((f) => ({
    text: f.text,
    std: f.std,
    path: f.path,
    includeDirs: f.includeDirs,
    defines: f.defines,
    clangArgs: f.clangArgs,
    host: f,
  })),
  ...hand.map((path) => ({ text: readFileSync(path, 'utf8'), std: 'CL2.0' as const, path })),
];
let files = 0,
  kernels = 0,
  zeInfoEqual = 0,
  planEqual = 0,
  refused = 0;
const shown: string[] = [];
for (const s of sources) {
  const dir = mkdtempSync(join(tmpdir(), 'kernarg-zebin-sweep-'));
  try {
    try {
      execFileSync(
        'ocloc',
        [
          'compile',
          '-file',
          s.path,
          '-device',
          'pvc',
          '-output_no_suffix',
          '-out_dir',
          join(dir, 'out'),
          '-options',
          [`-cl-std=${s.std}`, '-cl-kernel-arg-info', `-I${dirname(s.path)}`, ...(s.clangArgs ?? [])].join(' '),
        ],
        { cwd: dir, env: { ...process.env, IGC_EnableZEBinary: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
    } catch {
      refused++;
      continue;
    }
    const bin = readdirSync(join(dir, 'out')).find((f) => !f.endsWith('.spv'));
    if (!bin) continue;
    const bytes = new Uint8Array(readFileSync(join(dir, 'out', bin)));
    files++;
    const read = readBinary(bytes, bin);
    if (!read.plan || read.plan.target !== 'zebin') {
      shown.push(`${s.path}: ${read.diagnostics.map((d) => d.message).join('; ')}`);
      continue;
    }
    const theirs = payloadArguments(new TextDecoder().decode(elfSection(bytes, '.ze_info')));
    const ours = payloadArguments(emitZeInfo(read.plan));
    for (const [k, entries] of theirs) {
      kernels++;
      if (JSON.stringify(ours.get(k)?.map(entryText)) === JSON.stringify(entries.map(entryText))) zeInfoEqual++;
      else shown.push(`${s.path} ${k}: ze-info written back differs`);
    }
    const rt = zebinRoundTrip(bytes, s, 'pvc');
    const differing = new Set(rt.differences.map((d) => /^kernel (\S+)/.exec(d)?.[1] ?? d));
    planEqual += rt.kernels - [...differing].filter((k) => theirs.has(k)).length;
    shown.push(...rt.differences.slice(0, 2).map((d) => `${s.path}: ${d}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(
  `pvc: ${files} zebins (${refused} sources ocloc refused), ${kernels} kernels; ze-info written back from the read ` +
    `plan equal to ocloc's section: ${zeInfoEqual}; plan read equal to kernarg's prediction, every slot: ${planEqual}`,
);
for (const d of shown.slice(0, 12)) console.log(`  ${d}`);
