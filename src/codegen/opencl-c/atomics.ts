import { type ScalarTypeName, isFloatType } from '../../frontend/tinytc/ast.js';
import { C_TYPE, isWide } from './c-scalars.js';
import type { Names } from './names.js';
import type { AtomicMode } from '../atomic-mode.js';

/**
 * The atomic helpers a module needs, one per (type, address space, mode), defined before the kernels.
 * 32-bit types use OpenCL 1.1's atomic_*; 64-bit ones cl_khr_int64_base_atomics' atom_*. Floating
 * adds and updates are compare-and-swap loops on the bits.
 */
export class AtomicHelpers {
  private readonly defs = new Map<string, { name: string; text: string }>();
  needsInt64 = false;

  constructor(private readonly names: Names) {}

  /** The helper's name: `name(volatile space T* p, T v[, T beta])`. */
  use(t: ScalarTypeName, space: 'global' | 'local', mode: AtomicMode, kernelNames: Names): string {
    const key = `${t}|${space}|${mode}`;
    const have = this.defs.get(key);
    if (have) return have.name;
    const name = this.names.internal(`atomic_${mode}_${t}_${space}`, kernelNames);
    this.defs.set(key, { name, text: this.define(name, t, space, mode) });
    return name;
  }

  get texts(): string[] {
    return [...this.defs.values()].map((d) => d.text);
  }

  private define(name: string, t: ScalarTypeName, space: 'global' | 'local', mode: AtomicMode): string {
    const ct = C_TYPE[t];
    const wide = isWide(t) || t === 'f64';
    if (wide) this.needsInt64 = true;
    const bits = wide ? 'long' : t === 'f32' ? 'uint' : 'int';
    const pre = wide ? 'atom' : 'atomic';
    const p = `volatile ${space} ${ct}* p`;
    const params = mode === 'update' ? `${p}, ${ct} v, ${ct} beta` : `${p}, ${ct} v`;
    const isFloat = isFloatType(t);
    const toBits = (x: string) => (isFloat ? `as_${bits}(${x})` : x);
    const fromBits = (x: string) => (isFloat ? `as_${ct}(${x})` : x);
    const ip = `(volatile ${space} ${bits}*)p`;
    let body: string;
    if (mode === 'store') body = `  ${pre}_xchg(${ip}, ${toBits('v')});`;
    else if (mode === 'add' && !isFloat) body = `  ${pre}_add(p, v);`;
    else {
      const next = mode === 'add' ? `${fromBits('old')} + v` : `v + beta * ${fromBits('old')}`;
      body = [
        `  ${bits} old = *${ip};`,
        '  for (;;) {',
        `    ${bits} seen = ${pre}_cmpxchg(${ip}, old, ${toBits(`(${ct})(${next})`)});`,
        '    if (seen == old) break;',
        '    old = seen;',
        '  }',
      ].join('\n');
    }
    return `static void ${name}(${params}) {\n${body}\n}\n`;
  }
}
