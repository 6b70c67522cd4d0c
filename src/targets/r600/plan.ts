import type { KernelPlanBase, SlotBase } from '../../abi/plan.js';
import type { ValueLayout } from '../../layout/value-layout.js';

/** One argument of the kernel after the R600 image pass, plus clover's implicit ones. */
export interface R600Slot extends SlotBase {
  /** Byte offset in the r600 kernel input buffer (explicit arguments start after 36 bytes of implicit dwords). */
  readonly offset: number;
  readonly size: number;
  /** LLVM type of the argument after the pass (handles and the inserted arrays). */
  readonly irType?: string;
  readonly typeName: string;
  readonly accessQual?: string;
  /** Images: index among read-only or write-only images; samplers: index among samplers. */
  readonly resourceId?: number;
  /** For `image-size` and `image-format` slots: the image argument they describe. */
  readonly image?: string;
  /** What the runtime writes, in order: width/height/depth or channel data type/order (cl_uint each). */
  readonly fields?: readonly string[];
  readonly layout?: ValueLayout;
}

export interface R600KernelPlan extends KernelPlanBase<R600Slot> {
  readonly inputSize: number;
}

export interface R600Plan {
  readonly target: 'r600';
  readonly mcpu: 'cypress';
  readonly kernels: readonly R600KernelPlan[];
}
