import { assertNever } from '../assert-never.js';
import { type Func, type Inst, type Operand, type Region, instructions } from '../frontend/tinytc/ast.js';

/** One memory access: which memory (`global`, or one alloca's local array), whether it writes, whether work-items split it. */
interface Access {
  readonly memory: string;
  readonly write: boolean;
  readonly spread: boolean;
}

/** Which memories a barrier orders: global (buffers), local (work-group arrays), or both. */
export type Fence = 'global' | 'local' | 'both';

/**
 * Where barriers go: before an instruction whose accesses conflict with an access since the last
 * barrier — same memory, one of them a write, one of them spread over the work-items (a
 * collective instruction or a foreach body). Replicated loads in mixed regions are done by
 * every work-item alike; a store there is done by one work-item for all (see KernelBodyEmitter). Loop bodies are walked with what the
 * previous iteration leaves pending.
 */
export function placeBarriers(f: Func): Map<Inst, Fence> {
  // Which memory each memref value lives in: a view shares its operand's (SSA: defined before use).
  const memory = new Map<string, string>();
  for (const p of f.params) if (p.type.kind !== 'scalar') memory.set(p.name, 'global');
  const mem = (o: Operand) => (o.kind === 'value' ? memory.get(o.name) : undefined);
  for (const inst of instructions(f.body)) {
    const r = inst.results[0]?.name;
    if (!r) continue;
    if (inst.op === 'alloca') memory.set(r, `local:${r}`);
    else if (inst.op === 'load' && inst.type.type.kind === 'group') memory.set(r, 'global');
    else if (inst.op === 'subview' || inst.op === 'expand' || inst.op === 'fuse') {
      const m = mem(inst.operand);
      if (m) memory.set(r, m);
    }
  }
  const marks = new Map<Inst, Fence>();

  const accesses = (inst: Inst, spread: boolean): Access[] => {
    switch (inst.op) {
      case 'load': {
        const m = mem(inst.operand);
        return m && inst.type.type.kind === 'memref' ? [{ memory: m, write: false, spread }] : [];
      }
      case 'store': {
        // Outside foreach one work-item stores for all, so other work-items see it only after a barrier.
        const m = mem(inst.operand);
        return m ? [{ memory: m, write: true, spread: true }] : [];
      }
      case 'blas': {
        const out: Access[] = [];
        const n = inst.operands.length;
        inst.operands.forEach((o, i) => {
          const m = mem(o);
          if (!m) return;
          out.push({ memory: m, write: false, spread: true });
          if (i === n - 1) out.push({ memory: m, write: true, spread: true });
        });
        return out;
      }
      case 'if':
        return [...inst.then.body, ...(inst.else?.body ?? [])].flatMap((x) => accesses(x, spread));
      case 'for':
        return inst.body.body.flatMap((x) => accesses(x, spread));
      case 'foreach':
      case 'parallel':
        return inst.body.body.flatMap((x) => accesses(x, true));
      case 'atomic_load': {
        const m = mem(inst.operand);
        return m ? [{ memory: m, write: false, spread }] : [];
      }
      case 'atomic_update': {
        const m = mem(inst.operand);
        return m ? [{ memory: m, write: true, spread: true }] : [];
      }
      // Instructions that touch no memory: values, views (a view is no access) and work-group queries.
      case 'alloca':
      case 'arith':
      case 'cast':
      case 'cmp':
      case 'expand':
      case 'fuse':
      case 'size':
      case 'subview':
      case 'group_id':
      case 'group_size':
      case 'yield':
      case 'associated':
      case 'subgroup_builtin':
      case 'subgroup_broadcast':
      case 'subgroup_operation':
      case 'barrier':
      case 'coopmatrix_construct':
      case 'coopmatrix_extract':
      case 'coopmatrix_insert':
        return [];
      default:
        return assertNever(inst);
    }
  };

  const conflicts = (pending: readonly Access[], acc: readonly Access[]) =>
    acc.some((a) => pending.some((p) => p.memory === a.memory && (p.write || a.write) && (p.spread || a.spread)));

  const fence = (pending: readonly Access[]): Fence => {
    const g = pending.some((p) => p.memory === 'global');
    const l = pending.some((p) => p.memory !== 'global');
    return g && l ? 'both' : g ? 'global' : 'local';
  };

  const merge = (a: readonly Access[], b: readonly Access[]): Access[] => {
    const out = new Map<string, Access>();
    for (const x of [...a, ...b]) out.set(`${x.memory}|${x.write}|${x.spread}`, x);
    return [...out.values()];
  };

  const walk = (r: Region, pendingIn: readonly Access[]): Access[] => {
    let pending = [...pendingIn];
    for (const inst of r.body) {
      if (inst.op === 'if') {
        pending = merge(walk(inst.then, pending), inst.else ? walk(inst.else, pending) : pending);
        continue;
      }
      if (inst.op === 'for') {
        const first = walk(inst.body, pending);
        pending = merge(pending, walk(inst.body, merge(pending, first)));
        continue;
      }
      if (inst.op === 'barrier') {
        // An explicit barrier orders the memories it names: what is pending there needs no other.
        pending = pending.filter((p) => !(p.memory === 'global' ? inst.global : inst.local));
        continue;
      }
      const acc = accesses(inst, false);
      if (acc.length && conflicts(pending, acc)) {
        marks.set(inst, fence(pending));
        pending = [];
      }
      pending = merge(pending, acc);
    }
    return pending;
  };
  walk(f.body, []);
  return marks;
}
