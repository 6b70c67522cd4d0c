// kernarg's `--target zebin` against ocloc (Intel's offline compiler): every kernel of the cached
// set (test/oracle/zebin-ocloc/records: hand-written cases, the fixtures, generated programs and a
// real-world corpus sample, recorded by scripts/zebin-record.ts) compared with ocloc's
// `.ze_info` payload arguments, and a rotating few re-run through ocloc so the records stay true.
// The full sweeps are scripts/zebin-sweep.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CORPUS_ROOT } from '../corpus/corpora.js';
import { frontendFlags } from '../corpus/frontend-flags.js';
import { deliberateCases } from '../support/deliberate.js';
import { requireTool } from '../support/tools.js';
import { ZEBIN_CASES, type ZebinCase, caseSource, recordPath } from '../support/zebin-cases.js';
import { compareZebin } from '../support/zebin-compare.js';
import { OCLOC, OCLOC_PROBE, entryText, payloadArguments, runOcloc } from '../support/zebin-oracle.js';

/** Deliberate differences: `test/deliberate/zebin-ocloc-<case>--<device>--<kernel>.md`. */
const DELIBERATE = deliberateCases('zebin-ocloc');

function corpusReady(c: ZebinCase): boolean {
  if (!c.source.startsWith('corpus:')) return true;
  if (existsSync(CORPUS_ROOT)) return true;
  if (process.env.CI === 'true') throw new Error('the corpus is missing: run scripts/fetch-corpus.sh (.ci/run does)');
  return false;
}

/**
 * The kernels of one case and device against a `.ze_info` text: the differences not reviewed, and the counts compared
 * and equal only with --private-memory.
 */
function check(
  c: ZebinCase,
  device: string,
  zeInfo: string,
  seen: Set<string>,
): { failures: string[]; kernels: number; privateMemory: number } {
  const { text, path, flags } = caseSource(c);
  const { includeDirs, commandLine } = frontendFlags(flags);
  const outcome = compareZebin(
    path ?? `${c.name}.cl`,
    text,
    { std: 'CL2.0', includeDirs, commandLine, fastRelaxedMath: flags.includes('-cl-fast-relaxed-math') },
    device,
    { zeInfo },
  );
  const failures: string[] = [];
  if (outcome.kernargRefused) failures.push(`${c.name} ${device}: kernarg refused: ${outcome.kernargRefused}`);
  for (const [kernel, why] of outcome.kernels) {
    const name = `${c.name}--${device}--${kernel}`;
    if (DELIBERATE.has(name)) {
      seen.add(name);
      if (why === undefined)
        failures.push(`${name}: listed as a deliberate difference but now matches ocloc (remove the file)`);
    } else if (why !== undefined) failures.push(`${name}: ${why}`);
  }
  return { failures, kernels: outcome.kernels.size, privateMemory: outcome.privateMemory.size };
}

test('zebin payloads equal the recorded ocloc .ze_info on every kernel of the cached set (hand-written, fixtures, generated, corpus)', (t) => {
  const seen = new Set<string>();
  const failures: string[] = [];
  let kernels = 0;
  let privateMemory = 0;
  for (const c of ZEBIN_CASES) {
    if (!corpusReady(c)) continue;
    for (const device of c.devices) {
      const r = check(c, device, readFileSync(recordPath(c.name, device), 'utf8'), seen);
      failures.push(...r.failures);
      kernels += r.kernels;
      privateMemory += r.privateMemory;
    }
  }
  // The private-memory class is one reviewed file: IGC keeps private arrays in memory where kernarg cannot see it.
  assert.ok(
    existsSync(new URL('../deliberate/zebin-private-memory.md', import.meta.url)),
    'the private-memory class needs its review file',
  );
  for (const d of DELIBERATE)
    if (!seen.has(d)) failures.push(`test/deliberate/zebin-ocloc-${d}.md names no kernel of the cached set`);
  t.diagnostic(
    `${kernels} kernels compared, ${kernels - seen.size} equal (${privateMemory} of them only with --private-memory), ${seen.size} reviewed deliberate differences`,
  );
  assert.deepEqual(failures, []);
  assert.ok(kernels >= 150, `only ${kernels} kernels`);
});

test('ocloc still writes the recorded .ze_info for a rotating sample of the cached set (the oracle stays live)', (t) => {
  if (!requireTool(t, OCLOC, OCLOC_PROBE)) return;
  const cases = ZEBIN_CASES.flatMap((c) => c.devices.map((device) => ({ c, device }))).filter(({ c }) =>
    corpusReady(c),
  );
  // Two a run, a different two each day: every record is re-checked within a few weeks.
  const day = Math.floor(Date.now() / 86_400_000);
  const picks = [cases[(day * 2) % cases.length], cases[(day * 2 + 1) % cases.length]];
  for (const { c, device } of picks) {
    const { text, path, flags } = caseSource(c);
    const live = runOcloc(text, device, 'CL2.0', flags, path);
    assert.ok('zeInfo' in live, `ocloc refused ${c.name} for ${device}: ${'refused' in live ? live.refused : ''}`);
    const recorded = payloadArguments(readFileSync(recordPath(c.name, device), 'utf8'));
    const now = payloadArguments(live.zeInfo);
    assert.deepEqual([...now.keys()], [...recorded.keys()], `${c.name} ${device}: kernels`);
    for (const [k, entries] of now)
      assert.deepEqual(
        entries.map(entryText),
        recorded.get(k)!.map(entryText),
        `${c.name} ${device} ${k}: ocloc's payload moved from the record (re-record with scripts/zebin-record.ts ` +
          `and review)`,
      );
    const r = check(c, device, live.zeInfo, new Set());
    assert.deepEqual(
      r.failures.filter((f) => !DELIBERATE.has(f.split(':')[0])),
      [],
      `${c.name} ${device}`,
    );
    t.diagnostic(`${c.name} (${device}): ${r.kernels} kernels re-compiled by ocloc`);
  }
});
