export { PackError } from './errors.js';
export { writerFor, writerSource } from './compiled.js';
export { writeInterpreted } from './interpreted.js';
export { amdCl2Packer, amdhsaPacker, openclPacker, r600Packer, vulkanPacker, type ImageDescription, type LaunchInfo, type PackOptions, type SetArg } from './packer.js';
