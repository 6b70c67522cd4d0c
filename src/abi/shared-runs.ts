// Runs of slots without a source parameter that a target hands to more than one kernel of a lowering (amdhsa's
// hidden slots per start offset, r600's trailing slots, zebin's payload header). The JSON emitter keeps the text of
// such a run from its first meeting, and renders any other run straight into the kernel's text until it meets it a
// second time: on real code most kernels' implicit slots are their own, and keeping a text for a run never met again
// cost more than writing its slots (src/emit/json.ts, sharedRunText).

/** First slots of runs a target gave to a second kernel. */
const shared = new WeakSet<object>();

/** Says that the run starting at `first` is given to more than one kernel (a target calls it as it hands it on). */
export function markSharedRun(first: object | undefined): void {
  if (first !== undefined) shared.add(first);
}

/** Whether a target said the run starting at `first` is given to more than one kernel. */
export function isSharedRun(first: object): boolean {
  return shared.has(first);
}
