// The plan-json fuzz target's checks, over any plan reader (the real one, or a planted one in test/fuzz/planted/):
// any JSON is a plan or a PlanError; a plan the reader accepts is exactly what the writer writes back from it (no key
// the writer drops, no value it would write otherwise), its JSON reads back and prints the same bytes again, both
// plans pack the same bytes with nothing but a PackError, and no field of it ever runs as code.
import type { ValueLayout } from '../../../src/abi/plan.js';
import type { AbiPlan } from '../../../src/targets/index.js';
import { PlanError } from '../../../src/plan-json/read-plan.js';
import { emitJson, planToJson } from '../../../src/emit/json.js';
import { PackError, RuntimeInputError } from '../../../src/pack/errors.js';
import { packed } from '../../support/pack-values.js';
import { PWNED, mutatedPlan } from './plan-mutator.js';

export type PlanReader = (json: unknown) => AbiPlan;

function zeroFor(l: ValueLayout): unknown {
  switch (l.kind) {
    case 'scalar':
      return l.size === 8 && !['double'].includes(l.scalar) ? 0n : 0;
    case 'vector':
      return Array.from({ length: l.length }, () => (['long', 'ulong'].includes(l.element) ? 0n : 0));
    case 'array':
      return Array.from({ length: l.length }, () => zeroFor(l.element));
    case 'record': {
      const named = l.fields.filter((f) => f.name !== null);
      return Object.fromEntries(
        (l.tagKind === 'union' ? named.slice(0, 1) : named).map((f) => [f.name, zeroFor(f.layout)]),
      );
    }
  }
}

/** Zero arguments for every explicit slot (addresses, handles and local sizes where there is no layout). */
function zeroArgs(plan: AbiPlan, kernel: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const a of plan.kernels.find((k) => k.name === kernel)!.args as unknown as readonly Record<string, unknown>[]) {
    if (a.param === null || a.role === 'image-size' || a.role === 'image-format') continue;
    const l = a.layout as ValueLayout | undefined;
    const name = a.name as string;
    if (a.role === 'image' && plan.target === 'r600')
      args[name] = { width: 1, channelOrder: 0x10b5, channelType: 0x10de };
    else if (l && !(plan.target === 'amd-cl2' && a.argType === 'structure')) args[name] = zeroFor(l);
    else if (a.role === 'local' || a.argKind === 'local')
      args[name] = { local: 4 * ((a.arrayElemSize as number | undefined) ?? 1) };
    else args[name] = plan.target === 'opencl' || plan.target === 'vulkan' ? { handle: 1 } : 0n;
  }
  return args;
}

const expected = (e: unknown) => e instanceof PackError || e instanceof RuntimeInputError;

/**
 * The first place where two JSON values differ as JSON texts would (keys in any order, numbers by their text), as a
 * path and both values; none: the same. Written here rather than taken from src/plan-json, whose reader it checks.
 */
function firstDifference(read: unknown, written: unknown, path = ''): string | undefined {
  const text = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 60));
  const differ = () => `${path || '(root)'}: read ${text(read)}, written back ${text(written)}`;
  if (typeof read !== 'object' || read === null || typeof written !== 'object' || written === null)
    return JSON.stringify(read) === JSON.stringify(written) ? undefined : differ();
  if (Array.isArray(read) !== Array.isArray(written)) return differ();
  if (Array.isArray(read)) {
    const w = written as unknown[];
    if (read.length !== w.length) return differ();
    for (let i = 0; i < read.length; i++) {
      const d = firstDifference(read[i], w[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  const r = read as Record<string, unknown>;
  const w = written as Record<string, unknown>;
  const keys = new Set([...Object.keys(r), ...Object.keys(w)].filter((k) => r[k] !== undefined || w[k] !== undefined));
  for (const k of keys) {
    const d = firstDifference(
      Object.hasOwn(r, k) ? r[k] : undefined,
      Object.hasOwn(w, k) ? w[k] : undefined,
      path ? `${path}.${k}` : k,
    );
    if (d) return d;
  }
  return undefined;
}

/** The fuzz function of a target that checks `read`. */
export function planJsonFuzz(read: PlanReader): (data: Uint8Array) => void {
  return (data) => {
    if (data.length === 0) return;
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(data));
    } catch {
      json = mutatedPlan(data);
    }
    // What was read, as it stood (a reader must not change its input, but a buggy one might).
    const text = JSON.stringify(json);
    let plan: AbiPlan;
    try {
      plan = read(json);
    } catch (e) {
      if (e instanceof PlanError) return;
      throw e;
    }
    const back = firstDifference(JSON.parse(text), JSON.parse(JSON.stringify(planToJson(plan))));
    if (back) throw new Error(`the reader accepted JSON that the writer does not write back from its plan: ${back}`);
    const written = emitJson(plan);
    let again: AbiPlan;
    try {
      again = read(JSON.parse(written));
    } catch (e) {
      throw new Error(`the writer's JSON of an accepted plan is refused: ${String(e)}`, { cause: e });
    }
    if (emitJson(again) !== written) throw new Error('plan → JSON → plan → JSON is not the same text');
    for (const k of plan.kernels) {
      const args = zeroArgs(plan, k.name);
      for (const interpreted of [false, true]) {
        let first: string | undefined;
        try {
          first = packed(plan, k.name, args, interpreted);
        } catch (e) {
          if (!expected(e)) throw e;
        }
        let second: string | undefined;
        try {
          second = packed(again, k.name, args, interpreted);
        } catch (e) {
          if (!expected(e)) throw e;
        }
        if (first !== second) throw new Error(`plan → JSON → plan packs different bytes for '${k.name}'`);
      }
    }
    if (PWNED()) throw new Error('a plan field ran as code');
  };
}
