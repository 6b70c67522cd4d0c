import type { SlotFields, SlotLiteral } from '../../abi/slot-shape.js';
import type { CudaSlot } from './plan.js';

/** A cuda `.param` slot: every key in one order, `where` and `fill` undefined (src/abi/slot-shape.ts says why). */
export function cudaSlot(f: SlotFields<CudaSlot>): SlotLiteral<CudaSlot> {
  return {
    name: f.name,
    param: f.param,
    role: f.role,
    dim: f.dim,
    host: f.host,
    ptxName: f.ptxName,
    index: f.index,
    offset: f.offset,
    size: f.size,
    align: f.align,
    ptxType: f.ptxType,
    space: f.space,
    pointeeAlign: f.pointeeAlign,
    typeName: f.typeName,
    type: f.type,
    layout: f.layout,
    where: undefined,
    fill: undefined,
  };
}
