// A plan from its JSON form: the registry picks the target whose record reads the rest, so this
// room stands above the targets (the plan types and their field checks stay in abi/, below them).
import { PlanError } from '../abi/plan-schema.js';
import { type AbiPlan, TARGETS, targetNamed } from '../targets/index.js';

export { PlanError } from '../abi/plan-schema.js';
export { MAX_ARGUMENT_BYTES } from '../abi/plan-fields.js';

/**
 * A plan from its JSON form (`kernarg lower --format json`): every field checked, unknown ones
 * refused, layouts rebuilt in the form the packers read. What comes back packs the same bytes as
 * the plan `lower` made in process; anything else throws a PlanError naming the JSON path. The
 * `target` field picks the record that reads the rest (`Target.readPlan`).
 */
export function readPlan(json: unknown): AbiPlan {
  const target = (json as { target?: unknown } | null)?.target;
  const record = typeof target === 'string' ? targetNamed(target) : undefined;
  if (!record)
    throw new PlanError(
      'target',
      `expected one of ${TARGETS.map((t) => JSON.stringify(t)).join(', ')}, got ${JSON.stringify(target) ?? 'nothing'}`,
    );
  return record.readPlan(json);
}
