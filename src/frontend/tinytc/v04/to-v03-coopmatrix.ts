import type { Span } from '../../../diagnostics/source.js';
import { type Message, Messages } from '../../../diagnostics/messages.js';
import type { Inst, IrType, Operand, TypedSpan } from '../ast.js';
import { type CoopmatrixType, coopmatrixType, isPowerOfTwo } from '../coopmatrix-layout.js';
import type { Inst04, Literal, Type04, ValueRef } from './ast.js';
import { NotLowered } from './to-v03-spmd.js';
import { CoopmatrixMemory, type CoopmatrixRewriteContext } from './to-v03-coopmatrix-memory.js';
import { mulAdd } from './to-v03-coopmatrix-mul-add.js';

export type { CoopmatrixRewriteContext } from './to-v03-coopmatrix-memory.js';

/**
 * tinytc v0.4's cooperative matrices in the v0.3 tree. A coopmatrix value is each work-item's share of
 * the matrix (coopmatrix-layout.ts): `constant` and `cooperative_matrix_construct` make one whose
 * components all hold a number, `_extract` and `_insert` read and replace a component, and every
 * component-wise instruction (arithmetic, arith-unary, cast, `_scale`) becomes what tinytc's converter
 * makes of it (src/spv/coopmatrix_impl.cpp at v0.4.0): a matrix with no components yet, then per
 * component an extract of each operand, the scalar instruction, and an insert. The scalar instruction
 * goes through the translator's own rewrite, so every number type and every spelling v0.3 lacks (min,
 * max, abs) works in a matrix as it does alone. Load and store (to-v03-coopmatrix-memory.ts) read and write each
 * work-item's own entries; mul_add (to-v03-coopmatrix-mul-add.ts) broadcasts B's components over the subgroup.
 * Prefetch is dropped, as tinytc drops it; reduce, apply and the atomic forms are not lowered yet (KA2420).
 */

/** A refusal of a cooperative matrix by the code generators, with its own message (toV03 reports it). */
export class CoopmatrixRefused extends NotLowered {
  constructor(
    readonly diagnostic: Message,
    readonly args: readonly (string | number)[],
    span: Span,
  ) {
    super(args.join(' '), span);
  }
}

/** The v0.3 type of a v0.4 coopmatrix type: laid out by the function's subgroup size, which must be stated. */
export function coopmatrix03(
  t: Extract<Type04, { kind: 'coopmatrix' }>,
  span: Span,
  subgroupSize: number | null,
): CoopmatrixType {
  if (subgroupSize === null) throw new CoopmatrixRefused(Messages.ir04CoopmatrixNeedsSubgroupSize, [], span);
  if (!isPowerOfTwo(t.rows) || !isPowerOfTwo(subgroupSize))
    throw new CoopmatrixRefused(Messages.ir04CoopmatrixNotPowerOfTwo, [t.rows, subgroupSize], span);
  return coopmatrixType(t.component, [t.rows, t.cols], t.use, subgroupSize);
}

const asCoop = (t: TypedSpan): CoopmatrixType | null => (t.type.kind === 'coopmatrix' ? t.type : null);

/** A literal as the immediate operand the v0.3 tree writes (a bool never has a coopmatrix). */
function immediate(l: Literal, span: Span): Operand {
  if (l.kind === 'int') return { kind: 'int', value: l.value, span };
  if (l.kind === 'bool') return { kind: 'int', value: l.value ? 1n : 0n, span };
  if (l.kind === 'float') return { kind: 'float', value: l.value, span };
  return { kind: 'complex', re: l.re, im: l.im, span };
}

export class CoopmatrixRewrite {
  constructor(private readonly tr: CoopmatrixRewriteContext) {}

  /** `%m = constant 1.0 : coopmatrix<…>`: a matrix whose components all hold the constant. */
  constant(inst: Extract<Inst04, { form: 'constant' }>, type: CoopmatrixType): Inst[] {
    const ty: TypedSpan = { type, span: inst.type.span };
    return [
      {
        op: 'coopmatrix_construct',
        operand: immediate(inst.literal, inst.literalSpan),
        constant: true,
        type: ty,
        results: this.results(inst),
        span: inst.span,
      },
    ];
  }

