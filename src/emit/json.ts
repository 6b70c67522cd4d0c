import type { PlanBase, ValueLayout } from '../abi/plan.js';

function layoutJson(l: ValueLayout): unknown {
  switch (l.kind) {
    case 'scalar':
      return { kind: 'scalar', type: l.scalar, size: l.size, align: l.align };
    case 'vector':
      return { kind: 'vector', element: l.element, length: l.length, size: l.size, align: l.align };
    case 'array':
      return { kind: 'array', element: layoutJson(l.element), length: l.length, stride: l.stride, size: l.size, align: l.align };
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
 * Keys the JSON form leaves out: the source type (a compiler object), and a slot's `where` and
 * `fill` (they restate the target's own fields; readPlan attaches them again).
 */
const LEFT_OUT = new Set(['type', 'where', 'fill']);

/**
 * Plain data of a plan object: the keys above left out, layouts rendered, undefined dropped. With
 * `layouts`, a layout is left as the number 0 and pushed there, for its text to be put in after.
 */
function plain(o: object, layouts?: ValueLayout[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in o) {
    const v = (o as Record<string, unknown>)[k];
    if (v === undefined || LEFT_OUT.has(k)) continue;
    if (k !== 'layout') out[k] = v;
    else if (layouts) {
      layouts.push(v as ValueLayout);
      out[k] = 0;
    } else out[k] = sharedLayoutJson(v as ValueLayout);
  }
  return out;
}

/** The JSON contract of ARCHITECTURE.md: `{ target, kernels: [{ name, args: [...], ...}], ... }`. */
export function planToJson(plan: PlanBase): unknown {
  const { kernels, ...rest } = plan;
  return {
    ...plain(rest),
    kernels: kernels.map((k) => {
      const { name, args, ...fields } = k;
      return { name, args: args.map((a) => plain(a)), ...plain(fields) };
    }),
  };
}

const pad = (depth: number) => '  '.repeat(depth);
const wrapPrefix: string[] = [];
const wrapSuffix: string[] = [];

/**
 * `value` as `JSON.stringify(…, null, 2)` writes it nested `depth` levels deep: the value wrapped
 * in `depth` one-element arrays, stringified natively, the wrappers cut off again.
 */
function at(depth: number, value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (wrapPrefix[depth] === undefined) {
    let pre = '';
    let suf = '';
    for (let i = 0; i < depth; i++) {
      pre += `[\n${pad(i + 1)}`;
      suf = `\n${pad(i)}]` + suf;
    }
    wrapPrefix[depth] = pre;
    wrapSuffix[depth] = suf;
  }
  let wrapped = value;
  for (let i = 0; i < depth; i++) wrapped = [wrapped];
  const s = JSON.stringify(wrapped, null, 2);
  return s.slice(wrapPrefix[depth].length, s.length - wrapSuffix[depth].length);
}

/** Members of an object at `depth`, without braces: `"key": value` lines joined as JSON.stringify joins them. */
function members(depth: number, o: Record<string, unknown>, out: string[]): void {
  for (const k in o) {
    const v = o[k];
    if (v === undefined || typeof v === 'function') continue;
    out.push(`${pad(depth)}${JSON.stringify(k)}: ${at(depth, v)}`);
  }
}

/**
 * Slots without a source parameter (hidden, setup, trailing) are shared between kernels by the
 * targets that add them: each is rendered once, at the depth slots sit at (4).
 */
const sharedSlotText = new WeakMap<object, string>();
const SLOT_DEPTH = 4;

/**
 * A slot's `layout` member as the run of slots is first written (`plain` leaves the number 0):
 * a real newline and that indentation only occur between members of a slot (newlines inside
 * strings are escaped), and a slot has one `layout`, so each match is one slot's layout.
 */
const LAYOUT_MEMBER = `\n${pad(SLOT_DEPTH + 1)}"layout": `;
const LAYOUT_PLACEHOLDER = `${LAYOUT_MEMBER}0`;

/** A value layout's text where slots hold it (slots share layouts: each is rendered once). */
const layoutText = new WeakMap<ValueLayout, string>();
function slotLayoutText(l: ValueLayout): string {
  let t = layoutText.get(l);
  if (t === undefined) layoutText.set(l, (t = at(SLOT_DEPTH + 1, sharedLayoutJson(l))));
  return t;
}

/** `text` (slots written with `plain(…, layouts)`) with each placeholder replaced by its layout's text, in order. */
function withLayouts(text: string, layouts: readonly ValueLayout[]): string {
  if (!layouts.length) return text;
  const parts = text.split(LAYOUT_PLACEHOLDER);
  if (parts.length !== layouts.length + 1) throw new Error(`JSON emitter: ${parts.length - 1} layout placeholders for ${layouts.length} layouts`);
  let out = parts[0];
  for (let i = 0; i < layouts.length; i++) out += LAYOUT_MEMBER + slotLayoutText(layouts[i]) + parts[i + 1];
  return out;
}

function slotText(slot: { readonly param: number | null }): string {
  if (slot.param !== null) return pad(SLOT_DEPTH) + at(SLOT_DEPTH, plain(slot));
  let t = sharedSlotText.get(slot);
  if (t === undefined) sharedSlotText.set(slot, (t = pad(SLOT_DEPTH) + at(SLOT_DEPTH, plain(slot))));
  return t;
}

/** A run of consecutive shared slots and its text (the slots' texts joined by `,\n`), kept under the run's first slot. */
const sharedRunText = new WeakMap<object, { readonly slots: readonly object[]; readonly text: string }>();

/**
 * The text of the shared slots `args[from..to)`: targets add them as one list per lowering (a
 * kernel's hidden or setup slots), so the run is rendered once and then found again under its
 * first slot, checked slot by slot.
 */
function sharedRun(args: readonly { readonly param: number | null }[], from: number, to: number): string {
  const cached = sharedRunText.get(args[from]);
  if (cached && cached.slots.length === to - from && cached.slots.every((s, i) => s === args[from + i])) return cached.text;
  const slots = args.slice(from, to);
  const text = slots.map(slotText).join(',\n');
  sharedRunText.set(args[from], { slots, text });
  return text;
}

/**
 * A kernel's slots at depth 4, separated by `,\n`, pushed onto `out` as pieces (not joined: a
 * shared run's cached text goes out as it is, never copied into a kernel's string): each run of
 * the kernel's own slots in one native call (the run as an array, its brackets cut off).
 */
function pushArgs(args: readonly { readonly param: number | null }[], out: string[]): void {
  let run: Record<string, unknown>[] = [];
  const layouts: ValueLayout[] = [];
  let first = true;
  const piece = (t: string) => {
    out.push(first ? t : `,\n${t}`);
    first = false;
  };
  const flush = () => {
    if (!run.length) return;
    const t = at(SLOT_DEPTH - 1, run);
    piece(withLayouts(t.slice(2, t.length - 2 - 2 * (SLOT_DEPTH - 1)), layouts));
    run = [];
    layouts.length = 0;
  };
  for (let i = 0; i < args.length; ) {
    const a = args[i];
    if (a.param !== null) {
      run.push(plain(a, layouts));
      i++;
      continue;
    }
    flush();
    let j = i + 1;
    while (j < args.length && args[j].param === null) j++;
    if (!first) out.push(',\n');
    out.push(sharedRun(args, i, j));
    first = false;
    i = j;
  }
  flush();
}

const KERNEL_OPEN = `${pad(2)}{\n${pad(3)}"name": `;
const ARGS_CLOSE = `\n${pad(3)}]`;
const KERNEL_CLOSE = `\n${pad(2)}}`;

/** Texts of objects kernels hold as fields (amd-cl2's user SGPR layout, made once per lowering and shared): each rendered once. */
const kernelFieldText = new WeakMap<object, string>();
function kernelFieldValue(v: unknown): string {
  if (typeof v !== 'object' || v === null) return at(3, v);
  let t = kernelFieldText.get(v);
  if (t === undefined) kernelFieldText.set(v, (t = at(3, v)));
  return t;
}

/** A kernel's fields after `name` and `args` at depth 3, as `members(3, plain(fields))` writes them, read off the kernel itself (no copy of it made). */
function kernelFields(k: object, out: string[]): void {
  for (const key in k) {
    if (key === 'name' || key === 'args' || LEFT_OUT.has(key)) continue;
    const v = (k as Record<string, unknown>)[key];
    if (v === undefined || typeof v === 'function') continue;
    out.push(`${pad(3)}${JSON.stringify(key)}: ${key === 'layout' ? at(3, sharedLayoutJson(v as ValueLayout)) : kernelFieldValue(v)}`);
  }
}

/**
 * Exactly `JSON.stringify(planToJson(plan), null, 2) + '\n'`, in pieces (the text before the
 * kernels, a few pieces per kernel, the text after): joined, they are
 * `emitJson`'s text. A writer can send them one by one, so output larger than the longest string
 * the engine can hold (about 512 MiB in V8) is still written. Built kernel by kernel: slots and
 * value layouts that targets share between kernels are rendered once, and the rest is written by
 * the native stringifier a slot at a time, so no copy of the whole plan is made first.
 */
export function emitJsonChunks(plan: PlanBase): string[] {
  const { kernels, ...rest } = plan;
  const top: string[] = [];
  members(1, plain(rest), top);
  const chunks: string[] = [];
  if (!kernels.length) {
    top.push(`${pad(1)}"kernels": []`);
    chunks.push(`{\n${top.join(',\n')}\n}\n`);
    return chunks;
  }
  top.push(`${pad(1)}"kernels": [\n`);
  chunks.push(`{\n${top.join(',\n')}`);
  for (let i = 0; i < kernels.length; i++) {
    const k = kernels[i];
    const head = `${i ? ',\n' : ''}${KERNEL_OPEN}${JSON.stringify(k.name)},\n${pad(3)}"args": `;
    if (k.args.length === 0) chunks.push(`${head}[]`);
    else {
      chunks.push(`${head}[\n`);
      pushArgs(k.args, chunks);
      chunks.push(ARGS_CLOSE);
    }
    const rest: string[] = [];
    kernelFields(k, rest);
    chunks.push(rest.length ? `,\n${rest.join(',\n')}${KERNEL_CLOSE}` : KERNEL_CLOSE);
  }
  chunks.push(`\n${pad(1)}]\n}\n`);
  return chunks;
}

/** Exactly `JSON.stringify(planToJson(plan), null, 2) + '\n'` (see `emitJsonChunks`). */
export function emitJson(plan: PlanBase): string {
  return emitJsonChunks(plan).join('');
}
