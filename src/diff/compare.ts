import {
  EXTENT_FACTS,
  type SlotFate,
  causeOf,
  describeFate,
  firstShift,
  isPositionProp,
  positionPlural,
  shiftsWhatFollows,
} from './causes.js';
import { type Severity, type Verdict, kernelFactVerdict, moduleFactVerdict, slotPropertyVerdict } from './rules.js';
import { assertNever } from '../assert-never.js';
import type { AbiView, Fact, KernelView, SlotView } from './view.js';

export type ChangeKind =
  | 'kernel-added'
  | 'kernel-removed'
  | 'kernel-renamed'
  | 'slot-added'
  | 'slot-removed'
  | 'slot-renamed'
  | 'slot-moved'
  | 'slot-property'
  | 'block-moved'
  | 'kernel-property'
  | 'module-property';

/** One difference between two ABIs, classified. */
export interface Change {
  readonly change: ChangeKind;
  /** The kernel (its old name where it has one); null for module facts. */
  readonly kernel: string | null;
  /** The slot (its old name where it has one); null for kernel and module changes. */
  readonly slot: string | null;
  readonly param: number | null;
  readonly role: string | null;
  /** The property or fact that changed; null for added/removed/renamed/moved. */
  readonly property: string | null;
  readonly old: Fact;
  readonly new: Fact;
  readonly class: Severity;
  readonly reason: string;
  /**
   * The slot whose change this one follows from (a later slot's move, a hidden block's move, the segment's growth);
   * null for a cause.
   */
  readonly cause: string | null;
  /** For a `block-moved` row: each moved slot's old and new place; null otherwise. */
  readonly slots: readonly SlotMove[] | null;
}

/** One slot of a moved block: where it was and where it is. */
export interface SlotMove {
  readonly slot: string;
  readonly property: string;
  readonly old: Fact;
  readonly new: Fact;
}

export interface DiffResult {
  readonly changes: readonly Change[];
  /** Breaking causes: a slot, kernel or module fact with a breaking change that follows from no other. */
  readonly breaking: number;
  /** Causes whose changes are all compatible. */
  readonly compatible: number;
  /** Rows that follow from a cause (they name it in `cause`). */
  readonly consequences: number;
}

const hiddenish = (s: SlotView) => s.param === null;

/** One change, always built in the same shape (tens of thousands of them for a large diff). */
function change(
  kind: ChangeKind,
  kernel: string | null,
  slot: SlotView | null,
  property: string | null,
  old: Fact,
  neu: Fact,
  v: Verdict,
  cause: string | null = null,
): Change {
  return {
    change: kind,
    kernel,
    slot: slot ? slot.name : null,
    param: slot ? slot.param : null,
    role: slot ? slot.role : null,
    property,
    old,
    new: neu,
    class: v.class,
    reason: v.reason,
    cause,
    slots: null,
  };
}

/** The properties compared: all of one target's, or only those two targets share. */
function comparedProps(a: AbiView, b: AbiView): readonly string[] {
  return a.target === b.target ? a.vocabulary : a.vocabulary.filter((p) => b.vocabulary.includes(p));
}

/** Fact names to compare: the union for one target, the intersection across two. */
function comparedFacts(
  a: Readonly<Record<string, Fact>>,
  b: Readonly<Record<string, Fact>>,
  sameTarget: boolean,
): string[] {
  const keys = Object.keys(a);
  for (const k of Object.keys(b)) if (!(k in a)) keys.push(k);
  return sameTarget ? keys : keys.filter((k) => k in a && k in b);
}

/** A one-line description of a slot for added/removed rows. */
function describeSlot(s: SlotView, props: readonly string[]): string {
  return props
    .filter((p) => s.props[p] !== null && s.props[p] !== undefined)
    .map((p) => `${p} ${s.props[p]}`)
    .join(', ');
}

function sameSignature(a: KernelView, b: KernelView, props: readonly string[]): boolean {
  return (
    a.slots.length === b.slots.length &&
    a.slots.every(
      (s, i) =>
        s.name === b.slots[i].name && props.every((p) => (s.props[p] ?? null) === (b.slots[i].props[p] ?? null)),
    )
  );
}

