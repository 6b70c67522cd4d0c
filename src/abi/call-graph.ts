import type { FunctionInfo, KernelModule } from '../model/kernel-module.js';

/**
 * For each callee name asked about, the names of the module's functions that reach it, directly or
 * through functions defined in the module. Built once per (module, callee) by one walk backwards
 * over the call edges, so asking about every kernel of a module costs O(functions + calls), not
 * O(kernels × (functions + calls)).
 */
interface CallIndex {
  /** callee name → names of the module functions that call it directly. */
  readonly callers: Map<string, string[]>;
  readonly reaching: Map<string, Set<string>>;
}

const indexes = new WeakMap<KernelModule, CallIndex>();

function indexOf(module: KernelModule): CallIndex {
  let index = indexes.get(module);
  if (!index) {
    const callers = new Map<string, string[]>();
    // A name defined twice (a prototype and its definition) contributes the calls of each.
    for (const f of module.functions) {
      for (const c of f.calls) {
        let list = callers.get(c.name);
        if (!list) callers.set(c.name, (list = []));
        list.push(f.name);
      }
    }
    index = { callers, reaching: new Map() };
    indexes.set(module, index);
  }
  return index;
}

function reachingSet(index: CallIndex, name: string): Set<string> {
  let set = index.reaching.get(name);
  if (set) return set;
  set = new Set();
  const stack = [...(index.callers.get(name) ?? [])];
  while (stack.length) {
    const f = stack.pop()!;
    if (set.has(f)) continue;
    set.add(f);
    const up = index.callers.get(f);
    if (up) for (const u of up) if (!set.has(u)) stack.push(u);
  }
  index.reaching.set(name, set);
  return set;
}

/** Whether `from` calls `name`, directly or through functions defined in the module. */
export function callsTransitively(module: KernelModule, from: FunctionInfo, name: string): boolean {
  return reachingSet(indexOf(module), name).has(from.name);
}

/**
 * Whether some kernel of the module calls `name`, directly or through functions defined in the module (one look at the
 * callers, not one per kernel).
 */
export function someKernelCalls(module: KernelModule, name: string): boolean {
  const reaching = reachingSet(indexOf(module), name);
  if (reaching.size === 0) return false;
  for (const f of module.functions) if (f.isKernel && reaching.has(f.name)) return true;
  return false;
}
