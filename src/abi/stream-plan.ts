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

/**
 * The most slots a checking pass keeps (`keptIfSmall`): some hundreds of kernels of a real file (darktable's largest
 * has ~60, hashcat's 3), a few MiB of plan; a file of very many kernels passes it within its first thousands.
 */
export const KEPT_SLOTS = 1 << 14;

/**
 * Runs `kernels` to its end (the pass a lowering whose kernels can report makes before anything is written) and
 * returns the plans it made when they hold at most `maxSlots` slots together, so that the writing pass renders them
 * rather than lowering every kernel again; undefined past that, each plan dropped as made (the writing pass makes
 * them again one by one, and a file of very many kernels never holds its plan).
 *
 * `atLeast`: slots the plans will hold at least, known before the pass (their kernels' parameters; one too high only
 * costs the writing pass its lowering). Past `maxSlots`, no plan is kept even for a while: V8 counts how many objects
 * of each allocation site survive a young-generation collection, and the thousands of plans kept before the budget ran
 * out made it allocate every later slot straight into the old generation (pretenuring), where the 190,000-kernel
 * file's two passes of dropped plans stayed until a full collection: cuda's peak was 670-850 MB, 365 MB with none kept
 * (issue 30).
 */
export function keptIfSmall<K extends { readonly args: readonly unknown[] }>(
  kernels: Iterator<K>,
  maxSlots = KEPT_SLOTS,
  atLeast = 0,
): K[] | undefined {
  let kept: K[] | undefined = atLeast > maxSlots ? undefined : [];
  let slots = 0;
  for (let k = kernels.next(); !k.done; k = kernels.next()) {
    if (kept === undefined) continue;
    slots += k.value.args.length;
    if (slots > maxSlots) kept = undefined;
    else kept.push(k.value);
  }
  return kept;
}
