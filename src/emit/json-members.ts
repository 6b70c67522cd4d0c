// How JSON.stringify(…, null, 2) writes values, made fast for plans: member texts (`,` or `{`, line break,
// indentation, `"key": value`) kept per depth, key and value and found again; value layouts rendered once. json.ts
// writes plans, kernels and slots with these.
import type { ValueLayout } from '../abi/plan.js';
import { oneByte } from '../text/one-byte.js';

function layoutJson(l: ValueLayout): unknown {
  switch (l.kind) {
    case 'scalar':
      return { kind: 'scalar', type: l.scalar, size: l.size, align: l.align };
    case 'vector':
      return { kind: 'vector', element: l.element, length: l.length, size: l.size, align: l.align };
    case 'array':
      return {
        kind: 'array',
        element: layoutJson(l.element),
        length: l.length,
        stride: l.stride,
        size: l.size,
        align: l.align,
      };
    case 'record':
      return {
        kind: l.tagKind,
        typeName: l.typeName,
        size: l.size,
        align: l.align,
        fields: l.fields.map((f) => ({
          name: f.name,
          offset: f.offset,
          ...(f.bitWidth !== undefined ? { bitOffset: f.bitOffset, bitWidth: f.bitWidth } : {}),
          layout: layoutJson(f.layout),
        })),
      };
  }
}

/** Targets share value layouts between slots (they are read-only): each is rendered once. */
const layoutJsonCache = new WeakMap<ValueLayout, unknown>();
export function sharedLayoutJson(l: ValueLayout): unknown {
  let j = layoutJsonCache.get(l);
  if (j === undefined) layoutJsonCache.set(l, (j = layoutJson(l)));
  return j;
}

/** A line break and the indentation of `depth` levels, as `JSON.stringify(…, null, 2)` writes it. */
const breaks: string[] = [];
export function br(depth: number): string {
  return breaks[depth] ?? (breaks[depth] = `\n${'  '.repeat(depth)}`);
}

/**
 * Strings JSON.stringify writes other than as `"` + the string + `"`: with a quote, a backslash, a
 * control character or a surrogate (a lone one is escaped; a pair is not, but is rare enough to
 * leave to the native writer too).
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `s` as a JSON string, pushed as pieces (no string made for it unless it needs escaping). */
export function pushString(s: string, out: string[]): void {
  if (NEEDS_ESCAPE.test(s)) out.push(JSON.stringify(s));
  else out.push('"', s, '"');
}

/**
 * What goes before a member `"key": ` at each depth, made once per key and depth: `{` (the first
 * member) or `,` (the others), a line break, the indentation, the key.
 */
const firstHeads: Map<string, string>[] = [];
const nextHeads: Map<string, string>[] = [];
export function memberHead(depth: number, key: string, first: boolean): string {
  const heads = first ? firstHeads : nextHeads;
  let m = heads[depth];
  if (m === undefined) heads[depth] = m = new Map();
  let h = m.get(key);
  if (h === undefined) m.set(key, (h = `${first ? '{' : ','}${br(depth)}${JSON.stringify(key)}: `));
  return h;
}

/** Values an object member leaves out, and an array writes as `null`. */
export function absent(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/**
 * `value` exactly as `JSON.stringify(value, null, 2)` writes it nested `depth` levels deep, pushed onto `out` in
 * pieces.
 */
export function pushValue(value: unknown, depth: number, out: string[]): void {
  switch (typeof value) {
    case 'string':
      pushString(value, out);
      return;
    case 'number':
      out.push(Number.isFinite(value) ? `${value}` : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'object':
      if (value === null) out.push('null');
      else if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
        out.push(JSON.stringify(value, null, 2).replaceAll('\n', br(depth)));
      else if (Array.isArray(value)) pushArray(value, depth, out);
      else pushObject(value as Record<string, unknown>, depth, out);
      return;
    default:
      // undefined, functions and symbols (left out by the caller where they are members), bigint (the native writer
      // throws).
      out.push(JSON.stringify(value));
  }
}

function pushArray(a: readonly unknown[], depth: number, out: string[]): void {
  if (a.length === 0) {
    out.push('[]');
    return;
  }
  const first = `[${br(depth + 1)}`;
  const next = `,${br(depth + 1)}`;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    out.push(i ? next : first);
    if (absent(v)) out.push('null');
    else pushValue(v, depth + 1, out);
  }
  out.push(`${br(depth)}]`);
}

function pushObject(o: Record<string, unknown>, depth: number, out: string[]): void {
  let first = true;
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue;
    const v = o[k];
    if (absent(v)) continue;
    // Members of nested objects (a slot's host rule, a layout's fields) repeat too.
    if (v === null || typeof v !== 'object') pushMember(depth + 1, k, first, v, false, out);
    else {
      out.push(memberHead(depth + 1, k, first));
      pushValue(v, depth + 1, out);
    }
    first = false;
  }
  out.push(first ? '{}' : `${br(depth)}}`);
}

/** A value's text at a depth, made once. */
export function textOf(v: unknown, depth: number): string {
  const out: string[] = [];
  pushValue(v, depth, out);
  return out.join('');
}

