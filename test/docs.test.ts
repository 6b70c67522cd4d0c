// The documentation made from the code is up to date (`npm run docs` remakes it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Messages } from '../src/diagnostics/messages.js';
import { diagnosticsDoc, readText, readmeWithOptionTable } from '../scripts/generated-docs.js';

test("the README's target option table is the one the target records make", () => {
  const readme = readText('README.md');
  assert.equal(readme, readmeWithOptionTable(readme), 'README.md is stale: run npm run docs');
});

test('docs/diagnostics.md lists every diagnostic code', () => {
  assert.equal(readText('docs/diagnostics.md'), diagnosticsDoc(), 'docs/diagnostics.md is stale: run npm run docs');
});

test('one code per message', () => {
  const byCode = new Map<string, string>();
  for (const [name, m] of Object.entries(Messages)) {
    assert.ok(!byCode.has(m.code), `${m.code} is both ${byCode.get(m.code)} and ${name}`);
    byCode.set(m.code, name);
  }
});
