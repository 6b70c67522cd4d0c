import { assertNever } from '../../assert-never.js';
import { SCALAR_BYTES } from '../../frontend/tinytc/ast.js';
import { Op } from '../../emit/spirv/spec.js';
import type { Gen, SExt, SView, Sym } from './gen.js';

/** What the vector loop needs of collective.ts's SCollectiveContext (which has it all). */
export interface VectorContext {
  readonly g: Gen;
  readonly lid: Sym;
  readonly wg: readonly [number, number];
  vectorBuffer(variable: number, t: SView['element'], count: number): number;
}

/** alpha or beta as collective.ts's SScalar: its id, and its value when an immediate. */
type Scalar = { readonly id: number; readonly imm?: number };

/** Vulkan's Shader capability has vectors of 2, 3 and 4 components (8 and 16 need Vector16, a Kernel capability). */
const MAX_COMPONENTS = 4;

/**
 * Whether `b := alpha a + beta b` may read and write whole vectors: f32 or f64 on both sides, stride 1,
 * in global memory (a storage buffer whose floats are stored as themselves, not as the integers of
 * compare-and-swap loops; a buffer address; an OpenCL kernel's pointer). Whether the offsets suit
 * the vectors is the run-time check's.
 */
export function vectorizable(a: SView, b: SView): boolean {
  const floating = b.element === 'f32' || b.element === 'f64';
  return floating && a.element === b.element && globalContiguous(a) && globalContiguous(b);
}

/** A view in global memory, first stride 1, floats stored as themselves (vectorizable's operands). */
export const globalContiguous = (v: SView): boolean =>
  v.space === 'global' &&
  v.stride[0] === 1 &&
  (v.base.kind !== 'variable' || (v.base.sc === 'StorageBuffer' && v.base.wrapped && !v.base.bits));

/** How one operand is read and written as vectors of w elements, once its offset is known to suit them. */
export interface VectorOperand {
  /** Vector `k` (elements k w … k w + w − 1 from the view's first): a pointer and its alignment. */
  pointer(k: SExt): { ptr: number; align?: number };
}

/**
 * The run-time condition under which a view's elements can be read as vectors of w elements (an id,
 * or a boolean when it is known statically), and how to reach them then. A storage buffer is read
 * through its alias as a runtime array of vectors (interface.ts), element offset / w being the
 * vector's index: the offset must be a multiple of w. A buffer address is converted to a pointer to
 * the vector with its alignment (w × the element's size) as the Aligned operand: the address of the
 * view's first element must be a multiple of that.
 */
export function vectorOperand(
  ctx: VectorContext,
  v: SView,
  w: number,
): { aligned: number | boolean; operand: () => VectorOperand } {
  const g = ctx.g;
  const vec = g.b.typeVector(g.type(v.element), w);
  const base = v.base;
  const multipleOf = (x: number, m: number) =>
    g.f.op(Op.IEqual, g.boolt, g.f.op(Op.BitwiseAnd, g.i64t, x, g.i64(m - 1)), g.i64(0));
  switch (base.kind) {
    case 'variable': {
      const aligned = typeof v.offset === 'number' ? v.offset % w === 0 : multipleOf(g.idx(v.offset), w);
      return {
        aligned,
        operand: () => {
          const alias = ctx.vectorBuffer(base.variable, v.element, w);
          const first = typeof v.offset === 'number' ? v.offset / w : g.ext.div(v.offset, w);
          const ptrType = g.b.typePointer('StorageBuffer', vec);
          return {
            pointer: (k) => ({ ptr: g.f.op(Op.AccessChain, ptrType, alias, g.u32(0), g.idx(g.ext.add(first, k))) }),
          };
        },
      };
    }
    case 'address': {
      const size = SCALAR_BYTES[v.element];
      const start = g.idx(g.ext.add({ id: base.addr }, g.ext.mul(v.offset, size)));
      return {
        aligned: multipleOf(start, w * size),
        operand: () => {
          const ptrType = g.b.typePointer('PhysicalStorageBuffer', vec);
          return {
            pointer: (k) => ({
              ptr: g.f.op(Op.ConvertUToPtr, ptrType, g.idx(g.ext.add({ id: start }, g.ext.mul(k, w * size)))),
              align: w * size,
            }),
          };
        },
      };
    }
    case 'pointer': {
      // As a buffer address, through the pointers of an OpenCL kernel: the first element's pointer,
      // its address tested for the vector's alignment, and cast to a pointer to vectors.
      const size = SCALAR_BYTES[v.element];
      const first = g.f.op(Op.InBoundsPtrAccessChain, g.pointerTo(v.element), base.ptr, g.idx(v.offset));
      return {
        aligned: multipleOf(g.f.op(Op.ConvertPtrToU, g.i64t, first), w * size),
        operand: () => {
          const ptrType = g.b.typePointerAligned('CrossWorkgroup', vec, w * size);
          const vectors = g.f.op(Op.Bitcast, ptrType, first);
          return {
            pointer: (k) => ({ ptr: g.f.op(Op.InBoundsPtrAccessChain, ptrType, vectors, g.idx(k)), align: w * size }),
          };
        },
      };
    }
    default:
      return assertNever(base);
  }
}

