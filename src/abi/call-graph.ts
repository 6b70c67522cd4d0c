import type { FunctionInfo, KernelModule } from '../model/kernel-module.js';

/** Whether `from` calls `name`, directly or through functions defined in the module. */
export function callsTransitively(module: KernelModule, from: FunctionInfo, name: string): boolean {
  const byName = new Map(module.functions.map((f) => [f.name, f]));
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f.name)) continue;
    seen.add(f.name);
    for (const c of f.calls) {
      if (c.name === name) return true;
      const callee = byName.get(c.name);
      if (callee) stack.push(callee);
    }
  }
  return false;
}
