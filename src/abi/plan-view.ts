/**
 * A plan reduced to the facts a host depends on, in one vocabulary for every target: what the ABI
 * diff compares. Each target's record reduces its own plan (`Target.view`); this file holds the
 * shapes and the spellings they share.
 */
import { assertNever } from '../assert-never.js';
import type { ValueLayout } from '../layout/value-layout.js';

/** One comparable fact: a number, a string, or absent (null). */
export type Fact = string | number | null;

/** One physical slot, reduced to the properties a host depends on. */
export interface SlotView {
  readonly name: string;
  readonly param: number | null;
  readonly role: string;
  readonly props: Readonly<Record<string, Fact>>;
}

export interface KernelView {
  readonly name: string;
  readonly facts: Readonly<Record<string, Fact>>;
  readonly slots: readonly SlotView[];
}

/** What a target's record gives for one plan: module facts and kernels. */
export interface PlanView {
  readonly facts: Readonly<Record<string, Fact>>;
  readonly kernels: readonly KernelView[];
}

/** A compact, name-free spelling of a value's bytes: what the host must write, and where. */
export function layoutKey(l: ValueLayout): string {
  switch (l.kind) {
    case 'scalar':
      return l.scalar;
    case 'vector':
      return `${l.element}${l.length}`;
    case 'array':
      return `${layoutKey(l.element)}[${l.length}]`;
    case 'record':
      return `${l.tagKind}{${l.fields.map((f) => `${f.offset}${f.bitWidth !== undefined ? `.${f.bitOffset}:${f.bitWidth}b` : ''}:${layoutKey(f.layout)}`).join(',')}}${l.size}`;
    default:
      return assertNever(l);
  }
}

/** A number, or null when absent. */
export const numberFact = (v: number | undefined | null): Fact => (v === undefined ? null : v);
/** A string, or null when absent or empty. */
export const stringFact = (v: string | undefined | null): Fact => (v === undefined || v === '' ? null : v);
/** A work-group triple as `x,y,z`, or null. */
export const tripleFact = (v: readonly number[] | undefined): Fact => (v ? v.join(',') : null);
/** A value layout as its key, or null. */
export const layoutFact = (l: ValueLayout | undefined): Fact => (l ? layoutKey(l) : null);
