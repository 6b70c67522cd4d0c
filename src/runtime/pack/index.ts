export { PackError } from './errors.js';
export { writerFor, writerSource } from './compiled.js';
export { writeInterpreted } from './interpreted.js';
export type { ImageDescription, LaunchInfo, PackOptions } from './launch.js';
export { openclPacker, vulkanPacker, type SetArg } from './packer.js';
export { segmentPacker, type GeometryField, type Overflow, type SegmentFill, type SegmentLayout, type SegmentPacker, type SegmentSlot } from './segment.js';
