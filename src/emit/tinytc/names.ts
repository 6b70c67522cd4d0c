import { BUILTIN_PREFIX, C_RESERVED, isReservedCName } from '../../frontend/tinytc/reserved-names.js';

/** Unique C identifiers: keywords, builtins and every name handed out stay taken. */
export class Names {
  private readonly used: Set<string>;

  constructor(taken: Iterable<string> = [], parent?: Names) {
    this.used = new Set(parent ? parent.used : C_RESERVED);
    for (const t of taken) this.used.add(t);
  }

  /** A per-kernel allocator that starts from this one's names. */
  child(taken: Iterable<string> = []): Names {
    return new Names(taken, this);
  }

  has(name: string): boolean {
    return this.used.has(name) || isReservedCName(name);
  }

  /** `base`, or `base_1`, `base_2`, … — the first one free. Names in builtin families get an `x` prefix first. */
  fresh(base: string, ...also: Names[]): string {
    const b = BUILTIN_PREFIX.test(base) || base.startsWith('kernarg_') ? `x${base}` : base;
    const taken = (n: string) => this.has(n) || also.some((a) => a.has(n));
    let n = b;
    for (let k = 1; taken(n); k++) n = `${b}_${k}`;
    this.used.add(n);
    for (const a of also) a.used.add(n);
    return n;
  }

  /** Reserves a name chosen elsewhere (internal helpers use the `kernarg_` prefix, which user names never get). */
  internal(base: string, ...also: Names[]): string {
    let n = `kernarg_${base}`;
    const taken = (x: string) => this.used.has(x) || also.some((a) => a.used.has(x));
    for (let k = 1; taken(n); k++) n = `kernarg_${base}_${k}`;
    this.used.add(n);
    for (const a of also) a.used.add(n);
    return n;
  }
}
