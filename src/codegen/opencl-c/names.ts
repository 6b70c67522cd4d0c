import { BUILTIN_PREFIX, C_RESERVED, HEADER_FAMILIES, isReservedCName } from '../../frontend/tinytc/reserved-names.js';

const RESERVED: ReadonlySet<string> = new Set(C_RESERVED);

/**
 * Unique C identifiers: keywords, builtins and every name handed out stay taken. A child (one per
 * kernel) sees its parent's names without copying them, and each base name remembers the suffix
 * it reached, so handing out n names costs O(n) however many share a base or a module.
 */
export class Names {
  private readonly used = new Set<string>();
  /** Per base name: the first suffix not yet known to be taken (suffixes below it all are). */
  private readonly nextSuffix = new Map<string, number>();

  constructor(
    taken: Iterable<string> = [],
    private readonly parent?: Names,
  ) {
    for (const t of taken) this.used.add(t);
  }

  /** A per-kernel allocator that starts from this one's names. */
  child(taken: Iterable<string> = []): Names {
    return new Names(taken, this);
  }

  private taken(name: string): boolean {
    for (let n: Names | undefined = this; n; n = n.parent) if (n.used.has(name)) return true;
    return RESERVED.has(name);
  }

  has(name: string): boolean {
    return this.taken(name) || isReservedCName(name);
  }

  /**
   * `base`, or `base_1`, `base_2`, … — the first one free. Names in builtin or header families
   * (`as_…`, `FLT_…`, `cl_khr_…`) get an `x` prefix first: every suffixed spelling of them is
   * reserved too, so suffixes alone would never find a free one.
   */
  fresh(base: string, ...also: Names[]): string {
    const b =
      BUILTIN_PREFIX.test(base) || HEADER_FAMILIES.test(base) || base.startsWith('kernarg_') ? `x${base}` : base;
    return this.claim(b, (n) => this.has(n) || also.some((a) => a.has(n)), also);
  }

  /** Reserves a name chosen elsewhere (internal helpers use the `kernarg_` prefix, which user names never get). */
  internal(base: string, ...also: Names[]): string {
    return this.claim(`kernarg_${base}`, (x) => this.taken(x) || also.some((a) => a.taken(x)), also);
  }

  private claim(base: string, taken: (n: string) => boolean, also: readonly Names[]): string {
    let k = this.nextSuffix.get(base) ?? 0;
    const spell = (j: number) => (j === 0 ? base : `${base}_${j}`);
    while (taken(spell(k))) k++;
    const n = spell(k);
    this.nextSuffix.set(base, k + 1);
    this.used.add(n);
    for (const a of also) a.used.add(n);
    return n;
  }
}
