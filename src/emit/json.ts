import type { PlanBase, ValueLayout } from '../abi/plan.js';
import type { StreamPlan } from '../abi/stream-plan.js';
import { type JsonKeyOrder, type KernelNamedMember, keyOrderOf } from './json-key-order.js';
import { oneByte } from '../text/one-byte.js';
import { repeatedSlots } from '../abi/kernel-shape-memo.js';
import { isSharedRun } from '../abi/shared-runs.js';
import {
  absent,
  br,
  forgetMemberTexts,
  keyMaps,
  memberHead,
  memberValues,
  pushMemberOf,
  pushString,
  pushValue,
  sharedLayoutJson,
  textOf,
} from './json-members.js';

/**
 * Plain data of a plan object: its keys in the declared order (json-key-order.ts), layouts rendered, undefined dropped.
 */
function plain(
  o: object,
  keys: readonly string[],
  named?: KernelNamedMember,
  kernel?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = (o as Record<string, unknown>)[k];
    if (v === undefined) {
      if (named !== undefined && kernel !== undefined && k === named.key) out[k] = named.of(kernel, o);
      continue;
    }
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
      args: k.args.map((a) => plain(a, slotKeys(order, a), order.kernelNamed, k.name)),
      ...plain(k, order.kernel),
    })),
  };
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
 * A slot's kernel, where its plan kind makes a member of the kernel's name (`JsonKeyOrder.kernelNamed`); `HOLE`
 * while a shared slot list's text is made (`pushArgsParts`): the piece the member's value goes in, a string no text
 * holds (JSON escapes control characters).
 */
interface NamedSlot {
  readonly member: KernelNamedMember;
  readonly kernel: string;
}
const HOLE = '\u0000';

/** Kernels sit at depth 2, their slots at 4. */
const KERNEL_DEPTH = 2;
const SLOT_DEPTH = 4;
const SLOT_CLOSE = br(SLOT_DEPTH) + '}';

function pushSlot(
  slot: { readonly param: number | null },
  order: JsonKeyOrder,
  out: string[],
  named?: NamedSlot,
): void {
  const keys = slotKeys(order, slot);
  if (named !== undefined && (slot as Record<string, unknown>)[named.member.key] === undefined)
    return pushNamedSlot(slot, keys, named, out);
  out.push(pushPlainMembers(slot, keys, Level.Slot, true, out) ? SLOT_CLOSE : '{}');
}

/** A slot's keys before and after its kernel-named member, by its key list (the lists are per plan kind). */
const splitKeys = new WeakMap<readonly string[], readonly [readonly string[], readonly string[]]>();

/**
 * A slot that leaves its kernel-named member out: the members before it, it (made of the kernel's name, or a hole),
 * the members after it. The other slots' path (pushPlainMembers) stays as it was: a branch there for this one member
 * cost vulkan's JSON about a tenth of its time.
 */
function pushNamedSlot(slot: object, keys: readonly string[], named: NamedSlot, out: string[]): void {
  let split = splitKeys.get(keys);
  if (split === undefined) {
    const at = keys.indexOf(named.member.key);
    if (at < 0) throw new Error(`the key order names no '${named.member.key}' for the slots that make it`);
    splitKeys.set(keys, (split = [keys.slice(0, at), keys.slice(at + 1)]));
  }
  const before = pushPlainMembers(slot, split[0], Level.Slot, true, out);
  out.push(memberHead(Level.Slot + 1, named.member.key, !before));
  // The kernel's own word: written in full (no text kept: it is another kernel's each time), or a hole.
  if (named.kernel === HOLE) out.push(HOLE);
  else pushString(named.member.of(named.kernel, slot), out);
  pushPlainMembers(slot, split[1], Level.Slot, false, out);
  out.push(SLOT_CLOSE);
}

/**
 * Slots without a source parameter (hidden, setup, trailing) are shared between kernels by the
 * targets that add them, as one list per lowering (a kernel's hidden or setup slots): a run of
 * them is rendered once (the slots' texts joined by `,` and a line break) and found again under
 * its first slot, checked slot by slot.
 *
 * A run is kept from its first meeting where its target marked it shared (`markSharedRun`: given to a second kernel),
 * else from its second: on real code most kernels' implicit slots are their own (their offsets follow the kernel's
 * arguments: zebin's implicit ones, r600's and amdhsa's at an offset no other kernel has), and keeping each such run's
 * text (a copy of its slots, a one-byte copy of the text, a map entry) for a kernel never met again made JSON's shared
 * runs cost more than rendering their slots: their first time, the slots go straight into the text around them.
 */
