/**
 * The target registry: every target kernarg lowers to, in the order --help and the README list
 * them (in the spirit of clspv's PassRegistry.def). Adding a target is a folder beside this file
 * and one line here.
 */
import type { Target } from './target.js';
import type { TargetName } from './target-names.js';
import { openclTarget } from './opencl/index.js';
import { vulkanTarget } from './vulkan/index.js';
import { amdhsaTarget } from './amdhsa/index.js';
import { amdCl2Target } from './amd-cl2/index.js';
import { llvmTarget } from './llvm/index.js';
import { r600Target } from './r600/index.js';
import { cudaTarget } from './cuda/index.js';
import { zebinTarget } from './zebin/index.js';

export const TARGET_RECORDS = [
  openclTarget,
  vulkanTarget,
  amdhsaTarget,
  amdCl2Target,
  llvmTarget,
  r600Target,
  cudaTarget,
  zebinTarget,
] as const;

type PlanOf<T> = T extends Target<infer P> ? P : never;
/** The plan of any registered target, told apart by `target`. */
export type AbiPlan = PlanOf<(typeof TARGET_RECORDS)[number]>;
export type { TargetName };
export type AnyTarget = Target<AbiPlan>;

// The names the records' plans carry are exactly TARGET_NAMES: a target registered without its name
// there, or named there without a record, fails to compile here.
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const NAMES_MATCH: SameNames<AbiPlan['target'], TargetName> = true;
void NAMES_MATCH;

export const TARGETS: readonly TargetName[] = TARGET_RECORDS.map((t) => t.name);

/** The record of a target by name, or undefined. */
export function targetNamed(name: string): AnyTarget | undefined {
  return TARGET_RECORDS.find((t) => t.name === name);
}

/** A plan as tables, one per kernel (the `table` format). */
export function emitTable(plan: AbiPlan): string {
  const target = targetNamed(plan.target);
  if (!target) throw new RangeError(`no target '${plan.target}'`);
  return target.table(plan);
}
