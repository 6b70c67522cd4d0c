// The fuzz driver itself, on a target with bugs planted on purpose (test/fuzz/planted/bugs.ts): a
// crash, a slow input and a hang are each found from the dictionary's words and recorded with the
// input that caused them, on the compiled workers the campaign uses. A driver that stopped reading
// findings, lost the heartbeat or ran no inputs fails here.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runFuzz } from './fuzz/driver.js';

test('the driver finds and records a planted crash, slow input and hang', async () => {
  const findingsDir = join(import.meta.dirname, '.tmp', 'fuzz-findings-planted');
  rmSync(findingsDir, { recursive: true, force: true });
  const [s] = await runFuzz({
    targets: ['bugs'],
    targetsDir: join(import.meta.dirname, 'fuzz', 'planted'),
    seconds: 5,
    seed: 3,
    findingsDir,
    slowMs: 100,
    hangMs: 1000,
  });
  assert.ok(s.runs > 20, `ran ${s.runs} inputs`);
  const word = { crash: 'BUG!', slow: 'SLOW', hang: 'HANG' } as const;
  for (const what of ['crash', 'slow', 'hang'] as const) {
    const f = s.findings.find((x) => x.what === what);
    assert.ok(f, `a ${what} among ${s.findings.map((x) => x.what).join(', ')}`);
    assert.ok(readFileSync(f.file).includes(word[what]), `the ${what}'s input holds ${word[what]}`);
    assert.ok(readFileSync(`${f.file}.txt`, 'utf8').length > 0);
  }
  // The workers run compiled JavaScript; a crash's stack still names the TypeScript line.
  assert.match(s.findings.find((x) => x.what === 'crash')!.message, /planted crash\n\s+at .*planted[/\\]bugs\.ts:\d+/);
});
