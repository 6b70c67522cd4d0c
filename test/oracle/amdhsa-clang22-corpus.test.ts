import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { compareLlvm22 } from '../corpus/amdhsa-llvm22.js';
import { CORPORA, CORPUS_ROOT } from '../corpus/corpora.js';
import { CLANG22_AMDHSA, LLC22, requireTool } from '../support/tools.js';

/**
 * A sample of the real-world corpora (every 32nd file of each, from a different start each
 * corpus; `scripts/amdhsa-clang22-sweep.ts` compares every file) against clang-22 on amdhsa with
 * kernarg's defaults (`--llvm 22`, code object 6). hashcat is left to the sweep: each of its
 * files makes clang-22 write ~15 MB of IR (about 8 s) and costs kernarg seconds, for two kernels.
 */
const SAMPLED = CORPORA.filter((c) => c.name !== 'hashcat');
test('real-world corpus sample: amdhsa with its defaults equals clang-22 (code object 6) on every kernel clang-22 accepts', async (t) => {
  const clang = requireTool(t, CLANG22_AMDHSA);
  const llc = requireTool(t, LLC22);
  if (!clang || !llc) return;
  if (!existsSync(CORPUS_ROOT)) {
    if (process.env.CI === 'true') throw new Error('the corpus is missing: run scripts/fetch-corpus.sh (.ci/run does)');
    t.skip('no corpus: run scripts/fetch-corpus.sh');
    return;
  }
  const failures: string[] = [];
  assert.ok(SAMPLED.length >= 2);
  for (const [n, corpus] of SAMPLED.entries()) {
    const files = corpus.files().filter((_, i) => i % 32 === n % 32);
    assert.ok(files.length >= 1, `${corpus.name}: no files`);
    let kernels = 0;
    let refused = 0;
    for (const file of files) {
      const outcome = await compareLlvm22(clang, llc, file);
      if (outcome.refused) refused++;
      for (const [kernel, why] of outcome.kernels) {
        kernels++;
        if (why !== undefined) failures.push(`${corpus.name} ${file.name} ${kernel}: ${why}`);
      }
    }
    t.diagnostic(
      `${corpus.name}: ${files.length} files sampled, ${refused} refused by clang-22, ${kernels} kernels compared`,
    );
    assert.ok(kernels > 0, `${corpus.name}: the sample compared no kernel`);
  }
  assert.deepEqual(
    failures,
    [],
    `${failures.length} kernels differ from clang-22:\n${failures.slice(0, 20).join('\n')}`,
  );
});
