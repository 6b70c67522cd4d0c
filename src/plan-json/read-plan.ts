// A plan from its JSON form: the registry picks the target whose record reads the rest, so this
// room stands above the targets (the plan types and their field checks stay in abi/, below them).
import { PlanError } from '../abi/plan-schema.js';
import { planToJson } from '../emit/json.js';
import { type AbiPlan, TARGETS, targetNamed } from '../targets/index.js';
import { checkSlotKeys } from './slot-keys.js';
import { checkWrittenBack } from './written-back.js';

export { PlanError } from '../abi/plan-schema.js';
export { MAX_ARGUMENT_BYTES } from '../abi/plan-fields.js';

/**
 * A plan from its JSON form (`kernarg lower --format json`): every field checked, unknown ones
 * refused, layouts rebuilt in the form the packers read. What comes back packs the same bytes as
 * the plan `lower` made in process; anything else throws a PlanError naming the JSON path. The
 * `target` field picks the record that reads the rest (`Target.readPlan`). Only what the writer
 * writes is read: a slot key it does not write for that kind of slot (slot-keys.ts), or any value it
 * would write back otherwise (written-back.ts), is refused, so read → write → read is the identity.
 */
export function readPlan(json: unknown): AbiPlan {
  const target = (json as { target?: unknown } | null)?.target;
  const record = typeof target === 'string' ? targetNamed(target) : undefined;
  if (!record)
    throw new PlanError(
      'target',
      `expected one of ${TARGETS.map((t) => JSON.stringify(t)).join(', ')}, got ${JSON.stringify(target) ?? 'nothing'}`,
    );
  const plan = record.readPlan(json);
  // The target's schema has checked the shapes; these check what it allows that the writer would not write back.
  checkSlotKeys(record.name, (json as { kernels: readonly { args: readonly object[] }[] }).kernels);
  checkWrittenBack(json, planToJson(plan));
  return plan;
}