/** Pairs slots by name, then unpaired explicit slots by (parameter, role): those are renames. */
function pairSlots(
  old: readonly SlotView[],
  neu: readonly SlotView[],
): { pairs: [SlotView, SlotView][]; removed: SlotView[]; added: SlotView[] } {
  const byName = new Map(neu.map((s) => [s.name, s]));
  const used = new Set<SlotView>();
  const pairs: [SlotView, SlotView][] = [];
  const unpaired: SlotView[] = [];
  for (const o of old) {
    const n = byName.get(o.name);
    if (n && !used.has(n)) {
      pairs.push([o, n]);
      used.add(n);
    } else unpaired.push(o);
  }
  const removed: SlotView[] = [];
  for (const o of unpaired) {
    const n =
      o.param === null
        ? undefined
        : neu.find(
            (x) => !used.has(x) && x.param === o.param && x.role === o.role && !old.some((y) => y.name === x.name),
          );
    if (n) {
      pairs.push([o, n]);
      used.add(n);
    } else removed.push(o);
  }
  return { pairs, removed, added: neu.filter((x) => !used.has(x)) };
}

/** How one paired slot changed: the properties that differ, and whether its rank moved. */
interface PairDelta {
  readonly old: SlotView;
  readonly neu: SlotView;
  readonly moved: boolean;
  readonly oldRank: number;
  readonly newRank: number;
  readonly props: readonly string[];
}

/** Each slot's part in the kernel's changes (see causes.ts): which shift what follows, which only moved. */
function slotFates(
  o: KernelView,
  n: KernelView,
  deltas: readonly PairDelta[],
  removed: readonly SlotView[],
  added: readonly SlotView[],
): Map<SlotView, SlotFate> {
  const oldPos = new Map(o.slots.map((s, i) => [s, i]));
  const fates = new Map<SlotView, SlotFate>();
  for (const s of removed)
    fates.set(s, { slot: s, at: oldPos.get(s)!, shifts: true, positionOnly: false, what: 'removed' });
  // An added slot sits just before the first old slot that follows it in the new order.
  if (added.length) {
    const byNew = new Map(deltas.map((d) => [d.neu, d]));
    const isAdded = new Set(added);
    const at: [SlotView, number][] = [];
    let next = o.slots.length;
    for (let i = n.slots.length - 1; i >= 0; i--) {
      const s = n.slots[i];
      const d = byNew.get(s);
      if (d) next = oldPos.get(d.old)! - 0.5;
      else if (isAdded.has(s)) at.push([s, next]);
    }
    // In new order, so that of several added together the first is named first.
    for (const [s, x] of at.reverse())
      fates.set(s, { slot: s, at: x, shifts: true, positionOnly: false, what: 'added' });
  }
  for (const d of deltas) {
    // An unchanged slot neither moves anything nor is moved: it takes no part.
    if (!d.moved && !d.props.length) continue;
    const shifting = d.props.find(shiftsWhatFollows);
    const positionOnly = (d.moved || d.props.length > 0) && d.props.every(isPositionProp);
    const at = oldPos.get(d.old)!;
    const shifts = d.moved || shifting !== undefined;
    fates.set(
      d.old,
      d.moved || shifting === undefined
        ? { slot: d.old, at, shifts, positionOnly, what: d.moved ? 'moved' : 'changed' }
        : {
            slot: d.old,
            at,
            shifts,
            positionOnly,
            what: 'changed',
            prop: shifting,
            from: d.old.props[shifting] ?? null,
            to: d.neu.props[shifting] ?? null,
          },
    );
  }
  return fates;
}

