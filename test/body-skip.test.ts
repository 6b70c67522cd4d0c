import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { DATA_LAYOUTS } from '../src/layout/data-layout.js';
import { CORPORA, CORPUS_ROOT } from './corpus/corpora.js';
import { frontendFlags } from './corpus/frontend-flags.js';
import { FIXTURES, diskHost, openclFixtureInputs } from './support/fixtures.js';
import { bodySkipProgram } from './support/gen-bodies.js';
import { compileBothWays } from './support/skip-compare.js';

// Function bodies and inactive groups read at the character level must give exactly the module and
// diagnostics that reading them token by token gives (src/frontend/opencl-c/skip-preprocessor.ts).

test('body skipping: every fixture compiles to the same module and diagnostics both ways', () => {
  let skipped = 0;
  for (const f of openclFixtureInputs()) {
    const r = compileBothWays(f.path, f.text, diskHost(FIXTURES), f.options);
    assert.equal(r.skipped, r.tokens, f.name);
    skipped += r.skippedBodies;
  }
  assert.ok(skipped > 10, `only ${skipped} bodies were read at the character level`);
});

test('body skipping: every real-world corpus file compiles to the same module and diagnostics both ways', (t) => {
  if (!existsSync(CORPUS_ROOT)) {
    if (process.env.CI === 'true') throw new Error('the corpus is missing: run scripts/fetch-corpus.sh (.ci/run does)');
    t.skip('no corpus: run scripts/fetch-corpus.sh');
    return;
  }
  for (const corpus of CORPORA) {
    let skippedFiles = 0;
    const files = corpus.files();
    for (const file of files) {
      const r = compileBothWays(file.path, readFileSync(file.path, 'utf8'), diskHost('/'), {
        std: 'CL1.2',
        layout: DATA_LAYOUTS.spir64,
        ...frontendFlags(file.flags),
      });
      assert.equal(r.skipped, r.tokens, `${corpus.name}: ${file.name}`);
      if (r.skippedBodies > 0) skippedFiles++;
    }
    // Files that fail before any body (an #error for a missing build option) read none.
    assert.ok(
      skippedFiles >= files.length * 0.8,
      `${corpus.name}: bodies read at the character level in only ${skippedFiles} of ${files.length} files`,
    );
  }
});

test('body skipping: generated bodies with macros, comments, literals and directives inside compile the same both ways', () => {
  let skipped = 0;
  fc.assert(
    fc.property(bodySkipProgram, ({ main, files }) => {
      const host = { readFile: (p: string) => files[p] };
      const r = compileBothWays('main.cl', main, host, { std: 'CL2.0', layout: DATA_LAYOUTS.spir64 });
      assert.equal(r.skipped, r.tokens);
      skipped += r.skippedBodies;
    }),
    { numRuns: 1000, seed: Number(process.env.SEED ?? 19) },
  );
  assert.ok(skipped > 100, `only ${skipped} generated bodies were read at the character level`);
});