  /** A `cooperative_matrix_*` instruction (form `matrix`), or null when it is not lowered. */
  matrix(inst: Extract<Inst04, { form: 'matrix' }>, type: (t: Type04, span: Span) => IrType): Inst[] | null {
    const tr = this.tr;
    switch (inst.op) {
      case 'cooperative_matrix_construct': {
        const to = inst.type && type(inst.type.type, inst.type.span);
        if (!inst.type || to?.kind !== 'coopmatrix' || inst.values.length !== 1) return null;
        const ty: TypedSpan = { type: to, span: inst.type.span };
        return [
          {
            op: 'coopmatrix_construct',
            operand: tr.operand(inst.values[0]),
            constant: false,
            type: ty,
            results: this.results(inst),
            span: inst.span,
          },
        ];
      }
      case 'cooperative_matrix_extract': {
        const m = inst.values[0];
        const ty = m && tr.typed(m);
        const c = ty && asCoop(ty);
        if (!c || inst.ints.length !== 1) return null;
        const index = this.index(inst.ints[0], c, inst.span);
        return [
          {
            op: 'coopmatrix_extract',
            operand: tr.operand(m),
            index,
            type: ty,
            results: this.results(inst),
            span: inst.span,
          },
        ];
      }
      case 'cooperative_matrix_insert': {
        const [v, m] = inst.values;
        const ty = m && tr.typed(m);
        const c = ty && asCoop(ty);
        if (!v || !c || inst.ints.length !== 1) return null;
        const index = this.index(inst.ints[0], c, inst.span);
        return [
          {
            op: 'coopmatrix_insert',
            value: tr.operand(v),
            operand: tr.operand(m),
            index,
            type: ty,
            results: this.results(inst),
            span: inst.span,
          },
        ];
      }
      case 'cooperative_matrix_scale': {
        // `scale %a, %b`: %a times each component of %b (tinytc's make_binary_op mul, a first).
        const [a, b] = inst.values;
        const ty = b && tr.typed(b);
        const c = ty && asCoop(ty);
        if (!a || !c) return null;
        return this.componentwise(inst, c, ty.span, (v, span) => ({
          op: 'mul',
          form: 'binary',
          a,
          b: this.extracted(b, c, v, span),
        }));
      }
      // Each work-item reads or writes its own components (to-v03-coopmatrix-memory.ts); the atomic forms are not lowered.
      case 'cooperative_matrix_load': {
        const to = inst.type && type(inst.type.type, inst.type.span);
        if (to?.kind !== 'coopmatrix') return null;
        return new CoopmatrixMemory(tr, inst.span).load(inst, to);
      }
      case 'cooperative_matrix_store':
        return new CoopmatrixMemory(tr, inst.span).store(inst);
      // A hint the manual lets a compiler disregard; tinytc v0.4.0's converter emits nothing for it either.
      case 'cooperative_matrix_prefetch':
        return [];
      case 'cooperative_matrix_mul_add': {
        const to = inst.type && type(inst.type.type, inst.type.span);
        return to?.kind === 'coopmatrix' ? mulAdd(tr, inst, to) : null;
      }
      default:
        return null;
    }
  }

  /** `add`, `min`, … of two coopmatrices, component by component. */
  binary(inst: Extract<Inst04, { form: 'binary' }>, result: CoopmatrixType): Inst[] {
    const ta = this.tr.typed(inst.a);
    const tb = this.tr.typed(inst.b);
    const ca = asCoop(ta);
    const cb = asCoop(tb);
    if (!ca || !cb) throw new NotLowered(`${inst.op} of a coopmatrix and a number`, inst.span);
    return this.componentwise(inst, result, inst.type.span, (v, span) => ({
      op: inst.op,
      form: 'binary',
      a: this.extracted(inst.a, ca, v, span),
      b: this.extracted(inst.b, cb, v, span),
    }));
  }

  /** `neg`, `abs`, `cast`, … of a coopmatrix, component by component (a cast from matrix_acc to matrix_b reorders). */
  unary(inst: Extract<Inst04, { form: 'unary' }>, result: CoopmatrixType): Inst[] {
    const ta = this.tr.typed(inst.a);
    const ca = asCoop(ta);
    if (!ca) throw new NotLowered(`${inst.op} of a number to a coopmatrix`, inst.span);
    const from = inst.op === 'cast' ? castSource(ca, result) : (v: number) => v;
    const component: Type04 = { kind: 'number', name: result.component as never };
    return this.componentwise(inst, result, inst.type.span, (v, span) => ({
      op: inst.op,
      form: 'unary',
      a: this.extracted(inst.a, ca, from(v), span),
      type: { type: component, span: inst.type.span },
    }));
  }

