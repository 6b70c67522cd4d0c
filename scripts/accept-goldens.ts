// Regenerates the golden files of test/fixtures on purpose: `npm run accept [-- case ...]`.
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, fixtureCases, renderFixture } from '../test/support/fixtures.js';
import { DIFF_FIXTURES, diffCases, renderDiffCase } from '../test/support/diff-fixtures.js';

const only = process.argv.slice(2);
const KEEP = new Set(['input.cl', 'input.ir', 'options.json']);
for (const name of fixtureCases()) {
  if (only.length && !only.includes(name)) continue;
  const dir = join(FIXTURES, name);
  const files = renderFixture(name);
  for (const f of readdirSync(dir))
    if (!KEEP.has(f) && !files.has(f) && !f.endsWith('.h') && !f.startsWith('include')) rmSync(join(dir, f));
  for (const [f, content] of files) writeFileSync(join(dir, f), content);
  console.log(`${name}: ${[...files.keys()].join(', ')}`);
}
for (const name of diffCases()) {
  if (only.length && !only.includes(name)) continue;
  const files = renderDiffCase(name);
  for (const [f, { actual }] of files) writeFileSync(join(DIFF_FIXTURES, name, f), actual);
  console.log(`diff ${name}: ${[...files.keys()].join(', ')}`);
}
