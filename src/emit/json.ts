import type { PlanBase, ValueLayout } from '../abi/plan.js';
import type { StreamPlan } from '../abi/stream-plan.js';
import { type JsonKeyOrder, keyOrderOf } from './json-key-order.js';
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
function sharedLayoutJson(l: ValueLayout): unknown {
  let j = layoutJsonCache.get(l);
  if (j === undefined) layoutJsonCache.set(l, (j = layoutJson(l)));
  return j;
}

/**
 * Plain data of a plan object: its keys in the declared order (json-key-order.ts), layouts rendered, undefined dropped.
 */
function plain(o: object, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = (o as Record<string, unknown>)[k];
    if (v === undefined) continue;
    out[k] = k === 'layout' ? sharedLayoutJson(v as ValueLayout) : v;
  }
  return out;
}

/** A slot's key order: its plan kind's for slots of a source parameter, or for the others. */
const slotKeys = (order: JsonKeyOrder, slot: { readonly param: number | null }) =>
  slot.param === null ? order.implicitSlot : order.slot;

/**
 * The JSON contract of ARCHITECTURE.md: `{ target, kernels: [{ name, args: [...], ...}], ... }`,
 * each object's keys in its plan kind's declared order.
 */
export function planToJson(plan: PlanBase): unknown {
  const order = keyOrderOf(plan.target);
  return {
    ...plain(plan, order.plan),
    kernels: plan.kernels.map((k) => ({
      name: k.name,
      args: k.args.map((a) => plain(a, slotKeys(order, a))),
      ...plain(k, order.kernel),
    })),
  };
}

/** A line break and the indentation of `depth` levels, as `JSON.stringify(…, null, 2)` writes it. */
const breaks: string[] = [];
function br(depth: number): string {
  return breaks[depth] ?? (breaks[depth] = `\n${'  '.repeat(depth)}`);
}

/**
 * Strings JSON.stringify writes other than as `"` + the string + `"`: with a quote, a backslash, a
 * control character or a surrogate (a lone one is escaped; a pair is not, but is rare enough to
 * leave to the native writer too).
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `s` as a JSON string, pushed as pieces (no string made for it unless it needs escaping). */
function pushString(s: string, out: string[]): void {
  if (NEEDS_ESCAPE.test(s)) out.push(JSON.stringify(s));
  else out.push('"', s, '"');
}

/**
 * What goes before a member `"key": ` at each depth, made once per key and depth: `{` (the first
 * member) or `,` (the others), a line break, the indentation, the key.
 */
const firstHeads: Map<string, string>[] = [];
const nextHeads: Map<string, string>[] = [];
function memberHead(depth: number, key: string, first: boolean): string {
  const heads = first ? firstHeads : nextHeads;
  let m = heads[depth];
  if (m === undefined) heads[depth] = m = new Map();
  let h = m.get(key);
  if (h === undefined) m.set(key, (h = `${first ? '{' : ','}${br(depth)}${JSON.stringify(key)}: `));
  return h;
}

