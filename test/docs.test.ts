// The documentation made from the code is up to date (`npm run docs` remakes it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Messages } from '../src/diagnostics/messages.js';
import { TARGET_RECORDS } from '../src/targets/index.js';
import {
  DIAGNOSTICS_DOC,
  OPTIONS_DOC,
  diagnosticsDoc,
  readText,
  optionsDocWithTable,
} from '../scripts/generated-docs.js';

test("docs/options.md's target option table is the one the target records make", () => {
  const doc = readText(OPTIONS_DOC);
  assert.equal(doc, optionsDocWithTable(doc), `${OPTIONS_DOC} is stale: run npm run docs`);
});

test('docs/diagnostics.md lists every diagnostic code', () => {
  assert.equal(readText(DIAGNOSTICS_DOC), diagnosticsDoc(), `${DIAGNOSTICS_DOC} is stale: run npm run docs`);
});

test('one code per message', () => {
  const byCode = new Map<string, string>();
  for (const [name, m] of Object.entries(Messages)) {
    assert.ok(!byCode.has(m.code), `${m.code} is both ${byCode.get(m.code)} and ${name}`);
    byCode.set(m.code, name);
  }
});

test("the README's target table has one row per registered target, in the registry's order", () => {
  const rows = [...readText('README.md').matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual(
    rows,
    TARGET_RECORDS.map((t) => t.name),
  );
});
