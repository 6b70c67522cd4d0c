// What the one packer reads: per kernel, every slot's place (where its bytes or handle go) and
// fill (where they come from), as the plan's slots carry them (src/layout/placement.ts); the block
// sizes come from the plan's kernel. Nothing here or in the packer knows which target a plan came from.
import type { PlacedSlot } from '../layout/placement.js';
import { PackError, RuntimeInputError } from './errors.js';
import { kernelOf } from './launch.js';
import { assertNever } from '../assert-never.js';

export type { GeometryField, Overflow, PlacedSlot, SlotFill, SlotWhere } from '../layout/placement.js';

/** A kernel as the packer reads it: the argument names the caller gives, the sizes of its byte blocks, its slots. */
export interface PackLayout {
  readonly kernel: string;
  readonly names: readonly string[];
  /** Bytes of the argument segment (0 where no slot lives there). */
  readonly segmentSize: number;
  /** Bytes of the push-constant block the kernel's slots fill (0 where none). */
  readonly pushConstantSize: number;
  readonly slots: readonly PlacedSlot[];
}

/** A plan's slot as the packer reads it: its name (for refusals), where it lives, how it is filled. */
export interface PlanSlot extends PlacedSlot {
  readonly name: string;
}

/** The bytes of a kernel's argument segment and push-constant block, as its plan states them. */
export interface BlockSizes {
  readonly segment: number;
  readonly pushConstants: number;
}

/**
 * The argument a fill reads from the caller by name, if any (image properties are read from their image's argument).
 */
function argumentOf(s: PlacedSlot): string | undefined {
  const f = s.fill;
  switch (f.kind) {
    case 'value':
    case 'address':
    case 'handle':
    case 'local-bytes':
    case 'lds-offset':
    case 'ir-value':
      return f.param;
    case 'image-address':
      return f.image;
    case 'lds-size':
    case 'geometry':
    case 'image-size':
    case 'image-format':
    case 'hidden':
    case 'zero':
      return undefined;
    default:
      return assertNever(f);
  }
}

/**
 * Any plan's kernel as the packer reads it: the slots' own `where` and `fill`, the names of the
 * arguments they read, and the block sizes the target states (`blocks`); the push-constant block
 * counts only where a slot lives in it. A slot its target could not place refuses here.
 */
export function packLayout<K extends { readonly name: string; readonly args: readonly PlanSlot[] }>(
  plan: { readonly kernels: readonly K[] },
  kernel: string,
  blocks: (k: K) => BlockSizes,
): PackLayout {
  const k = kernelOf(plan, kernel);
  const names = new Set<string>();
  for (const s of k.args) {
    // A plan parsed from JSON but not read with readPlan: its slots have no place.
    if (!s.where || !s.fill)
      throw new PackError(kernel, s.name, 'the slot has no where and fill (read JSON plans with readPlan)');
    if (s.where.kind === 'unplaced') throw new RuntimeInputError(s.where.reason);
    const n = argumentOf(s);
    if (n !== undefined) names.add(n);
  }
  const { segment, pushConstants } = blocks(k);
  const pushed = k.args.some((s) => s.where.kind === 'push-constant');
  return {
    kernel,
    names: [...names],
    segmentSize: segment,
    pushConstantSize: pushed ? pushConstants : 0,
    slots: k.args,
  };
}