/** Values an object member leaves out, and an array writes as `null`. */
function absent(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/**
 * `value` exactly as `JSON.stringify(value, null, 2)` writes it nested `depth` levels deep, pushed onto `out` in
 * pieces.
 */
function pushValue(value: unknown, depth: number, out: string[]): void {
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
function textOf(v: unknown, depth: number): string {
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
 * Which plan object `pushPlainMembers` reads: they differ in the depth they sit at and how nested objects are written.
 */
const enum Level {
  /** The plan (depth 0): `kernels` is written after the rest. */
  Plan = 0,
  /** A kernel (depth 2): `name` and `args` are written first. */
  Kernel = 2,
  /** A slot (depth 4). */
  Slot = 4,
}

/**
 * The members `plain(o, keys)` has, written at `level + 1` and read off `o` itself in the order of
 * `keys`; with `first`, the first one opens the object (`{`), else each follows a `,`. Says whether
 * any was written.
 */
function pushPlainMembers(o: object, keys: readonly string[], level: Level, first: boolean, out: string[]): boolean {
  const start = out.length;
  const maps = keyMaps(keys, level + 1);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = (o as Record<string, unknown>)[k];
    if (absent(v)) continue;
    if (k === 'layout' || v === null || typeof v !== 'object') {
      const j = 2 * i + (first ? 1 : 0);
      pushMemberOf(
        maps[j] ?? (maps[j] = memberValues(level + 1, k, first)),
        level + 1,
        k,
        first,
        v,
        k === 'layout',
        out,
      );
    } else {
      out.push(memberHead(level + 1, k, first));
      if (level === Level.Kernel) pushKernelField(v, out);
      else pushValue(v, level + 1, out);
    }
    first = false;
  }
  return out.length !== start;
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
function memberValues(depth: number, key: string, first: boolean): Map<unknown, string> {
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
function keyMaps(keys: readonly string[], depth: number): (Map<unknown, string> | undefined)[] {
  let byDepth = keyOrderMaps.get(keys);
  if (byDepth === undefined) keyOrderMaps.set(keys, (byDepth = []));
  return byDepth[depth] ?? (byDepth[depth] = []);
}

/** A member of a primitive value or (with `layout`) a value layout, pushed onto `out`: its whole text found again. */
function pushMember(depth: number, key: string, first: boolean, v: unknown, layout: boolean, out: string[]): void {
  pushMemberOf(memberValues(depth, key, first), depth, key, first, v, layout, out);
}

/** pushMember with the key's member texts at hand. */
function pushMemberOf(
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

/** Kernels sit at depth 2, their slots at 4. */
const KERNEL_DEPTH = 2;
const SLOT_DEPTH = 4;
const SLOT_CLOSE = br(SLOT_DEPTH) + '}';

function pushSlot(slot: { readonly param: number | null }, order: JsonKeyOrder, out: string[]): void {
  out.push(pushPlainMembers(slot, slotKeys(order, slot), Level.Slot, true, out) ? SLOT_CLOSE : '{}');
}

/**
 * Slots without a source parameter (hidden, setup, trailing) are shared between kernels by the
 * targets that add them, as one list per lowering (a kernel's hidden or setup slots): a run of
 * them is rendered once (the slots' texts joined by `,` and a line break) and found again under
 * its first slot, checked slot by slot.
 */
type Slot = { readonly param: number | null };
const sharedRunTexts = new WeakMap<object, { readonly slots: readonly object[]; readonly text: string }>();
function sharedRunText(args: readonly Slot[], from: number, to: number, order: JsonKeyOrder): string {
  const cached = sharedRunTexts.get(args[from]);
  if (cached && cached.slots.length === to - from && cached.slots.every((s, i) => s === args[from + i]))
    return cached.text;
  const slots = args.slice(from, to);
  const out: string[] = [];
  for (let i = 0; i < slots.length; i++) {
    if (i) out.push(SLOT_SEP);
    pushSlot(slots[i], order, out);
  }
  const text = oneByte(out.join(''));
  sharedRunTexts.set(args[from], { slots, text });
  return text;
}

/** A shared run at least this long goes out as a chunk of its own (never copied into the text around it). */
const OWN_CHUNK_CHARS = 1024;

/**
 * Texts of objects kernels hold as fields (amd-cl2's user SGPR layout, made once per lowering and shared): each
 * rendered once.
 */
const kernelFieldTexts = new WeakMap<object, string>();
function pushKernelField(v: unknown, out: string[]): void {
  if (typeof v !== 'object' || v === null) return pushValue(v, KERNEL_DEPTH + 1, out);
  let t = kernelFieldTexts.get(v);
  if (t === undefined) kernelFieldTexts.set(v, (t = oneByte(textOf(v, KERNEL_DEPTH + 1))));
  out.push(t);
}

const KERNEL_OPEN = `${br(KERNEL_DEPTH)}{${br(KERNEL_DEPTH + 1)}"name": `;
const ARGS_OPEN = `,${br(KERNEL_DEPTH + 1)}"args": [${br(SLOT_DEPTH)}`;
const ARGS_EMPTY = `,${br(KERNEL_DEPTH + 1)}"args": []`;
const SLOT_SEP = `,${br(SLOT_DEPTH)}`;
const ARGS_CLOSE = `${br(SLOT_DEPTH - 1)}]`;
const KERNEL_CLOSE = `${br(KERNEL_DEPTH)}}`;

/**
 * Pieces a long kernel (at least LONG_KERNEL_SLOTS slots: tinytc's functions of tens of thousands of derived
 * parameters, issue 32) gathers before they are joined into one chunk: each slot's unique members (name, index,
 * dimension) are pieces of their own, and two million of them held to the end were promoted by every collection and
 * joined at once; joined every 4,096, they die young (the JSON of 65,000 dynamic modes spent 30% of its time
 * collecting).
 * Kernels of fewer slots gather as before, their pieces mostly member texts found again.
 */
const LONG_KERNEL_SLOTS = 1 << 10;
const LONG_KERNEL_PIECES = 1 << 12;

/**
 * One kernel at depth 2, from the line break before its `{` to its `}`, pushed onto `out` as
 * pieces; with `chunks`, a long shared run of slots goes onto them itself (with `ownRuns`), and a long kernel's text
 * in chunks as it is written, each after `out` joined.
 */
function pushKernel(
  k: { readonly name: string; readonly args: readonly Slot[] },
  order: JsonKeyOrder,
  out: string[],
  chunks: string[] | undefined,
  ownRuns: boolean,
): void {
  out.push(KERNEL_OPEN);
  pushString(k.name, out);
  const args = k.args;
  out.push(args.length === 0 ? ARGS_EMPTY : ARGS_OPEN);
  const long = chunks !== undefined && args.length >= LONG_KERNEL_SLOTS;
  for (let i = 0; i < args.length;) {
    if (long && out.length >= LONG_KERNEL_PIECES) {
      chunks.push(out.join(''));
      out.length = 0;
    }
    if (i) out.push(SLOT_SEP);
    const a = args[i];
    if (a.param !== null) {
      pushSlot(a, order, out);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < args.length && args[j].param === null) j++;
    const run = sharedRunText(args, i, j, order);
    if (ownRuns && chunks !== undefined && run.length >= OWN_CHUNK_CHARS) {
      chunks.push(out.join(''), run);
      out.length = 0;
    } else out.push(run);
    i = j;
  }
  if (args.length) out.push(ARGS_CLOSE);
  pushPlainMembers(k, order.kernel, Level.Kernel, false, out);
  out.push(KERNEL_CLOSE);
}

/**
 * Pieces are joined and handed out once they are about this many (a kernel or two, some hundreds
 * of bytes): measured on 4,000 kernels, runs of 16k pieces (100 KiB strings) left the strings to
 * survive into the old generation and raised the peak RSS of ten renderings from 158 to 273 MiB;
 * at 64 it is that of the native writer's per-kernel pieces, and the time is the same or less.
 */
const CHUNK_PIECES = 1 << 6;

/**
 * Exactly `JSON.stringify(planToJson(plan), null, 2) + '\n'`, in pieces of some hundreds of bytes (the text
 * before the kernels and runs of whole kernels, the text after): joined, they are `emitJson`'s
 * text. A writer can send them one by one, so output larger than the longest string the engine
 * can hold (about 512 MiB in V8) is still written. Written straight off the plan (no plain copy of
 * it is made) as small pieces joined once per chunk, with key and indentation strings made once
 * per depth, strings escaped natively only where they need it, and the slots and value layouts
 * that targets share between kernels rendered once.
 */
export function emitJsonChunks(plan: PlanBase): string[] {
  return Array.from(emitJsonPieces(plan));
}

/**
 * `emitJsonChunks`'s pieces, each made when it is asked for: a writer that sends each on and
 * drops it keeps none of them, so each dies young, where an array of them all survives every
 * young-generation collection until the last is made (vulkan's JSON of the 4,000-kernel file
 * of `npm run bench -- targets`: 31.6 ms with the pieces kept, 20.0 ms handed on one by one,
 * best of 60 each). Iterating it again renders the plan again.
 */
export function* emitJsonPieces(plan: StreamPlan<PlanBase>): Generator<string, void, undefined> {
  const out: string[] = [];
  // Long shared runs, which pushKernel hands over whole (after the text before them).
  const held: string[] = [];
  try {
    const order = pushPlanHead(plan, out);
    // Read once, in order: a kernel-at-a-time lowering makes each kernel here (stream-plan.ts).
    let i = 0;
    for (const kernel of plan.kernels) {
      out.push(i++ ? ',' : '[');
      pushKernel(kernel, order, out, held, true);
      if (held.length) {
        for (const h of held) yield h;
        held.length = 0;
      }
      if (out.length >= CHUNK_PIECES) {
        yield out.join('');
        out.length = 0;
      }
    }
    pushPlanTail(plan, out);
    yield out.join('');
  } finally {
    memberTexts.length = 0;
    keyOrderMaps.clear();
  }
}

/**
 * Exactly `JSON.stringify(planToJson(plan), null, 2) + '\n'` (see `emitJsonChunks`), joined once
 * from all its pieces: most are strings made once per lowering (member texts, shared runs), so
 * the pieces cost an array of references, where chunks would be a second copy of the text that
 * lives until the end (and is copied by every young-generation collection meanwhile).
 */
export function emitJson(plan: PlanBase): string {
  const out: string[] = [];
  // Long kernels' text, joined as it is written (LONG_KERNEL_PIECES).
  const chunks: string[] = [];
  const order = pushPlanHead(plan, out);
  const kernels = plan.kernels;
  for (let i = 0; i < kernels.length; i++) {
    out.push(i ? ',' : '[');
    pushKernel(kernels[i], order, out, chunks, false);
  }
  pushPlanTail(plan, out);
  memberTexts.length = 0;
  keyOrderMaps.clear();
  if (chunks.length === 0) return out.join('');
  chunks.push(out.join(''));
  // The chunks strung together with `+`, not joined: a second copy of tens of MB (tinytc's JSON at the parameter
  // limit, issue 32) that whoever writes or reads the text makes anyway, flattening it once.
  let text = chunks[0];
  for (let i = 1; i < chunks.length; i++) text += chunks[i];
  return text;
}

/** The plan's members other than its kernels, up to the kernels' `[` (or their `[]`); returns its kind's key orders. */
function pushPlanHead(plan: StreamPlan<PlanBase>, out: string[]): JsonKeyOrder {
  const order = keyOrderOf(plan.target);
  const any = pushPlainMembers(plan, order.plan, Level.Plan, true, out);
  out.push(`${any ? ',' : '{'}${br(1)}"kernels": `);
  if (!plan.kernels.length) out.push('[]');
  return order;
}

/** What follows the last kernel. */
function pushPlanTail(plan: StreamPlan<PlanBase>, out: string[]): void {
  if (plan.kernels.length) out.push(br(1), ']');
  out.push('\n}\n');
}
