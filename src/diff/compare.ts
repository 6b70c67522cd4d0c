import { type Severity, type Verdict, kernelFactVerdict, moduleFactVerdict, slotPropertyVerdict } from './rules.js';
import type { AbiView, Fact, KernelView, SlotView } from './view.js';

export type ChangeKind =
  | 'kernel-added' | 'kernel-removed' | 'kernel-renamed'
  | 'slot-added' | 'slot-removed' | 'slot-renamed' | 'slot-moved' | 'slot-property'
  | 'kernel-property' | 'module-property';

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
}

export interface DiffResult {
  readonly changes: readonly Change[];
  readonly breaking: number;
  readonly compatible: number;
}

const hiddenish = (s: SlotView) => s.param === null;

/** One change, always built in the same shape (tens of thousands of them for a large diff). */
function change(kind: ChangeKind, kernel: string | null, slot: SlotView | null, property: string | null, old: Fact, neu: Fact, v: Verdict): Change {
  return { change: kind, kernel, slot: slot ? slot.name : null, param: slot ? slot.param : null, role: slot ? slot.role : null, property, old, new: neu, class: v.class, reason: v.reason };
}

/** The properties compared: all of one target's, or only those two targets share. */
function comparedProps(a: AbiView, b: AbiView): readonly string[] {
  return a.target === b.target ? a.vocabulary : a.vocabulary.filter((p) => b.vocabulary.includes(p));
}

/** Fact names to compare: the union for one target, the intersection across two. */
function comparedFacts(a: Readonly<Record<string, Fact>>, b: Readonly<Record<string, Fact>>, sameTarget: boolean): string[] {
  const keys = Object.keys(a);
  for (const k of Object.keys(b)) if (!(k in a)) keys.push(k);
  return sameTarget ? keys : keys.filter((k) => k in a && k in b);
}

/** A one-line description of a slot for added/removed rows. */
function describeSlot(s: SlotView, props: readonly string[]): string {
  return props.filter((p) => s.props[p] !== null && s.props[p] !== undefined).map((p) => `${p} ${s.props[p]}`).join(', ');
}

function sameSignature(a: KernelView, b: KernelView, props: readonly string[]): boolean {
  return a.slots.length === b.slots.length && a.slots.every((s, i) => s.name === b.slots[i].name && props.every((p) => (s.props[p] ?? null) === (b.slots[i].props[p] ?? null)));
}

/** Pairs slots by name, then unpaired explicit slots by (parameter, role): those are renames. */
function pairSlots(old: readonly SlotView[], neu: readonly SlotView[]): { pairs: [SlotView, SlotView][]; removed: SlotView[]; added: SlotView[] } {
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
    const n = o.param === null ? undefined : neu.find((x) => !used.has(x) && x.param === o.param && x.role === o.role && !old.some((y) => y.name === x.name));
    if (n) {
      pairs.push([o, n]);
      used.add(n);
    } else removed.push(o);
  }
  return { pairs, removed, added: neu.filter((x) => !used.has(x)) };
}

function compareKernel(o: KernelView, n: KernelView, props: readonly string[], sameTarget: boolean, out: Change[]): void {
  const k = o.name;
  for (const f of comparedFacts(o.facts, n.facts, sameTarget)) {
    const a = o.facts[f] ?? null;
    const b = n.facts[f] ?? null;
    if (a !== b) out.push(change('kernel-property', k, null, f, a, b, kernelFactVerdict(f, a, b)));
  }
  const { pairs, removed, added } = pairSlots(o.slots, n.slots);
  for (const s of removed) {
    out.push(change('slot-removed', k, s, null, describeSlot(s, props), null,
      hiddenish(s) ? { class: 'compatible', reason: 'the old host fills bytes the kernel no longer reads' } : { class: 'breaking', reason: 'the old host passes an argument the kernel no longer takes' }));
  }
  for (const s of added) {
    out.push(change('slot-added', k, s, null, null, describeSlot(s, props),
      { class: 'breaking', reason: hiddenish(s) ? `the old host does not fill this ${s.role} slot` : 'the old host does not pass this argument' }));
  }
  // Order among the slots both sides have: a slot whose rank changed has moved.
  const oldPos = new Map(o.slots.map((s, i) => [s, i]));
  const newPos = new Map(n.slots.map((s, i) => [s, i]));
  const byOld = [...pairs].sort((x, y) => oldPos.get(x[0])! - oldPos.get(y[0])!);
  const newRank = new Map([...pairs].sort((x, y) => newPos.get(x[1])! - newPos.get(y[1])!).map((p, i) => [p[1], i]));
  byOld.forEach(([a, b], oldRank) => {
    if (a.name !== b.name) out.push(change('slot-renamed', k, a, 'name', a.name, b.name, { class: 'compatible', reason: 'hosts pass arguments by position; only the name changed' }));
    if (oldRank !== newRank.get(b)) {
      out.push(change('slot-moved', k, a, 'order', oldRank, newRank.get(b)!,
        { class: 'breaking', reason: hiddenish(a) ? 'the hidden values come in another order' : 'the arguments come in another order' }));
    }
    for (const p of props) {
      const x = a.props[p] ?? null;
      const y = b.props[p] ?? null;
      if (x !== y) out.push(change('slot-property', k, a, p, x, y, slotPropertyVerdict(p, hiddenish(a))));
    }
  });
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
  const kernelRow = (kind: ChangeKind, kernel: string, a: Fact, b: Fact, class_: Severity, reason: string): Change => change(kind, kernel, null, null, a, b, { class: class_, reason });
  for (const r of removed) {
    const twin = added.find((a) => sameSignature(r, a, props));
    if (twin) {
      added.splice(added.indexOf(twin), 1);
      changes.push(kernelRow('kernel-renamed', r.name, r.name, twin.name, 'breaking', 'same signature under a new name: hosts look kernels up by name'));
    } else changes.push(kernelRow('kernel-removed', r.name, r.name, null, 'breaking', 'hosts that launch it find no kernel'));
  }
  for (const a of added) changes.push(kernelRow('kernel-added', a.name, null, a.name, 'compatible', 'a new kernel: old hosts do not launch it'));
  const breaking = changes.filter((c) => c.class === 'breaking').length;
  return { changes, breaking, compatible: changes.length - breaking };
}
