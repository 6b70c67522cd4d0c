// The one packer seen through the part of its output a host reads: an argument segment's bytes,
// or a list of arguments set by index. Both are the packer's own objects, the same every call.
import { type Args, type LaunchInfo, type PackOptions } from './launch.js';
import { type Packed, type SetArg, planPacker } from './packer.js';
import type { PackLayout } from './placement.js';

export interface SegmentPacker {
  readonly kernel: string;
  readonly names: readonly string[];
  readonly size: number;
  /** The segment's bytes; the same buffer every call. */
  pack(args: Args, launch: LaunchInfo): Uint8Array;
}

export function segmentPacker(layout: PackLayout, options: PackOptions = {}): SegmentPacker {
  const p = planPacker(layout, options);
  return {
    kernel: layout.kernel,
    names: layout.names,
    size: layout.segmentSize,
    pack: (args, launch) => p.pack(args, launch).segment,
  };
}

export interface ArgListPacker {
  readonly kernel: string;
  readonly names: readonly string[];
  /** The arguments to set by index; the same objects every call (nothing is allocated). */
  pack(args: Args): readonly SetArg[];
}

/** No slot of an argument list reads the launch. */
const NO_LAUNCH: LaunchInfo = Object.freeze({ global: Object.freeze([1]) });

export function argListPacker(layout: PackLayout, options: PackOptions = {}): ArgListPacker {
  const p = planPacker(layout, options);
  return { kernel: layout.kernel, names: layout.names, pack: (args) => p.pack(args, NO_LAUNCH).args };
}

export interface BindingsPacker {
  readonly kernel: string;
  readonly names: readonly string[];
  /** The push constants, descriptor bindings and spec constants; the same objects every call. */
  pack(args: Args): Packed;
}

/** A packer whose slots read no launch geometry (push constants, descriptors, spec constants). */
export function bindingsPacker(layout: PackLayout, options: PackOptions = {}): BindingsPacker {
  const p = planPacker(layout, options);
  return { kernel: layout.kernel, names: layout.names, pack: (args) => p.pack(args, NO_LAUNCH) };
}
