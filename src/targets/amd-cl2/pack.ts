import type { AmdCl2Plan, AmdCl2Slot } from '../../abi/plan.js';
import { PackError } from '../../runtime/pack/errors.js';
import type { PackOptions } from '../../runtime/pack/launch.js';
import { type Overflow, type SegmentFill, type SegmentLayout, type SegmentPacker, segmentPacker } from '../../runtime/pack/segment.js';

/** CLRX argument types passed as a device address (pointers, structures by value, images, samplers, queues, events, pipes). */
const BY_ADDRESS = new Set(['structure', 'image1d', 'image1d_array', 'image1d_buffer', 'image2d', 'image2d_array', 'image3d', 'sampler', 'queue', 'clkevent', 'pipe']);

function fillOf(a: AmdCl2Slot, bytes: 4 | 8): SegmentFill {
  const overflow: Overflow | undefined = bytes === 4 ? { path: '(address)', text: 'does not fit 32 bits' } : undefined;
  if (a.param === null) {
    // The six setup arguments: the global offset per axis, then pointers the runtime supplies.
    if (a.name.startsWith('_.global_offset')) return { kind: 'geometry', field: 'global-offset', axis: Number(a.name.slice(-1)) as 0 | 1 | 2, bytes, overflow };
    return { kind: 'hidden', key: a.name, bytes, overflow };
  }
  if (BY_ADDRESS.has(a.argType) || a.argType.endsWith('*') || !a.layout) return { kind: 'address', param: a.name, bytes, overflow };
  return { kind: 'value', param: a.name, layout: a.layout };
}

/** A kernel's argument buffer as the packer reads it. */
export function amdCl2Segment(plan: AmdCl2Plan, kernel: string): SegmentLayout {
  const k = plan.kernels.find((x) => x.name === kernel);
  if (!k) throw new PackError(kernel, '(kernel)', `no kernel named '${kernel}'`);
  const bytes = plan.bits === 64 ? 8 : 4;
  return { kernel, size: k.kernargSize, names: k.args.filter((a) => a.param !== null).map((a) => a.name), slots: k.args.map((a) => ({ offset: a.offset, fill: fillOf(a, bytes) })) };
}

export function amdCl2Packer(plan: AmdCl2Plan, kernel: string, options: PackOptions = {}): SegmentPacker {
  return segmentPacker(amdCl2Segment(plan, kernel), options);
}
