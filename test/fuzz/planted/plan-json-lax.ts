// The plan-json fuzz target's checks over a reader with a bug planted on purpose, for test/fuzz-plan-json.test.ts:
// each target's own schema alone, as readPlan read plans before it refused keys the writer does not write for a kind
// of slot (src/plan-json/slot-keys.ts), so it keeps keys the writer drops (r600's `image` and `fields` on a slot with
// a param, amd-cl2's `layout` or `access` on a setup slot). The fuzzer must find such an input within seconds.
import { PlanError } from '../../../src/abi/plan-schema.js';
import { targetNamed } from '../../../src/targets/index.js';
import { planJsonFuzz } from '../plan-json/check-plan.js';

export const fuzz = planJsonFuzz((json) => {
  const target = (json as { target?: unknown } | null)?.target;
  const record = typeof target === 'string' ? targetNamed(target) : undefined;
  if (!record) throw new PlanError('target', `no target named ${JSON.stringify(target) ?? 'nothing'}`);
  return record.readPlan(json);
});