/** One row for implicit slots that moved together because of one explicit change, with every slot's new place. */
function blockRow(k: string, cause: SlotFate, moved: readonly PairDelta[]): Change {
  const props = [...new Set(moved.flatMap((d) => d.props))].filter(isPositionProp);
  const roles = [...new Set(moved.map((d) => d.old.role))];
  const role = roles.length === 1 ? roles[0] : 'implicit';
  const at = (s: SlotView) => props.map((p) => s.props[p] ?? '-').join('/');
  const slots: SlotMove[] = moved.flatMap((d) =>
    props
      .filter((p) => d.props.includes(p))
      .map((p) => ({ slot: d.old.name, property: p, old: d.old.props[p] ?? null, new: d.neu.props[p] ?? null })),
  );
  const first = moved[0].old;
  return {
    change: 'block-moved',
    kernel: k,
    slot: first.name,
    param: null,
    role,
    property: props.join('/'),
    old: moved.map((d) => at(d.old)).join(','),
    new: moved.map((d) => at(d.neu)).join(','),
    class: 'breaking',
    reason:
      `the ${role} block moves with ${describeFate(cause)}: the host fills it at the ` +
      `new ${props.map(positionPlural).join(' and ')}`,
    cause: cause.slot.name,
    slots,
  };
}

function compareKernel(
  o: KernelView,
  n: KernelView,
  props: readonly string[],
  sameTarget: boolean,
  out: Change[],
): void {
  const k = o.name;
  const { pairs, removed, added } = pairSlots(o.slots, n.slots);
  // Order among the slots both sides have: a slot whose rank changed has moved.
  const oldPos = new Map(o.slots.map((s, i) => [s, i]));
  const newPos = new Map(n.slots.map((s, i) => [s, i]));
  const byOld = [...pairs].sort((x, y) => oldPos.get(x[0])! - oldPos.get(y[0])!);
  const newRank = new Map([...pairs].sort((x, y) => newPos.get(x[1])! - newPos.get(y[1])!).map((p, i) => [p[1], i]));
  const deltas: PairDelta[] = byOld.map(([a, b], oldRank) => ({
    old: a,
    neu: b,
    oldRank,
    newRank: newRank.get(b)!,
    moved: oldRank !== newRank.get(b),
    props: props.filter((p) => (a.props[p] ?? null) !== (b.props[p] ?? null)),
  }));
  const fates = slotFates(o, n, deltas, removed, added);
  const all = [...fates.values()];
  const extentCause = firstShift(all);
  for (const f of comparedFacts(o.facts, n.facts, sameTarget)) {
    const a = o.facts[f] ?? null;
    const b = n.facts[f] ?? null;
    if (a === b) continue;
    const v = kernelFactVerdict(f, a, b);
    const cause = EXTENT_FACTS.has(f) ? extentCause : null;
    out.push(
      change(
        'kernel-property',
        k,
        null,
        f,
        a,
        b,
        cause ? { class: v.class, reason: `follows from ${describeFate(cause)}: ${v.reason}` } : v,
        cause?.slot.name ?? null,
      ),
    );
  }
  for (const s of removed) {
    out.push(
      change(
        'slot-removed',
        k,
        s,
        null,
        describeSlot(s, props),
        null,
        hiddenish(s)
          ? { class: 'compatible', reason: 'the old host fills bytes the kernel no longer reads' }
          : { class: 'breaking', reason: 'the old host passes an argument the kernel no longer takes' },
      ),
    );
  }
  for (const s of added) {
    out.push(
      change('slot-added', k, s, null, null, describeSlot(s, props), {
        class: 'breaking',
        reason: hiddenish(s)
          ? `the old host does not fill this ${s.role} slot`
          : 'the old host does not pass this argument',
      }),
    );
  }
  // Implicit slots that only moved because of an explicit change: one row per cause, where the first of them sat.
  const blocks = new Map<SlotFate, PairDelta[]>();
  const blockAt = new Map<SlotFate, number>();
  for (const d of deltas) {
    const a = d.old;
    const b = d.neu;
    const fate = fates.get(a);
    const cause = fate ? causeOf(fate, all) : null;
    if (cause && hiddenish(a) && !d.moved) {
      const list = blocks.get(cause) ?? [];
      if (!list.length) blockAt.set(cause, out.length);
      list.push(d);
      blocks.set(cause, list);
      continue;
    }
    if (a.name !== b.name)
      out.push(
        change('slot-renamed', k, a, 'name', a.name, b.name, {
          class: 'compatible',
          reason: 'hosts pass arguments by position; only the name changed',
        }),
      );
    if (d.moved) {
      const reason = hiddenish(a) ? 'the hidden values come in another order' : 'the arguments come in another order';
      out.push(
        change(
          'slot-moved',
          k,
          a,
          'order',
          d.oldRank,
          d.newRank,
          { class: 'breaking', reason: cause ? `follows from ${describeFate(cause)}: ${reason}` : reason },
          cause?.slot.name ?? null,
        ),
      );
    }
    for (const p of d.props) {
      const v = slotPropertyVerdict(p, hiddenish(a), a.props[p] ?? null, b.props[p] ?? null);
      out.push(
        change(
          'slot-property',
          k,
          a,
          p,
          a.props[p] ?? null,
          b.props[p] ?? null,
          cause ? { class: v.class, reason: `follows from ${describeFate(cause)}: ${v.reason}` } : v,
          cause?.slot.name ?? null,
        ),
      );
    }
  }
  // Inserted last to first, so the earlier positions stay right.
  for (const [cause, list] of [...blocks].reverse()) out.splice(blockAt.get(cause)!, 0, blockRow(k, cause, list));
}

