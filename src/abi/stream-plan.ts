// A plan whose kernels may be made as they are read: what the streamed formats render. A whole
// plan is one (its kernels an array); a kernel-at-a-time lowering gives one whose kernels are
// lowered as the renderer reaches them and dropped once rendered, so a file of very many kernels
// never holds its whole plan (issue 30).
import type { PlanBase } from './plan.js';

/** Kernels read once, in order: an array, or a sequence that makes each as it is iterated. */
export interface KernelSeq<K> extends Iterable<K> {
  /** How many there are, known before any is made (JSON writes `[]` for none). */
  readonly length: number;
}

/** A plan with its kernels as a `KernelSeq`: every other field is decided before the first kernel. */
export type StreamPlan<P extends PlanBase> = Omit<P, 'kernels'> & { readonly kernels: KernelSeq<P['kernels'][number]> };

/** The kernels `make` returns an iterator of, `length` of them, made anew each time they are iterated. */
export function kernelSeq<K>(length: number, make: () => Iterator<K>): KernelSeq<K> {
  return { length, [Symbol.iterator]: make };
}
