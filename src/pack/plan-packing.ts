// How one target's plans are packed: which view of the one packer its host reads, and the sizes of
// the byte blocks its kernels state. A target record holds one (Target.pack), so a host asks the
// record for its packer and names no target's packing code.
import type { PackOptions } from './launch.js';
import { type BlockSizes, type PackLayout, type PlanSlot, packLayout } from './placement.js';
import {
  type ArgListPacker,
  type BindingsPacker,
  type SegmentPacker,
  argListPacker,
  bindingsPacker,
  segmentPacker,
} from './views.js';

/** What each view of the packer hands a host. */
export interface PackerViews {
  /** Arguments set one at a time, by index. */
  readonly 'arg-list': ArgListPacker;
  /** One segment of bytes (a kernarg segment, an input or parameter buffer, a cross-thread payload). */
  readonly segment: SegmentPacker;
  /** Push constants, descriptor bindings and spec constants. */
  readonly bindings: BindingsPacker;
}
export type PackView = keyof PackerViews;

const VIEWS: { readonly [V in PackView]: (layout: PackLayout, options?: PackOptions) => PackerViews[V] } = {
  'arg-list': argListPacker,
  segment: segmentPacker,
  bindings: bindingsPacker,
};

/** A plan the packer reads: kernels by name, each with its placed slots. */
export interface PackablePlan {
  readonly kernels: readonly { readonly name: string; readonly args: readonly PlanSlot[] }[];
}

/** How a target's plans are packed: its view, each kernel's layout and packer. */
export interface PlanPacking<P extends PackablePlan, V extends PackView> {
  readonly view: V;
  /** A kernel as the packer reads it (its slots' where and fill, its blocks' sizes). */
  layout(plan: P, kernel: string): PackLayout;
  /** The packer of a kernel: compiled once, then called per launch. */
  packer(plan: P, kernel: string, options?: PackOptions): PackerViews[V];
}

/** A target's packing: the view its host reads, and its kernels' block sizes as its plan states them. */
export function planPacking<P extends PackablePlan, V extends PackView>(
  view: V,
  blocks: (k: P['kernels'][number]) => BlockSizes,
): PlanPacking<P, V> {
  const layout = (plan: P, kernel: string): PackLayout => packLayout<P['kernels'][number]>(plan, kernel, blocks);
  const make = VIEWS[view];
  return { view, layout, packer: (plan, kernel, options = {}) => make(layout(plan, kernel), options) };
}
