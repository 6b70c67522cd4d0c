import type { SlotFields, SlotLiteral } from '../../abi/slot-shape.js';
import type { AmdhsaSlot } from '../../abi/plan.js';

/** An amdhsa explicit slot: every key in one order, `where` and `fill` undefined (src/abi/slot-shape.ts says why). */
export function amdhsaSlot(f: SlotFields<AmdhsaSlot>): SlotLiteral<AmdhsaSlot> {
  return {
    name: f.name,
    param: f.param,
    typeName: f.typeName,
    type: f.type,
    role: f.role,
    dim: f.dim,
    host: f.host,
    offset: f.offset,
    size: f.size,
    valueKind: f.valueKind,
    addressSpace: f.addressSpace,
    access: f.access,
    layout: f.layout,
    pointeeAlign: f.pointeeAlign,
    align: f.align,
    where: undefined,
    fill: undefined,
  };
}