  /** The result: a matrix with no components yet, then per component the scalar instruction and an insert. */
  private componentwise(
    inst: Inst04,
    result: CoopmatrixType,
    typeSpan: Span,
    scalar: (v: number, span: Span) => object,
  ): Inst[] {
    const tr = this.tr;
    const r = inst.results[0];
    if (!r || inst.results.length !== 1) throw new NotLowered(inst.op, inst.span);
    const ty: TypedSpan = { type: result, span: typeSpan };
    const out: Inst[] = [];
    const before: Inst[] = [];
    let acc = tr.made(`${r.name}_undef`, result, r.span);
    before.push({
      op: 'coopmatrix_construct',
      operand: null,
      constant: false,
      type: ty,
      results: [this.name(acc)],
      span: inst.span,
    });
    const n = result.layout.length;
    for (let v = 0; v < n; v++) {
      const key = tr.made(`${r.name}_${v}`, { kind: 'scalar', name: result.component }, r.span);
      const s = { ...scalar(v, inst.span), span: inst.span, flags: [], results: [{ name: key.name, span: r.span }] };
      out.push(...this.extracts.splice(0), ...tr.rewrite(s as unknown as Inst04));
      // The last insert is the instruction's result; the others are values of the rewrite's own.
      const next =
        v === n - 1 ? { name: tr.define(r.name), span: r.span } : this.name(tr.made(`${r.name}_m${v}`, result, r.span));
      out.push({
        op: 'coopmatrix_insert',
        value: tr.operand(key),
        operand: tr.operand(acc),
        index: v,
        type: ty,
        results: [next],
        span: inst.span,
      });
      acc = { kind: 'value', name: next.name, span: r.span };
    }
    return [...before, ...out];
  }

  /** Extracts made for the scalar instruction being built (flushed before it). */
  private readonly extracts: Inst[] = [];

  /** Component v of the matrix `m`, extracted into a value of the rewrite's own. */
  private extracted(m: ValueRef, c: CoopmatrixType, v: number, span: Span): ValueRef {
    const tr = this.tr;
    const key = tr.made(`${m.name}_${v}`, { kind: 'scalar', name: c.component }, span);
    this.extracts.push({
      op: 'coopmatrix_extract',
      operand: tr.operand(m),
      index: v,
      type: tr.typed(m),
      results: [this.name(key)],
      span,
    });
    return key;
  }

  private name(v: ValueRef): { name: string; span: Span } {
    const o = this.tr.operand(v);
    return { name: (o as { name: string }).name, span: v.span };
  }

  private results(inst: Inst04): { name: string; span: Span }[] {
    return inst.results.map((r) => ({ name: this.tr.define(r.name), span: r.span }));
  }

  /** A component index of the work-item vector: tinytc refuses one outside it (ir_out_of_bounds). */
  private index(i: number, c: CoopmatrixType, span: Span): number {
    if (i < 0 || i >= c.layout.length)
      throw new CoopmatrixRefused(Messages.ir04CoopmatrixIndex, [i, c.layout.length], span);
    return i;
  }
}

/**
 * Which component of the source a cast's component v reads. A cast from matrix_acc to matrix_b reorders
 * when matrix_b interleaves row blocks (tinytc's cast, for K₁ > 1); every other cast keeps the order.
 */
export function castSource(from: CoopmatrixType, to: CoopmatrixType): (v: number) => number {
  if (!(to.use === 'matrix_b' && from.use === 'matrix_acc')) return (v) => v;
  const rl = to.layout;
  const al = from.layout;
  return (v) => {
    const k1 = v % rl.blocks1;
    const j = Math.floor(v / rl.blocks1) % rl.cols;
    const k2 = Math.floor(v / (rl.blocks1 * rl.cols));
    const k = k1 + k2 * rl.blocks1;
    return (k % al.blocks1) + j * al.blocks1 + Math.floor(k / al.blocks1) * al.blocks1 * al.cols;
  };
}
