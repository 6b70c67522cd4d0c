// Read → write → read is the identity on every plan the reader accepts: the JSON it read must be what the writer
// writes back from the plan it made. A value the writer could not have written (a bit field's offset left out and
// taken as 0) is refused here, at its JSON path, as is any key it would drop.
import { PlanError } from '../abi/plan-schema.js';

const show = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (v !== null && typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
};

/** A JSON path (`kernels[0].args[2].dim`) from the keys walked down to a place: made only for a refusal. */
const pathOf = (keys: readonly (string | number)[]): string =>
  keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${k}` : k)).join('');

/** A member the writer leaves out: an undefined one (JSON.stringify drops it). */
const has = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k) && o[k] !== undefined;

/**
 * Throws a PlanError at the first place where `json` (what was read) and `written` (the writer's plain form of the
 * plan read from it, `planToJson`) differ: keys in either order, numbers by value.
 */
export function checkWrittenBack(json: unknown, written: unknown): void {
  walk(json, written, []);
}

/** A PlanError at the place `keys` lead to (and its member `key`). */
function refusal(keys: readonly (string | number)[], problem: string, key?: string): PlanError {
  return new PlanError(pathOf(key === undefined ? keys : [...keys, key]), problem);
}

const otherwise = (json: unknown, what: string) =>
  `${show(json)} is not what the JSON form writes here (it writes ${what})`;

/** The walk of checkWrittenBack, `keys` the way down to where it is (a stack: a path is made only to refuse). */
function walk(json: unknown, written: unknown, keys: (string | number)[]): void {
  if (written === null || typeof written !== 'object') {
    if (json !== written) throw refusal(keys, otherwise(json, show(written)));
    return;
  }
  if (Array.isArray(written)) {
    if (!Array.isArray(json) || json.length !== written.length) throw refusal(keys, otherwise(json, show(written)));
    for (let i = 0; i < written.length; i++) {
      keys.push(i);
      walk(json[i], written[i], keys);
      keys.pop();
    }
    return;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw refusal(keys, otherwise(json, 'an object'));
  const j = json as Record<string, unknown>;
  const w = written as Record<string, unknown>;
  const read = Object.keys(j);
  for (let i = 0; i < read.length; i++)
    if (!has(w, read[i])) throw refusal(keys, `the JSON form of this plan writes no '${read[i]}' here`, read[i]);
  const out = Object.keys(w);
  for (let i = 0; i < out.length; i++) {
    const k = out[i];
    const v = w[k];
    if (v === undefined) continue;
    if (!Object.hasOwn(j, k)) throw refusal(keys, `missing: the JSON form of this plan writes ${show(v)} here`, k);
    keys.push(k);
    walk(j[k], v, keys);
    keys.pop();
  }
}
