import { type Func, type Inst, type MemrefType, type Region } from '../frontend/tinytc/ast.js';
import type { ValueTypes } from '../frontend/tinytc/check.js';
import type { FunctionInfo } from '../model/kernel-module.js';
import { type AtomicMode, atomicMode } from './atomic-mode.js';
import { type Fence, placeBarriers } from './barriers.js';
import { allocaElements } from './dope.js';
import type { WorkGroupChoice } from './work-group-size.js';

/** A dope-vector entry: static (a number) or the calling-convention slot that holds it. */
export type SlotExt = number | { readonly slot: string };

/** Where a tinytc parameter's parts come from, by the calling convention's slot names. */
export type ParamBinding =
  | { readonly kind: 'scalar'; readonly slot: string }
  | {
      readonly kind: 'memref';
      readonly data: string;
      readonly type: MemrefType;
      readonly shape: readonly SlotExt[];
      readonly stride: readonly SlotExt[];
    }
  | {
      readonly kind: 'group';
      readonly table: string;
      readonly memref: MemrefType;
      readonly shape: readonly SlotExt[];
      readonly stride: readonly SlotExt[];
      readonly offset: SlotExt;
      /** The member count: static, or the v0.4 calling convention's size argument (v0.3's groups have none). */
      readonly size?: SlotExt;
    };

/**
 * One tinytc function with every backend-neutral decision made: its work-group size, where its
 * parameters' parts are, where barriers go and over which memories, how each alloca is sized, how
 * each atomic update combines, and which stores one invocation does for all. The OpenCL C and
 * SPIR-V printers read this; the dope rules (dope.ts) and the GEMM tile (tiling.ts) are applied
 * by both to the views they track.
 */
export interface LoweredKernel {
  readonly func: Func;
  readonly types: ValueTypes;
  readonly wg: readonly [number, number];
  /** The policy chose `wg` (the function gives no work_group_size). */
  readonly wgChosen: boolean;
  readonly params: ReadonlyMap<string, ParamBinding>;
  readonly barriers: ReadonlyMap<Inst, Fence>;
  readonly allocaElements: ReadonlyMap<Inst, number>;
  readonly atomicModes: ReadonlyMap<Inst, AtomicMode>;
  /** Stores outside every foreach: tinytc has all work-items store the same value, which races with
   * other work-items' loads; one work-item stores and barriers order the rest. */
  readonly storeByFirst: ReadonlySet<Inst>;
}

/** `choice`: the policy's work-group size (null for an empty body, which runs as 1 × 1). */
export function lowerKernel(
  func: Func,
  types: ValueTypes,
  info: FunctionInfo,
  choice: WorkGroupChoice | null,
): LoweredKernel {
  const slot = (argIndex: number, role: string, dim?: number) =>
    info.params.find((p) => p.origin?.argIndex === argIndex && p.origin.role === role && p.origin.dim === dim)!.name;
  const params = new Map<string, ParamBinding>();
  func.params.forEach((p, i) => {
    const t = p.type;
    const ext = (d: number | null, role: string, j?: number): SlotExt => d ?? { slot: slot(i, role, j) };
    if (t.kind === 'scalar') params.set(p.name, { kind: 'scalar', slot: slot(i, 'value') });
    else if (t.kind === 'memref')
      params.set(p.name, {
        kind: 'memref',
        data: slot(i, 'data'),
        type: t,
        shape: t.shape.map((d, j) => ext(d, 'shape', j)),
        stride: t.stride.map((d, j) => ext(d, 'stride', j)),
      });
    else if (t.kind === 'group') {
      const m = t.memref;
      params.set(p.name, {
        kind: 'group',
        table: slot(i, 'data'),
        memref: m,
        shape: m.shape.map((d, j) => ext(d, 'shape', j)),
        stride: m.stride.map((d, j) => ext(d, 'stride', j)),
        offset: ext(t.offset, 'offset'),
        ...(t.size !== undefined ? { size: ext(t.size, 'size') } : {}),
      });
    }
  });
  const allocas = new Map<Inst, number>();
  const modes = new Map<Inst, AtomicMode>();
  const storeByFirst = new Set<Inst>();
  const walk = (r: Region, spmd: boolean) => {
    for (const inst of r.body) {
      if (inst.op === 'alloca') {
        const m = inst.type.type as MemrefType;
        allocas.set(inst, allocaElements(m.shape, m.stride));
      } else if (inst.op === 'store' && !spmd) storeByFirst.add(inst);
      else if (inst.op === 'blas' && inst.atomic) {
        const beta = inst.operands[inst.operands.length - 2];
        modes.set(inst, atomicMode(beta.kind === 'value' || beta.kind === 'complex' ? undefined : Number(beta.value)));
      } else if (inst.op === 'if') {
        walk(inst.then, spmd);
        if (inst.else) walk(inst.else, spmd);
      } else if (inst.op === 'for' || inst.op === 'foreach' || inst.op === 'parallel')
        walk(inst.body, spmd || inst.op !== 'for');
    }
  };
  walk(func.body, false);
  return {
    func,
    types,
    wg: choice?.size ?? [1, 1],
    wgChosen: choice?.chosen ?? false,
    params,
    barriers: placeBarriers(func),
    allocaElements: allocas,
    atomicModes: modes,
    storeByFirst,
  };
}
