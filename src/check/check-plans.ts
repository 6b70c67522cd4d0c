// `kernarg check`'s comparison: the plan predicted from a source against the plan read from the
// binary compiled from it, through the ABI diff (src/diff), on the facts the binary states.
import { type DiffResult, diffViews } from '../diff/compare.js';
import { abiView } from '../diff/view.js';
import type { AbiPlan } from '../targets/index.js';
import { statedViews } from './stated-facts.js';

/**
 * Every difference between the source's plan and the binary's, classified as `diff` classifies
 * them (the source is the old side, the binary the new). They agree when there is none: a
 * compatible difference (a kernel only the binary has, a renamed argument) is a difference too.
 */
export function checkPlans(source: AbiPlan, binary: AbiPlan): DiffResult {
  const views = statedViews(abiView(source), abiView(binary));
  return diffViews(views.source, views.binary);
}
