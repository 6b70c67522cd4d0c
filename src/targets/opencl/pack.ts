import type { OpenCLPlan, OpenCLSlot } from '../../abi/plan.js';
import { RuntimeInputError } from '../../runtime/pack/errors.js';
import { type PackOptions, kernelOf } from '../../runtime/pack/launch.js';
import type { PackLayout, PlacedSlot } from '../../runtime/pack/placement.js';
import { type ArgListPacker, argListPacker } from '../../runtime/pack/views.js';

/** One clSetKernelArg call: a value's bytes, a local-memory size, or a host object. */
function placed(a: OpenCLSlot): PlacedSlot {
  const where = { kind: 'arg-index', index: a.index, size: a.size ?? 0 } as const;
  if (a.kind === 'value') {
    if (!a.layout) throw new RuntimeInputError(`argument '${a.name}': a value argument needs a layout, which the plan lacks`);
    return { where, fill: { kind: 'value', param: a.name, layout: a.layout } };
  }
  if (a.kind === 'local') return { where, fill: { kind: 'local-bytes', param: a.name, elementSize: 1 } };
  return { where, fill: { kind: 'handle', param: a.name, resource: a.kind } };
}

/** A kernel's clSetKernelArg list as the packer reads it. */
export function openclArgList(plan: OpenCLPlan, kernel: string): PackLayout {
  const k = kernelOf(plan, kernel);
  return { kernel, names: k.args.map((a) => a.name), segmentSize: 0, pushConstantSize: 0, slots: k.args.map(placed) };
}

export function openclPacker(plan: OpenCLPlan, kernel: string, options: PackOptions = {}): ArgListPacker {
  return argListPacker(openclArgList(plan, kernel), options);
}
