import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { clangFacts } from '../corpus/clang-facts.js';
import { CORPUS_TARGETS, type CorpusTarget, compareTarget } from '../corpus/compare.js';
import { CORPORA, CORPUS_ROOT, type CorpusFile } from '../corpus/corpora.js';
import { deliberateCases } from '../support/deliberate.js';
import { CLANG, LLC, requireTool } from '../support/tools.js';

/** Runs `work` over `items`, `width` at a time (clang runs in child processes: both cores busy). */
async function pool<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]);
      }
    }),
  );
  return out;
}

/** Deliberate differences are `test/deliberate/corpus-<corpus>--<file>--<kernel>--<target>.md`. */
const caseName = (corpus: string, file: string, kernel: string, target: CorpusTarget) =>
  `${corpus}--${file.replace(/\//g, '_')}--${kernel}--${target}`;

test('real-world corpus: every kernel clang-16 accepts matches on opencl, amdhsa 4/5 and llvm; vulkan and amd-cl2 plan it or name the restriction', async (t) => {
  const clang = requireTool(t, CLANG);
  const llc = requireTool(t, LLC);
  if (!clang || !llc) return;
  if (!existsSync(CORPUS_ROOT)) {
    if (process.env.CI === 'true') throw new Error('the corpus is missing: run scripts/fetch-corpus.sh (.ci/run does)');
    t.skip('no corpus: run scripts/fetch-corpus.sh');
    return;
  }
  const deliberate = deliberateCases('corpus');
  const seen = new Set<string>();
  const failures: string[] = [];
  const started = Date.now();
  for (const corpus of CORPORA) {
    const files = corpus.files();
    assert.ok(files.length >= 10, `${corpus.name}: only ${files.length} files (is ${corpus.pkg} unpacked?)`);
    const matched = new Map<CorpusTarget, number>(CORPUS_TARGETS.map((x) => [x, 0]));
    const restricted = new Map<CorpusTarget, number>(CORPUS_TARGETS.map((x) => [x, 0]));
    const totals = new Map<CorpusTarget, number>(CORPUS_TARGETS.map((x) => [x, 0]));
    const reasons = new Map<string, number>();
    let total = 0;
    const refused: string[] = [];
    await pool(files, 2, async (file: CorpusFile) => {
      const facts = await clangFacts(clang, llc, file.path, file.flags);
      if ('refused' in facts) {
        refused.push(`${file.name}: ${facts.refused}`);
        return;
      }
      total += facts.spir.size;
      for (const target of CORPUS_TARGETS) {
        const outcome = compareTarget(target, file.path, file.flags, facts);
        totals.set(target, totals.get(target)! + outcome.kernels.size);
        if (outcome.restricted) {
          const reason = `${target}: ${outcome.restricted.replace(/^.*?error: /, '').replace(/'[^']*'/g, "'…'")}`;
          reasons.set(reason, (reasons.get(reason) ?? 0) + outcome.kernels.size);
        }
        for (const [kernel, why] of outcome.kernels) {
          const name = caseName(corpus.name, file.name, kernel, target);
          if (deliberate.has(name)) {
            seen.add(name);
            if (why === undefined)
              failures.push(`${name}: listed as a deliberate difference but now matches clang (remove the file)`);
            continue;
          }
          if (why === undefined) {
            matched.set(target, matched.get(target)! + 1);
            if (outcome.restricted) restricted.set(target, restricted.get(target)! + 1);
          } else failures.push(`${corpus.name} ${file.name} ${kernel} ${target}: ${why}`);
        }
      }
    });
    t.diagnostic(
      `${corpus.name} (${corpus.pkg}): ${files.length} files, ${refused.length} refused by clang-16, ${total} kernels`,
    );
    for (const r of refused) t.diagnostic(`  skipped (clang refuses): ${r}`);
    for (const target of CORPUS_TARGETS) {
      const r = restricted.get(target)!;
      t.diagnostic(
        `  ${corpus.name} ${target}: matched ${matched.get(target)}/${totals.get(target)}${r ? ` (${r} of them a documented ${target} restriction, no plan)` : ''}`,
      );
    }
    for (const [reason, n] of reasons) t.diagnostic(`  restriction, ${n} kernels: ${reason}`);
  }
  t.diagnostic(`corpus test took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const d of deliberate)
    if (!seen.has(d)) failures.push(`${d}: deliberate-difference file names no kernel of the corpus`);
  assert.deepEqual(
    failures,
    [],
    `${failures.length} kernel/target pairs differ from clang-16:\n${failures.slice(0, 40).join('\n')}`,
  );
});