/** The classified differences between two views of a kernel set. */
export function diffViews(old: AbiView, neu: AbiView): DiffResult {
  const changes: Change[] = [];
  const sameTarget = old.target === neu.target;
  const props = comparedProps(old, neu);
  for (const f of comparedFacts(old.facts, neu.facts, sameTarget)) {
    const a = old.facts[f] ?? null;
    const b = neu.facts[f] ?? null;
    if (a === b) continue;
    changes.push(change('module-property', null, null, f, a, b, moduleFactVerdict(f, a, b)));
  }
  const newByName = new Map(neu.kernels.map((k) => [k.name, k]));
  const removed = old.kernels.filter((k) => !newByName.has(k.name));
  const oldNames = new Set(old.kernels.map((k) => k.name));
  const added = neu.kernels.filter((k) => !oldNames.has(k.name));
  for (const k of old.kernels) {
    const n = newByName.get(k.name);
    if (n) compareKernel(k, n, props, sameTarget, changes);
  }
  const kernelRow = (kind: ChangeKind, kernel: string, a: Fact, b: Fact, class_: Severity, reason: string): Change =>
    change(kind, kernel, null, null, a, b, { class: class_, reason });
  for (const r of removed) {
    const twin = added.find((a) => sameSignature(r, a, props));
    if (twin) {
      added.splice(added.indexOf(twin), 1);
      changes.push(
        kernelRow(
          'kernel-renamed',
          r.name,
          r.name,
          twin.name,
          'breaking',
          'same signature under a new name: hosts look kernels up by name',
        ),
      );
    } else
      changes.push(
        kernelRow('kernel-removed', r.name, r.name, null, 'breaking', 'hosts that launch it find no kernel'),
      );
  }
  for (const a of added)
    changes.push(
      kernelRow('kernel-added', a.name, null, a.name, 'compatible', 'a new kernel: old hosts do not launch it'),
    );
  return { changes, ...countCauses(changes) };
}

/** What a row is about: rows of one slot (or one fact, or one kernel) are one cause however many properties changed. */
function causeKey(c: Change): string {
  switch (c.change) {
    case 'module-property':
      return `m\0${c.property}`;
    case 'kernel-property':
      return `k\0${c.kernel}\0${c.property}`;
    case 'kernel-added':
    case 'kernel-removed':
    case 'kernel-renamed':
      return `K\0${c.kernel}`;
    case 'slot-added':
      return `+\0${c.kernel}\0${c.slot}`;
    case 'slot-removed':
    case 'slot-renamed':
    case 'slot-moved':
    case 'slot-property':
    case 'block-moved':
      return `s\0${c.kernel}\0${c.slot}`;
    default:
      return assertNever(c.change);
  }
}

/** Causes counted once each (breaking when any of their rows is), and the rows that follow from them. */
function countCauses(changes: readonly Change[]): { breaking: number; compatible: number; consequences: number } {
  const causes = new Map<string, boolean>();
  let consequences = 0;
  for (const c of changes) {
    if (c.cause !== null) {
      consequences++;
      continue;
    }
    const key = causeKey(c);
    causes.set(key, (causes.get(key) ?? false) || c.class === 'breaking');
  }
  let breaking = 0;
  for (const b of causes.values()) if (b) breaking++;
  return { breaking, compatible: causes.size - breaking, consequences };
}
