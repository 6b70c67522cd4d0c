import type { SlotFields, SlotLiteral } from '../../abi/slot-shape.js';
import type { AmdCl2Slot } from '../../abi/plan.js';

/** An amd-cl2 slot: every key in one order, `where` and `fill` undefined (src/abi/slot-shape.ts says why). */
export function amdCl2Slot(f: SlotFields<AmdCl2Slot>): SlotLiteral<AmdCl2Slot> {
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
    align: f.align,
    argType: f.argType,
    addressSpace: f.addressSpace,
    access: f.access,
    resourceId: f.resourceId,
    structSize: f.structSize,
    qualifiers: f.qualifiers,
    layout: f.layout,
    where: undefined,
    fill: undefined,
  };
}
