// The parts of a drawing (boxes, lanes) and the box of one slot of the JSON plan, which every
// target's lanes are made of.
import type { TargetName } from 'kernarg';
import type { KernelJson, LayoutJson, SlotJson } from '../plan-json.js';

/** How a slot relates to the source: an argument, or something the ABI adds. */
export type Mark = 'arg' | 'hidden' | 'setup' | 'implicit';

/** One labelled box: a slot of the plan (or a module-level resource when `slot` is -1). */
export interface Box {
  readonly slot: number;
  readonly name: string;
  /** A shorter name for tight boxes (the tooltip keeps the full one). */
  readonly short?: string;
  readonly type: string;
  readonly offset: number;
  readonly size: number;
  /** Source argument the box belongs to (colour and linking), or null. */
  readonly key: number | null;
  readonly mark: Mark;
  /** The slot's alignment when the plan states it (its own `align`, or its value's layout's). */
  readonly align?: number;
  readonly layout?: LayoutJson;
  /** Extra line of the tooltip. */
  readonly detail?: string;
  /** Target facts the tooltip lists before the alignment (cuda's `.param`, zebin's arg_type and addrmode). */
  readonly tipRows?: readonly (readonly [string, string])[];
  /** data-* attributes the page's tests read. */
  readonly data: Readonly<Record<string, string | number>>;
}

export interface BytesLane {
  readonly kind: 'bytes';
  readonly title: string;
  readonly size: number;
  readonly unit: 'byte' | 'dword';
  readonly boxes: readonly Box[];
  /** Leading bytes the ABI reserves before the arguments (r600's implicit dwords). */
  readonly reserved?: { readonly size: number; readonly label: string };
}

export interface ListLane {
  readonly kind: 'list';
  readonly title: string;
  /** Column headings after the box column. */
  readonly columns: readonly string[];
  readonly rows: readonly { readonly box: Box; readonly cells: readonly string[] }[];
}

export interface BindingsLane {
  readonly kind: 'bindings';
  readonly title: string;
  readonly sets: readonly { readonly set: number; readonly use: string; readonly boxes: readonly Box[] }[];
}

export type Lane = BytesLane | ListLane | BindingsLane;

export interface Drawing {
  readonly target: TargetName;
  readonly kernel: string;
  readonly summary: string;
  readonly lanes: readonly Lane[];
}

function markOf(s: SlotJson): Mark {
  if (s.role === 'setup') return 'setup';
  if (s.role === 'hidden') return 'hidden';
  if (s.param === null || s.role === 'image-size' || s.role === 'image-format') return 'implicit';
  return 'arg';
}

/** The argument an implicit slot serves (r600's image size and format name their image). */
function keyOf(s: SlotJson, k: KernelJson): number | null {
  if (s.param !== null) return s.param;
  if (s.image) return k.args.find((a) => a.name === s.image)?.param ?? null;
  return null;
}

export function box(
  k: KernelJson,
  i: number,
  offset: number,
  size: number,
  extra: Record<string, string | number> = {},
  detail?: string,
): Box {
  const s = k.args[i];
  const type = s.typeName ?? s.valueKind ?? '';
  return {
    slot: i,
    name: s.name,
    // amdhsa's hidden arguments all start with hidden_, which the box's mark already says.
    short: s.role === 'hidden' ? s.name.replace(/^hidden_/, '') : undefined,
    type: type === s.name ? '' : type,
    offset,
    size,
    key: keyOf(s, k),
    mark: markOf(s),
    align: s.align ?? s.layout?.align,
    layout: s.layout,
    detail,
    data: { slot: i, name: s.name, offset, size, ...extra },
  };
}

export function bytesOf(
  target: TargetName,
  k: KernelJson,
  segment: number,
  title: string,
  reserved?: BytesLane['reserved'],
): BytesLane {
  const boxes = k.args.map((s, i) => box(k, i, s.offset ?? 0, s.size ?? 0, {}, s.valueKind ?? s.argType));
  const unit = target === 'amdhsa' || target === 'amd-cl2' || target === 'r600' ? 'dword' : 'byte';
  return { kind: 'bytes', title, size: segment, unit, boxes, reserved };
}
