// The name LLVM's NVPTX backend gives a kernel's `.param`: `<kernel>_param_<n>`. A lowered cuda plan leaves it out of
// its slots (it is the kernel's name, where everything else about a slot is its parameter's), so kernels of one shape
// can share one slot list (kernel-shape-memo.ts); the formats that print it (`--format ptx`, JSON's `ptxName`) make it
// from the kernel's name here. A plan read from PTX or JSON states it on each slot.

/** `<kernel>_param_<index>`, as NVPTXAsmPrinter names a kernel's parameters. */
export function ptxParamName(kernel: string, index: number): string {
  return `${kernel}_param_${index}`;
}

/** A cuda slot's PTX name: the one it states, else the backend's name for its index. */
export function ptxNameOf(kernel: string, slot: { readonly ptxName?: string; readonly index: number }): string {
  return slot.ptxName ?? ptxParamName(kernel, slot.index);
}
