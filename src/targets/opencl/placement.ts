// Where each clSetKernelArg slot lives and how it is filled: attached by the lowering and by readPlan.
import type { Bare, OpenCLKernelPlan, OpenCLSlot } from '../../abi/plan.js';
import type { PlacedSlot } from '../../layout/placement.js';
import { placeSlot } from '../../abi/slot-shape.js';

/** One clSetKernelArg call: a value's bytes, a local-memory size, or a host object. */
function placed(a: Bare<OpenCLSlot>): PlacedSlot {
  const where = { kind: 'arg-index', index: a.index, size: a.size ?? 0 } as const;
  if (a.kind === 'value') {
    if (!a.layout)
      return {
        where: {
          kind: 'unplaced',
          reason: `argument '${a.name}': a value argument needs a layout, which the plan lacks`,
        },
        fill: { kind: 'zero' },
      };
    return { where, fill: { kind: 'value', param: a.name, layout: a.layout } };
  }
  if (a.kind === 'local') return { where, fill: { kind: 'local-bytes', param: a.name, elementSize: 1 } };
  return { where, fill: { kind: 'handle', param: a.name, resource: a.kind } };
}

/** A kernel whose slots carry their `where` and `fill`. */
export function placeOpenclKernel<
  K extends Omit<OpenCLKernelPlan, 'args'> & { readonly args: readonly Bare<OpenCLSlot>[] },
>(k: K): K & OpenCLKernelPlan {
  for (const a of k.args) {
    const p = placed(a);
    placeSlot<OpenCLSlot>(a, p.where, p.fill);
  }
  return k as K & OpenCLKernelPlan;
}
