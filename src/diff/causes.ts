/**
 * Causes and consequences among one kernel's slot changes. When an explicit argument grows, shrinks,
 * appears or goes, everything laid out after it moves: later arguments get other offsets or indices,
 * the hidden block (amdhsa hidden arguments, r600's trailing image words, any implicit slot) moves
 * as a whole, and the segment grows. Those moves are real (a host that hard-codes offsets breaks),
 * but they are consequences: the diff names the change they follow from, reports a moved implicit
 * block once, and counts causes, not rows.
 */
import { assertNever } from '../assert-never.js';
import type { Fact, SlotView } from './view.js';

type PositionProp = 'offset' | 'index' | 'pushConstantOffset' | 'binding' | 'specId' | 'resourceId';

/**
 * Properties that say only where a slot sits (they change when something before it changes), as a moved block's row
 * names them.
 */
const POSITION_PLURAL = {
  offset: 'offsets',
  index: 'indices',
  pushConstantOffset: 'push-constant offsets',
  binding: 'bindings',
  specId: 'specialization ids',
  resourceId: 'resource ids',
} as const satisfies Record<PositionProp, string>;

export const isPositionProp = (prop: string): prop is PositionProp => Object.hasOwn(POSITION_PLURAL, prop);

/** `offset` → `offsets`, for a block row's reason. */
export const positionPlural = (prop: PositionProp): string => POSITION_PLURAL[prop];

/**
 * Properties whose change moves what comes after the slot (its extent, alignment or the kind of
 * resource it takes). A same-size retype (`int` → `float`, a `layout` or `typeName` change) moves
 * nothing, so it is never named as the cause of a move.
 */
const SHIFTING_PROPS: ReadonlySet<string> = new Set(['size', 'align', 'kind', 'irType', 'elemSize', 'addressSpace']);

/**
 * Kernel facts made from the slots (their extent, their largest alignment): they follow from any slot that moved, grew
 * or went.
 */
export const EXTENT_FACTS: ReadonlySet<string> = new Set([
  'segmentSize',
  'segmentAlign',
  'podSize',
  'podPlacement',
  'podOffset',
]);

/** What happened to one slot, as far as causes go. */
export interface SlotFate {
  readonly slot: SlotView;
  /** Where it sits in slot order (old order; an added slot just before the old slot it precedes). */
  readonly at: number;
  /** Added, removed, moved in order, or changed in a shifting property: later slots may move because of it. */
  readonly shifts: boolean;
  /** Paired and changed only in where it sits (position properties, its rank among the slots). */
  readonly positionOnly: boolean;
  /** What happened to it, for the rows that follow from it (`describeFate`). */
  readonly what: 'added' | 'removed' | 'moved' | 'changed';
  /** For `changed`: the first shifting property that changed, and its two values. */
  readonly prop?: string;
  readonly from?: Fact;
  readonly to?: Fact;
}

/**
 * The slot a position-only move follows from: the nearest slot before it whose change shifts what
 * follows, traced back to an explicit argument's change (a slot that itself only moved passes on its
 * own cause). Where nothing before it changed, the nearest explicit change after it: targets that
 * sort slots by kind (clspv puts the POD block after every buffer) move a slot when a later argument
 * changes kind. Null when the trace ends at an implicit slot's change or at none: the move has a
 * cause of its own (an option, another code object).
 */
export function causeOf(fate: SlotFate, fates: readonly SlotFate[]): SlotFate | null {
  let at: SlotFate = fate;
  for (;;) {
    if (!at.positionOnly) return at === fate || at.slot.param === null ? null : at;
    let best: SlotFate | null = null;
    for (const f of fates) if (f !== at && f.shifts && f.at < at.at && (!best || f.at > best.at)) best = f;
    if (!best) {
      for (const f of fates)
        if (
          f !== at &&
          f.shifts &&
          !f.positionOnly &&
          f.slot.param !== null &&
          f.at > at.at &&
          (!best || f.at < best.at)
        )
          best = f;
      if (!best) return at === fate ? null : at.slot.param === null ? null : at;
      return best;
    }
    at = best;
  }
}

/** The first slot change (in slot order) that moves or resizes what follows: the cause of an extent fact's change. */
export function firstShift(fates: readonly SlotFate[]): SlotFate | null {
  let best: SlotFate | null = null;
  for (const f of fates) if (f.shifts && !f.positionOnly && (!best || f.at < best.at)) best = f;
  if (best) return best;
  // Only moves (a reorder): the first slot that moved.
  for (const f of fates) if (f.shifts && (!best || f.at < best.at)) best = f;
  return best;
}

/** How the rows that follow from a slot's change name it: `'scale' (size 4 → 8)`, `'c' added`. */
export function describeFate(f: SlotFate): string {
  switch (f.what) {
    case 'added':
    case 'removed':
    case 'moved':
      return `'${f.slot.name}' ${f.what}`;
    case 'changed':
      return f.prop === undefined
        ? `'${f.slot.name}'`
        : `'${f.slot.name}' (${f.prop} ${f.from ?? '-'} → ${f.to ?? '-'})`;
    default:
      return assertNever(f.what);
  }
}

/** Whether a changed property moves what follows. */
export const shiftsWhatFollows = (prop: string): boolean => SHIFTING_PROPS.has(prop);
