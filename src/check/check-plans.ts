// `kernarg check`'s comparison: the plan predicted from a source against the plan read from the
// binary compiled from it, through the ABI diff (src/diff), on the facts the binary states.
import { type DiffResult, diffViews } from '../diff/compare.js';
import { abiView } from '../diff/view.js';
import type { AbiPlan } from '../targets/index.js';
import { leavesAgree } from './layout-leaves.js';
import { statedViews } from './stated-facts.js';

/**
 * The binary's plan with a by-value record's layout replaced by the source's where the two hold
 * the same bytes leaf by leaf (an OpenCL SPIR-V struct is LLVM's lowering of the source's: padding
 * members, a union as one member), so the ABI diff sees no difference there.
 */
function withAgreeingRecords(source: AbiPlan, binary: AbiPlan): AbiPlan {
  if (source.target !== 'opencl' || binary.target !== 'opencl') return binary;
  const byName = new Map(source.kernels.map((k) => [k.name, k]));
  return {
    ...binary,
    kernels: binary.kernels.map((k) => {
      const src = byName.get(k.name);
      if (!src) return k;
      return {
        ...k,
        args: k.args.map((a) => {
          const s = src.args.find((x) => x.param === a.param && x.param !== null);
          return s?.layout && a.layout && leavesAgree(s.layout, a.layout) ? { ...a, layout: s.layout } : a;
        }),
      };
    }),
  };
}

/**
 * Every difference between the source's plan and the binary's, classified as `diff` classifies
 * them (the source is the old side, the binary the new). They agree when there is none: a
 * compatible difference (a kernel only the binary has, a renamed argument) is a difference too.
 */
export function checkPlans(source: AbiPlan, binary: AbiPlan): DiffResult {
  const views = statedViews(abiView(source), abiView(withAgreeingRecords(source, binary)));
  return diffViews(views.source, views.binary);
}
