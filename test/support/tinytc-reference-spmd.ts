// The JS reference's parallel regions in lockstep: each work-item runs the region as a generator that
// stops at every instruction that needs the others — a barrier (the whole work-group) and the subgroup
// operations and broadcast (its subgroup) — and the scheduler resumes it when every work-item concerned is
// there, with what the instruction gives it. A work-item that finishes while others wait, or subgroups that
// wait at different instructions, are the program's error (tinytc: these must be reached by all), and throw.

/** Where a work-item waits, and (subgroup instructions) what its subgroup's values give each lane. */
export type SyncRequest<V> =
  | { readonly kind: 'barrier'; readonly site: object }
  | {
      readonly kind: 'subgroup';
      readonly site: object;
      readonly value: V;
      /** Each lane's result from every lane's value, in lane order. */
      readonly combine: (values: readonly V[]) => readonly V[];
    };

export interface LockstepItem<V> {
  /** The subgroup (its linear id) and the lane in it. */
  readonly subgroup: number;
  readonly lane: number;
  /** Runs the region for this work-item (called with the work-item's state entered). */
  readonly run: () => Generator<SyncRequest<V>, unknown, V | undefined>;
}

interface State<V, I extends LockstepItem<V>> {
  readonly item: I;
  readonly gen: Generator<SyncRequest<V>, unknown, V | undefined>;
  waiting: SyncRequest<V> | null;
  resume: V | undefined;
  done: boolean;
}

/** Runs every item to its end; `enter` makes an item's state (its values, its local id) the interpreter's. */
export function runLockstep<V, I extends LockstepItem<V>>(items: readonly I[], enter: (item: I) => void): void {
  const states: State<V, I>[] = items.map((item) => {
    enter(item);
    return { item, gen: item.run(), waiting: null, resume: undefined, done: false };
  });
  const subgroups = new Map<number, State<V, I>[]>();
  for (const s of states) subgroups.set(s.item.subgroup, [...(subgroups.get(s.item.subgroup) ?? []), s]);
  for (const members of subgroups.values()) members.sort((a, b) => a.item.lane - b.item.lane);
  let runnable = states;
  for (;;) {
    for (const s of runnable) {
      enter(s.item);
      const r = s.gen.next(s.resume);
      s.resume = undefined;
      if (r.done) s.done = true;
      else s.waiting = r.value;
    }
    runnable = [];
    const alive = states.filter((s) => !s.done);
    if (!alive.length) return;
    for (const members of subgroups.values()) {
      const first = members[0].waiting;
      if (first?.kind !== 'subgroup' || !members.every((m) => m.waiting?.kind === 'subgroup')) continue;
      if (members.some((m) => m.waiting!.site !== first.site))
        throw new Error('reference: the work-items of a subgroup wait at different subgroup instructions');
      const results = first.combine(members.map((m) => (m.waiting as { value: V }).value));
      members.forEach((m, i) => {
        m.resume = results[i];
        m.waiting = null;
      });
      runnable.push(...members);
    }
    if (runnable.length) continue;
    if (alive.length === states.length && alive.every((s) => s.waiting?.kind === 'barrier')) {
      const site = alive[0].waiting!.site;
      if (alive.some((s) => s.waiting!.site !== site))
        throw new Error('reference: the work-items of a work-group wait at different barriers');
      for (const s of alive) s.waiting = null;
      runnable = alive;
      continue;
    }
    throw new Error('reference: a barrier or subgroup instruction that not every work-item concerned reaches');
  }
}

/** Each lane's result of a reduction or scan: `op` combines two values, `identity` starts an exclusive scan. */
export function groupOperation<V>(
  group: 'reduce' | 'inclusive_scan' | 'exclusive_scan',
  values: readonly V[],
  op: (a: V, b: V) => V,
  identity: V,
): V[] {
  const out: V[] = [];
  let acc = identity;
  values.forEach((v, i) => {
    const next = i === 0 ? v : op(acc, v);
    out.push(group === 'exclusive_scan' ? acc : next);
    acc = next;
  });
  return group === 'reduce' ? values.map(() => acc) : out;
}