/** A value layout's text at a depth (slots share layouts: each is rendered once per depth it is met at). */
const layoutTexts: WeakMap<ValueLayout, string>[] = [];
function layoutText(l: ValueLayout, depth: number): string {
  let m = layoutTexts[depth];
  if (m === undefined) layoutTexts[depth] = m = new WeakMap();
  let t = m.get(l);
  // Copied: a record's type and field names may be internalized strings (see primitiveText).
  if (t === undefined) m.set(l, (t = oneByte(textOf(sharedLayoutJson(l), depth))));
  return t;
}

/**
 * Whole members (`,` or `{`, line break, indentation, `"key": value`) of primitive values and
 * layouts, by depth, first-or-not, key and value, for one emitJsonChunks call: slots repeat
 * their roles, kinds, sizes, type names and parameter names from kernel to kernel, so most
 * members are one piece found again rather than three or four pieces made anew.
 */
const memberTexts: Map<string, Map<unknown, string>>[] = [];

/**
 * Values kept per key and depth: past this many, a key's values rarely repeat (the names, indices and dimensions of
 * tinytc's tens of thousands of derived parameters, issue 32), and each further text is made and written, not kept.
 */
const MEMBER_VALUES_KEPT = 1 << 10;

/** The member texts kept for a key at a depth, first or not. */
export function memberValues(depth: number, key: string, first: boolean): Map<unknown, string> {
  const i = 2 * depth + (first ? 1 : 0);
  let byKey = memberTexts[i];
  if (byKey === undefined) memberTexts[i] = byKey = new Map();
  let byValue = byKey.get(key);
  if (byValue === undefined) byKey.set(key, (byValue = new Map()));
  return byValue;
}

/**
 * memberValues' maps by a key order and depth, at 2 × the key's index (+ 1 when first): a plan object's members find
 * theirs by index, not by two lookups each (a slot has a dozen members, and tinytc's kernels tens of thousands of
 * slots). Cleared with memberTexts.
 */
const keyOrderMaps = new Map<readonly string[], (Map<unknown, string> | undefined)[][]>();
export function keyMaps(keys: readonly string[], depth: number): (Map<unknown, string> | undefined)[] {
  let byDepth = keyOrderMaps.get(keys);
  if (byDepth === undefined) keyOrderMaps.set(keys, (byDepth = []));
  return byDepth[depth] ?? (byDepth[depth] = []);
}

/** A member of a primitive value or (with `layout`) a value layout, pushed onto `out`: its whole text found again. */
function pushMember(depth: number, key: string, first: boolean, v: unknown, layout: boolean, out: string[]): void {
  pushMemberOf(memberValues(depth, key, first), depth, key, first, v, layout, out);
}

/** pushMember with the key's member texts at hand. */
export function pushMemberOf(
  byValue: Map<unknown, string>,
  depth: number,
  key: string,
  first: boolean,
  v: unknown,
  layout: boolean,
  out: string[],
): void {
  let t = byValue.get(v);
  if (t !== undefined) {
    out.push(t);
    return;
  }
  const head = memberHead(depth, key, first);
  if (byValue.size < MEMBER_VALUES_KEPT) {
    byValue.set(v, (t = flattened(head + (layout ? layoutText(v as ValueLayout, depth) : primitiveText(v)))));
    out.push(t);
  } else if (typeof v === 'number') out.push(head, numberText(v));
  else out.push(head + (layout ? layoutText(v as ValueLayout, depth) : primitiveText(v)));
}

/**
 * `s`, flattened in place: a text made with `+` is a tree of the pieces it joins until something flattens it, and a
 * RegExp run flattens its subject (V8). Done once for a member text kept to be written many times, it makes joining
 * it a copy rather than a walk down the tree (a join of 100,000 kept texts: 7.8 ms flattened, 11.5 ms not, as fast
 * as copying each with a TextEncoder round trip, which costs far more to make).
 */
const ANYWHERE = /^/;
function flattened(s: string): string {
  ANYWHERE.test(s);
  return s;
}

/**
 * A string, number, boolean or null as JSON.stringify writes it. Made with `+`, never joined: a
 * string an engine has internalized (type and parameter names used as keys) reads as two-byte to
 * Array.prototype.join, which then makes the whole JSON two-byte, where `+` copies its characters
 * into a one-byte string (measured in V8 11, Node 20; ../text/one-byte.ts says why it matters).
 */
function primitiveText(v: unknown): string {
  if (typeof v === 'number') return Number.isFinite(v) ? `${v}` : 'null';
  if (typeof v !== 'string') return textOf(v, 0);
  return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : '"' + v + '"';
}

/**
 * A number's text, small whole numbers made once per process: past MEMBER_VALUES_KEPT a key's values are written
 * without being kept, and tinytc's derived parameters repeat each index and dimension in several members (`dim`,
 * the host rule's `dim`, offsets), each a new string otherwise.
 */
const NUMBER_TEXTS_KEPT = 1 << 16;
const numberTexts: string[] = [];
function numberText(v: number): string {
  if (!(v >= 0 && v < NUMBER_TEXTS_KEPT && (v | 0) === v)) return primitiveText(v);
  return numberTexts[v] ?? (numberTexts[v] = `${v}`);
}

/** Forgets the member texts and key-order maps kept for one rendering. */
export function forgetMemberTexts(): void {
  memberTexts.length = 0;
  keyOrderMaps.clear();
}
