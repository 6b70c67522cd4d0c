// A plan's kernels as lines of the fields one format carries, so a plan emitted in that format and
// read back compares with the plan it was emitted from: equal lines, or the first that differ.
import { planToJson } from '../../../src/emit/json.js';
import type { AbiPlan } from '../../../src/targets/index.js';

/** Each kernel's name and slots, keeping only `fields` of each slot (and `kernelFields` of the kernel). */
export function planLines(
  plan: AbiPlan,
  fields: readonly string[],
  kernelFields: readonly string[],
  keepSlot: (s: Record<string, unknown>) => boolean = () => true,
): string[] {
  const json = planToJson(plan) as { kernels: (Record<string, unknown> & { args: Record<string, unknown>[] })[] };
  const out: string[] = [];
  for (const k of json.kernels) {
    out.push(`kernel ${String(k.name)} ${kernelFields.map((f) => `${f}=${JSON.stringify(k[f])}`).join(' ')}`);
    for (const s of k.args.filter(keepSlot))
      out.push(`  ${fields.map((f) => `${f}=${JSON.stringify(s[f])}`).join(' ')}`);
  }
  return out;
}

/** The first line where two plans' lines differ, with its neighbours; undefined when equal. */
export function firstDifference(emitted: readonly string[], read: readonly string[]): string | undefined {
  for (let i = 0; i < Math.max(emitted.length, read.length); i++) {
    if (emitted[i] !== read[i])
      return `line ${i}: emitted ${emitted[i] ?? '(none)'}\n        read ${read[i] ?? '(none)'}`;
  }
  return undefined;
}
