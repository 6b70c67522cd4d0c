// tinytc's stack: every alloca of a kernel placed in one Workgroup array of bytes, as tinytc v0.4's
// set_stack_ptr pass places them (src/pass/stack.cpp: first fit, in program order, each at a multiple of
// its alignment after the allocation before the gap) and its converter declares the array (one OpVariable
// of i8[high-water mark], Alignment 128: the core's alignment, tinytc's choice for Intel GPUs).
import { type Inst, type Region, SCALAR_BYTES, instructions } from '../../frontend/tinytc/ast.js';

/** The Alignment tinytc decorates the stack with. */
export const STACK_ALIGNMENT = 128;

export interface StackLayout {
  /** Each alloca's byte offset in the stack. */
  readonly offsets: ReadonlyMap<Inst, number>;
  /** The stack's size in bytes: the end of the allocation that ends last. */
  readonly size: number;
}

/**
 * The allocas of a body placed as tinytc places them; `elements`: how many elements each spans (the
 * lowering's allocaElements). Every allocation lives to the kernel's end here: kernarg inserts no
 * lifetime_stop, so an alloca of a nested region is not reused after it (more stack, never less correct).
 */
export function stackLayout(body: Region, elements: (inst: Extract<Inst, { op: 'alloca' }>) => number): StackLayout {
  const allocs: { start: number; stop: number }[] = [];
  const offsets = new Map<Inst, number>();
  for (const inst of instructions(body)) {
    if (inst.op !== 'alloca' || inst.type.type.kind !== 'memref') continue;
    const element = inst.type.type.element;
    const alignment = inst.alignment ?? SCALAR_BYTES[element];
    const size = elements(inst) * SCALAR_BYTES[element];
    let ptr = 0;
    let at = 0;
    for (; at < allocs.length; at++) {
      if (allocs[at].start - ptr >= size) break;
      ptr = (1 + Math.floor((allocs[at].stop - 1) / alignment)) * alignment;
    }
    allocs.splice(at, 0, { start: ptr, stop: ptr + size });
    offsets.set(inst, ptr);
  }
  return { offsets, size: allocs.reduce((m, a) => Math.max(m, a.stop), 0) };
}
