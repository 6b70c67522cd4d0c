// The plan-json fuzz target finds a reader that keeps a key the JSON writer drops (issue 32, the review of 8c4ab5a:
// the mutator never added keys, so such a reader was found only where a changed value made a slot of the other kind).
// The planted reader (test/fuzz/planted/plan-json-lax.ts) is each target's schema alone, as readPlan was before it
// refused keys the writer does not write for a kind of slot; the finding's input is one the real reader refuses.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runFuzz } from './fuzz/driver.js';
import { mutatedPlan } from './fuzz/plan-json/plan-mutator.js';
import { fuzz as realTarget } from './fuzz/targets/plan-json.js';
import { PlanError, readPlan } from '../src/plan-json/read-plan.js';

test('the plan-json fuzz target finds a planted reader that keeps keys the writer drops, within seconds', async () => {
  const findingsDir = join(import.meta.dirname, '.tmp', 'fuzz-findings-plan-json-lax');
  rmSync(findingsDir, { recursive: true, force: true });
  // Inputs, not seconds, bound the run, so a loaded machine only makes it slower (at load 11 on 2 cores, 1-12 s to the
  // first finding over 8 seeds, 75 to 2,000 inputs/s).
  const [s] = await runFuzz({
    targets: ['plan-json-lax'],
    targetsDir: join(import.meta.dirname, 'fuzz', 'planted'),
    seconds: 60,
    runs: 600,
    seed: 4,
    findingsDir,
    slowMs: 30_000,
    hangMs: 90_000,
  });
  const found = s.findings.filter((f) => /the writer does not write back/.test(f.message));
  assert.ok(found.length > 0, `a finding in ${s.runs} inputs: ${s.findings.map((f) => f.message.split('\n')[0])}`);
  assert.deepEqual(
    s.findings.filter((f) => !found.includes(f)).map((f) => f.message.split('\n')[0]),
    [],
    'no other finding',
  );
  for (const f of found) {
    // The real reader refuses the same plan, at the key the planted one kept.
    const data = readFileSync(f.file);
    const key = /: (kernels\[\d+\]\.args\[\d+\]\.[A-Za-z_$]+): read/.exec(f.message)?.[1];
    assert.ok(key, f.message);
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch {
      json = mutatedPlan(data);
    }
    assert.throws(
      () => readPlan(json),
      (e: unknown) => e instanceof PlanError && e.path.startsWith(key),
    );
    assert.doesNotThrow(() => realTarget(data));
  }
});
