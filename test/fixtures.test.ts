import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURES, fixtureCases, renderFixture } from './support/fixtures.js';

const INPUTS = new Set(['input.cl', 'input.ir', 'options.json']);

for (const name of fixtureCases()) {
  test(`fixture ${name}`, () => {
    const dir = join(FIXTURES, name);
    const files = renderFixture(name);
    for (const [f, actual] of files) {
      const path = join(dir, f);
      assert.ok(existsSync(path), `${name}/${f} has no golden: run 'npm run accept -- ${name}' and review the diff`);
      assert.equal(
        actual,
        readFileSync(path, 'utf8'),
        `${name}/${f} differs from its golden (accept with 'npm run accept -- ${name}' if intended)`,
      );
    }
    for (const f of readdirSync(dir)) {
      if (INPUTS.has(f) || f.endsWith('.h') || f.startsWith('include') || f === 'input.ir') continue;
      assert.ok(files.has(f), `${name}/${f} is a stale golden: nothing produces it any more`);
    }
  });
}