type Slot = { readonly param: number | null };
const sharedRunTexts = new WeakMap<object, { readonly slots: readonly object[]; readonly text: string }>();
/** First slots of runs met once, whose text is not kept yet (a run its target marked shared is kept at once). */
const runsMetOnce = new WeakSet<object>();
/** The run's text, kept; or undefined, the run met for the first time (`pushArgs` renders its slots itself). */
function sharedRunText(args: readonly Slot[], from: number, to: number, order: JsonKeyOrder): string | undefined {
  const first = args[from];
  const cached = sharedRunTexts.get(first);
  if (cached && cached.slots.length === to - from && cached.slots.every((s, i) => s === args[from + i]))
    return cached.text;
  if (cached === undefined && !isSharedRun(first) && !runsMetOnce.has(first)) {
    runsMetOnce.add(first);
    return undefined;
  }
  const slots = args.slice(from, to);
  const out: string[] = [];
  for (let i = 0; i < slots.length; i++) {
    if (i) out.push(SLOT_SEP);
    pushSlot(slots[i], order, out);
  }
  const text = oneByte(out.join(''));
  sharedRunTexts.set(first, { slots, text });
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
 * The `args` member of kernels whose slot list is shared (`repeatedSlots`: kernels of one shape), from its `,` to its
 * `]`, made once per list; a long one goes out as a chunk of its own, as long shared runs do.
 */
const argsTexts = new WeakMap<readonly Slot[], string>();
function argsText(args: readonly Slot[], order: JsonKeyOrder): string {
  let text = argsTexts.get(args);
  if (text === undefined) {
    const out: string[] = [];
    pushArgs(args, order, out, undefined, false);
    argsTexts.set(args, (text = oneByte(out.join(''))));
  }
  return text;
}

/**
 * `argsText` of a plan kind whose slots have a member made of the kernel's name: the text in parts, that member's
 * value left out between each two, and the slots they are made of. Pushed for a kernel with its values in between.
 */
interface ArgsParts {
  readonly parts: readonly string[];
  readonly named: readonly object[];
}
const argsPartsOf = new WeakMap<readonly Slot[], ArgsParts>();
function pushArgsParts(
  args: readonly Slot[],
  order: JsonKeyOrder,
  member: KernelNamedMember,
  kernel: string,
  out: string[],
): void {
  let made = argsPartsOf.get(args);
  if (made === undefined) {
    const pieces: string[] = [];
    pushArgs(args, order, pieces, undefined, false, { member, kernel: HOLE });
    const parts: string[] = [];
    let from = 0;
    for (let i = 0; i < pieces.length; i++) {
      if (pieces[i] !== HOLE) continue;
      parts.push(oneByte(pieces.slice(from, i).join('')));
      from = i + 1;
    }
    parts.push(oneByte(pieces.slice(from).join('')));
    const named = args.filter((a) => (a as Record<string, unknown>)[member.key] === undefined);
    argsPartsOf.set(args, (made = { parts, named }));
  }
  out.push(made.parts[0]);
  for (let i = 0; i < made.named.length; i++) {
    pushString(member.of(kernel, made.named[i]), out);
    out.push(made.parts[i + 1]);
  }
}

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
  const member = order.kernelNamed;
  if (member !== undefined) {
    if (args.length !== 0 && args.length < LONG_KERNEL_SLOTS && repeatedSlots(args))
      pushArgsParts(args, order, member, k.name, out);
    else pushArgs(args, order, out, chunks, ownRuns, { member, kernel: k.name });
  } else if (args.length !== 0 && args.length < LONG_KERNEL_SLOTS && repeatedSlots(args)) {
    const text = argsText(args, order);
    if (ownRuns && chunks !== undefined && text.length >= OWN_CHUNK_CHARS) {
      chunks.push(out.join(''), text);
      out.length = 0;
    } else out.push(text);
  } else pushArgs(args, order, out, chunks, ownRuns);
  pushPlainMembers(k, order.kernel, Level.Kernel, false, out);
  out.push(KERNEL_CLOSE);
}

/** A kernel's `args` member, from its `,` to its `]` (`pushKernel`'s chunks and runs). */
function pushArgs(
  args: readonly Slot[],
  order: JsonKeyOrder,
  out: string[],
  chunks: string[] | undefined,
  ownRuns: boolean,
  named?: NamedSlot,
): void {
  out.push(args.length === 0 ? ARGS_EMPTY : ARGS_OPEN);
  const long = chunks !== undefined && args.length >= LONG_KERNEL_SLOTS;
  for (let i = 0; i < args.length;) {
    if (long && out.length >= LONG_KERNEL_PIECES) {
      chunks.push(out.join(''));
      out.length = 0;
    }
    if (i) out.push(SLOT_SEP);
    const a = args[i];
    // A slot with a member of its kernel's name is written kernel by kernel, never kept as a shared run's text.
    if (a.param !== null || named !== undefined) {
      pushSlot(a, order, out, named);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < args.length && args[j].param === null) j++;
    const run = sharedRunText(args, i, j, order);
    if (run === undefined) {
      for (let s = i; s < j; s++) {
        if (s > i) out.push(SLOT_SEP);
        pushSlot(args[s], order, out);
      }
    } else if (ownRuns && chunks !== undefined && run.length >= OWN_CHUNK_CHARS) {
      chunks.push(out.join(''), run);
      out.length = 0;
    } else out.push(run);
    i = j;
  }
  if (args.length) out.push(ARGS_CLOSE);
}

/**
 * Pieces are joined and handed out once they are about this many (a kernel or two, some hundreds
 * of bytes): measured on 4,000 kernels, runs of 16k pieces (100 KiB strings) left the strings to
 * survive into the old generation and raised the peak RSS of ten renderings from 158 to 273 MiB;
 * at 64 it is that of the native writer's per-kernel pieces, and the time is the same or less.
 */
const CHUNK_PIECES = 1 << 6;
/**
 * ... or once they hold this many kernels: a kernel of a shape met before is a handful of pieces (its slots' text made
 * once, `argsText`), and its text goes out before the kernel after next is lowered, as a longer one's does.
 */
const CHUNK_KERNELS = 2;

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
    let inChunk = 0;
    for (const kernel of plan.kernels) {
      out.push(i++ ? ',' : '[');
      pushKernel(kernel, order, out, held, true);
      if (held.length) {
        for (const h of held) yield h;
        held.length = 0;
        inChunk = 0;
      }
      if (out.length >= CHUNK_PIECES || ++inChunk >= CHUNK_KERNELS) {
        yield out.join('');
        out.length = 0;
        inChunk = 0;
      }
    }
    pushPlanTail(plan, out);
    yield out.join('');
  } finally {
    forgetMemberTexts();
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
  forgetMemberTexts();
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
