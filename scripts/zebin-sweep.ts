// The full zebin oracle sweep: kernarg's `--target zebin` payloads against ocloc's on generated
// signatures (the fast-check model of test/support/gen.ts), every fixture and the real-world
// corpus (every kernel of every file ocloc accepts), per device. Prints the figures: kernels
// compared, equal, differing (with the first difference), and files refused with the reason.
//   npx tsx scripts/zebin-sweep.ts [--device pvc,tgllp,dg2] [--only generated,fixtures,corpus] [--programs 200] [--seed 27] [--hashcat 3] [--batch 20]
// (ocloc takes minutes on one hashcat file, which includes hashcat's whole inc_* library: --hashcat
// takes the first N files of that corpus, every file of the others.)
import { readFileSync } from 'node:fs';
import { CORPORA, CORPUS_ROOT } from '../test/corpus/corpora.js';
import { frontendFlags } from '../test/corpus/frontend-flags.js';
import { fixtureFiles } from '../test/support/fixtures.js';
import { programSpec, renderBatch, samples } from '../test/support/gen.js';
import { type FileOutcome, compareZebin } from '../test/support/zebin-compare.js';
import { runOcloc } from '../test/support/zebin-oracle.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const devices = arg('device', 'pvc').split(',');
const only = new Set(arg('only', 'generated,fixtures,corpus').split(','));
const programs = Number(arg('programs', '200'));
const seed = Number(arg('seed', '27'));
const hashcatFiles = Number(arg('hashcat', '3'));
// Programs per ocloc call; TGL and DG2 refuse a whole file for one `double`, so take fewer there.
const batch = Number(arg('batch', '20'));

interface Tally {
  files: number;
  kernels: number;
  equal: number;
  /** Of the equal ones: equal only with --private-memory (IGC kept private memory the source does not show). */
  privateMemory: number;
  differ: string[];
  refused: Map<string, number>;
  /** Files ocloc refused that kernarg refuses too. */
  bothRefused: number;
  kernargRefused: string[];
}

function tally(): Tally {
  return {
    files: 0,
    kernels: 0,
    equal: 0,
    privateMemory: 0,
    differ: [],
    refused: new Map(),
    bothRefused: 0,
    kernargRefused: [],
  };
}

function add(t: Tally, label: string, o: FileOutcome): void {
  t.files++;
  if (o.oclocRefused) {
    if (process.env.ZEBIN_SWEEP_VERBOSE) console.log(`  (${label}: ${o.oclocRefused})`);
    const reason = o.oclocRefused.replace(/^\S*:\d+:\d+: /, '').replace(/'[^']*'/g, "'…'");
    t.refused.set(reason, (t.refused.get(reason) ?? 0) + 1);
    if (o.kernargRefused) t.bothRefused++;
    return;
  }
  if (o.kernargRefused) {
    t.kernargRefused.push(`${label}: ${o.kernargRefused}`);
    return;
  }
  t.privateMemory += o.privateMemory.size;
  for (const [k, why] of o.kernels) {
    t.kernels++;
    if (why === undefined) t.equal++;
    else t.differ.push(`${label} ${k}: ${why}`);
  }
}

function report(name: string, device: string, t: Tally, ms: number): void {
  console.log(
    `${name} (${device}): ${t.files} files, ${t.kernels} kernels compared, ${t.equal} equal (${t.privateMemory} of ` +
      `them with --private-memory), ${t.differ.length} ` +
      `differ, ${[...t.refused.values()].reduce((a, b) => a + b, 0)} files refused by ocloc (${t.bothRefused} of them by kernarg too), ${t.kernargRefused.length} refused by kernarg alone (${(ms / 1000).toFixed(1)} s)`,
  );
  for (const [r, n] of t.refused) console.log(`  ocloc refused ${n}: ${r}`);
  for (const r of t.kernargRefused) console.log(`  kernarg refused: ${r}`);
  for (const d of t.differ.slice(0, 40)) console.log(`  differs: ${d}`);
  if (t.differ.length > 40) console.log(`  ... ${t.differ.length - 40} more`);
}

for (const device of devices) {
  if (only.has('generated')) {
    const started = Date.now();
    const t = tally();
    const { values } = samples(programSpec, programs, seed);
    // Many kernels per ocloc call: `batch` programs a file.
    for (let i = 0; i < values.length; i += batch) {
      const source = renderBatch(values.slice(i, i + batch), i, 'z');
      add(
        t,
        `generated[${i}]`,
        compareZebin('generated.cl', source, { std: 'CL2.0' }, device, runOcloc(source, device)),
      );
    }
    report('generated', device, t, Date.now() - started);
  }
  if (only.has('fixtures')) {
    const started = Date.now();
    const t = tally();
    for (const f of fixtureFiles()) {
      const extra = [
        ...f.includeDirs.flatMap((d) => ['-I', d]),
        ...f.defines.map(([n, v]) => `-D${n}${v === undefined || v === null ? '' : '=' + v}`),
      ];
      add(
        t,
        f.name,
        compareZebin(
          f.path,
          f.text,
          { std: 'CL2.0', includeDirs: f.includeDirs, defines: f.defines },
          device,
          runOcloc(f.text, device, 'CL2.0', extra, f.path),
        ),
      );
    }
    report('fixtures', device, t, Date.now() - started);
  }
  if (only.has('corpus')) {
    for (const corpus of CORPORA) {
      const started = Date.now();
      const t = tally();
      const files = corpus.name === 'hashcat' ? corpus.files().slice(0, hashcatFiles) : corpus.files();
      for (const file of files) {
        const text = readFileSync(file.path, 'utf8');
        const { includeDirs, commandLine } = frontendFlags(file.flags);
        const options = {
          std: 'CL2.0' as const,
          includeDirs,
          commandLine,
          fastRelaxedMath: file.flags.includes('-cl-fast-relaxed-math'),
        };
        add(
          t,
          file.name,
          compareZebin(file.path, text, options, device, runOcloc(text, device, 'CL2.0', file.flags, file.path)),
        );
      }
      report(
        `corpus ${corpus.name} (${CORPUS_ROOT.replace(/.*\/\.corpus/, '.corpus')})`,
        device,
        t,
        Date.now() - started,
      );
    }
  }
}
