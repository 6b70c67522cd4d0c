// The names of the registered targets, as a type the library's callers are checked against: a
// misspelled `target` fails to compile. The registry (index.ts) checks that this list and its
// records name the same targets, so adding a target without its name here does not compile.

export const TARGET_NAMES = ['opencl', 'vulkan', 'amdhsa', 'amd-cl2', 'llvm', 'r600', 'cuda', 'zebin'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];