/** a ∧ b, where either may be known statically. */
export function both(ctx: VectorContext, a: number | boolean, b: number | boolean): number | boolean {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  return ctx.g.and(a, b);
}

/**
 * axpby of contiguous vectors, v elements per step (as the OpenCL C printer's vloadN/vstoreN): where
 * both views' first elements suit vectors (vectorOperand), each work-item takes whole steps of v
 * elements in turn (v / w vector loads of a, of b unless beta is 0, then as many stores, w at most 4
 * components each), then the last n mod v elements one by one; elsewhere the scalar loop does it
 * all. Each element is computed as the scalar loop computes it: alpha × a, plus beta × b (plus b when
 * beta is 1; b unread when beta is 0). v = 1 is the scalar loop.
 */
export function vectorAxpby(
  ctx: VectorContext,
  v: number,
  alpha: Scalar,
  a: SView,
  beta: Scalar,
  b: SView,
  scalar: (from: SExt) => void,
): void {
  const g = ctx.g;
  const n = b.shape[0];
  if (v === 1 || (typeof n === 'number' && n < v)) return scalar(0);
  const w = Math.min(v, MAX_COMPONENTS);
  const [va, vb] = [vectorOperand(ctx, a, w), vectorOperand(ctx, b, w)];
  const aligned = both(ctx, va.aligned, vb.aligned);
  if (aligned === false) return scalar(0);
  const vector = () => {
    const [pa, pb] = [va.operand(), vb.operand()];
    const vec = g.b.typeVector(g.type(b.element), w);
    const steps = typeof n === 'number' ? Math.floor(n / v) : g.ext.div(n, v);
    g.forIndex(ctx.lid, steps, ctx.wg[0] * ctx.wg[1], (step: Sym) => {
      // The step's vectors: v / w of them from vector step × v / w on.
      const first = g.ext.mul(step, v / w);
      const at = Array.from({ length: v / w }, (_, r) => g.ext.add(first, r));
      const load = (p: VectorOperand) =>
        at.map((i) => {
          const { ptr, align } = p.pointer(i);
          return g.f.load(vec, ptr, align);
        });
      const xs = load(pa);
      const ys = beta.imm === 0 ? [] : load(pb);
      const values = xs.map((x, r) => {
        const value = g.f.op(Op.VectorTimesScalar, vec, x, alpha.id);
        if (beta.imm === 0) return value;
        return g.f.op(Op.FAdd, vec, value, beta.imm === 1 ? ys[r] : g.f.op(Op.VectorTimesScalar, vec, ys[r], beta.id));
      });
      at.forEach((i, r) => {
        const { ptr, align } = pb.pointer(i);
        g.f.store(ptr, values[r], align);
      });
    });
    if (typeof n !== 'number' || n % v !== 0) scalar(g.ext.mul(steps, v));
  };
  if (aligned === true) vector();
  else g.f.ifThen(aligned, vector, () => scalar(0));
}
