// Read → write → read is the identity on every plan the reader accepts: the JSON it read must be what the writer
// writes back from the plan it made. A value the writer could not have written (an optional key given as null and
// dropped, a bit offset left out and taken as 0) is refused here, at its JSON path, as is any key it would drop.
import { PlanError } from '../abi/plan-schema.js';

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (v !== null && typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
};

const at = (path: string, k: string | number) => (typeof k === 'number' ? `${path}[${k}]` : path ? `${path}.${k}` : k);

/** A member the writer leaves out: an undefined one (JSON.stringify drops it). */
const has = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k) && o[k] !== undefined;

/**
 * Throws a PlanError at the first place where `json` (what was read) and `written` (the writer's plain form of the
 * plan read from it, `planToJson`) differ: keys in either order, numbers by value.
 */
export function checkWrittenBack(json: unknown, written: unknown, path = ''): void {
  if (written === null || typeof written !== 'object') {
    if (json !== written)
      throw new PlanError(path, `${show(json)} is not what the JSON form writes here (it writes ${show(written)})`);
    return;
  }
  if (Array.isArray(written)) {
    if (!Array.isArray(json) || json.length !== written.length)
      throw new PlanError(path, `${show(json)} is not what the JSON form writes here (it writes ${show(written)})`);
    for (let i = 0; i < written.length; i++) checkWrittenBack(json[i], written[i], at(path, i));
    return;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new PlanError(path, `${show(json)} is not what the JSON form writes here (it writes an object)`);
  const j = json as Record<string, unknown>;
  const w = written as Record<string, unknown>;
  for (const k of Object.keys(j))
    if (!has(w, k)) throw new PlanError(at(path, k), `the JSON form of this plan writes no '${k}' here`);
  for (const k of Object.keys(w))
    if (has(w, k) && !Object.hasOwn(j, k))
      throw new PlanError(at(path, k), `missing: the JSON form of this plan writes ${show(w[k])} here`);
  for (const k of Object.keys(w)) if (has(w, k)) checkWrittenBack(j[k], w[k], at(path, k));
}
