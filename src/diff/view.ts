import type { Fact, KernelView, SlotView } from '../abi/plan-view.js';
import { type AbiPlan, targetNamed } from '../targets/index.js';

export type { Fact, KernelView, SlotView } from '../abi/plan-view.js';
export { layoutKey } from '../abi/plan-view.js';

/** A plan as the diff sees it: the target, module facts, kernels. */
export interface AbiView {
  readonly target: AbiPlan['target'];
  /** The slot properties this target has: only these are compared across two targets. */
  readonly vocabulary: readonly string[];
  readonly facts: Readonly<Record<string, Fact>>;
  readonly kernels: readonly KernelView[];
}

/** Reduces a plan to its view, through its target's record (`Target.view`, `Target.vocabulary`). */
export function abiView(plan: AbiPlan): AbiView {
  const target = targetNamed(plan.target);
  if (!target) throw new RangeError(`no target '${plan.target}'`);
  const { facts, kernels } = target.view(plan);
  return { target: plan.target, vocabulary: target.vocabulary, facts, kernels };
}
