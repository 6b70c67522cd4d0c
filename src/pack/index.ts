export { PackError } from './errors.js';
export { writerFor, writerSource } from './compiled.js';
export { writeInterpreted } from './interpreted.js';
export type { ImageDescription, LaunchInfo, PackOptions } from './launch.js';
export { planPacker, type Descriptor, type Packed, type Packer, type SetArg } from './packer.js';
export {
  packLayout,
  type BlockSizes,
  type GeometryField,
  type Overflow,
  type PackLayout,
  type PlacedSlot,
  type PlanSlot,
  type SlotFill,
  type SlotWhere,
} from './placement.js';
export {
  argListPacker,
  bindingsPacker,
  segmentPacker,
  type ArgListPacker,
  type BindingsPacker,
  type SegmentPacker,
} from './views.js';
export { planPacking, type PackablePlan, type PackerViews, type PackView, type PlanPacking } from './plan-packing.js';
