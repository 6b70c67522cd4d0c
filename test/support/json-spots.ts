// Every (object, key) place of a parsed JSON tree, depth first: where the plan-reading tests and
// the plan-json fuzz target put their damage.
export type JsonSpot = [Record<string, unknown>, string];

export function jsonSpots(root: unknown): JsonSpot[] {
  const spots: JsonSpot[] = [];
  const walk = (o: unknown) => {
    if (typeof o !== 'object' || o === null) return;
    for (const k of Object.keys(o)) {
      spots.push([o as Record<string, unknown>, k]);
      walk((o as Record<string, unknown>)[k]);
    }
  };
  walk(root);
  return spots;
}
