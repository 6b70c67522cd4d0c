import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { CORPORA, CORPUS_ROOT } from '../corpus/corpora.js';
import { compareCudaFile } from '../corpus/cuda-compare.js';
import { CLANG, LLC, requireTool } from '../support/tools.js';

/**
 * A sample of the real-world corpora under --target cuda against clang-16's NVPTX backend: every
 * fifth darktable and silx file (hashcat's files take seconds each for clang; the full sweep,
 * every file of every corpus against clang-16 and clang-22, is scripts/cuda-corpus-sweep.ts).
 */
test("real-world corpus sample: every kernel clang-16 compiles for nvptx64-nvidia-nvcl has kernarg's .entry block", async (t) => {
  const clang = requireTool(t, CLANG);
  const llc = requireTool(t, LLC);
  if (!clang || !llc) return;
  if (!existsSync(CORPUS_ROOT)) {
    if (process.env.CI === 'true') throw new Error('the corpus is missing: run scripts/fetch-corpus.sh (.ci/run does)');
    t.skip('no corpus: run scripts/fetch-corpus.sh');
    return;
  }
  const failures: string[] = [];
  let kernels = 0;
  for (const corpus of CORPORA.filter((c) => c.name !== 'hashcat')) {
    const every = corpus.name === 'darktable' ? 9 : 5;
    const files = corpus.files().filter((_, i) => i % every === 0);
    assert.ok(files.length >= 4, `${corpus.name}: only ${files.length} files sampled`);
    for (const f of files) {
      const o = await compareCudaFile(clang, llc, f.path, f.flags);
      for (const [k, why] of o.kernels) {
        kernels++;
        if (why !== undefined) failures.push(`${corpus.name} ${f.name} ${k}: ${why}`);
      }
    }
  }
  t.diagnostic(`${kernels} kernels compared`);
  assert.deepEqual(failures, []);
  assert.ok(kernels >= 20, `only ${kernels} kernels compared`);
});
