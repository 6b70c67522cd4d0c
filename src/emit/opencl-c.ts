import type { KernelModule } from '../model/kernel-module.js';
import { emitKernelStubsC } from './signatures.js';

/**
 * A complete OpenCL C translation unit for the module's kernels, in the calling convention's
 * spelling, with their attributes. Bodies are empty: the tinytc code generator fills them.
 */
export function emitOpenCLC(module: KernelModule): string {
  return emitKernelStubsC(module);
}
