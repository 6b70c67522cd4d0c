import type { Span } from '../../../diagnostics/source.js';
import type { CoopmatrixType, Inst, IrType, Operand, ScalarTypeName, TypedSpan } from '../ast.js';
import type { Inst04 } from './ast.js';
import type { CoopmatrixRewriteContext } from './to-v03-coopmatrix-memory.js';
import { NotLowered } from './to-v03-spmd.js';

/**
 * `cooperative_matrix_mul_add %a, %b, %c` (D = AB + C) as tinytc v0.4.0's converter computes it
 * (src/spv/coopmatrix_impl.cpp, mul_add): the rows of A, C and D are multiples of the subgroup size, so lane p
 * holds row p of each row block; for each column n of D and each k, the lane multiplies its A[p, k] with B[k, n],
 * which lane L mod S holds as its component ⌊L / S⌋ (L = B's linear index of (k, n)) and broadcasts, and adds
 * the product to C[p, n], in C's component type (A and B are converted to it first). Complex operands are not
 * lowered (tinytc sums their real and imaginary products apart).
 */

/** tinytc's component number of (column, row block) in a layout (coopmatrix_layout::component_no). */
function componentNo(t: CoopmatrixType, col: number, block: number): number {
  const l = t.layout;
  const block1 = block % l.blocks1;
  const block2 = Math.floor(block / l.blocks1);
  return block1 + col * l.blocks1 + block2 * l.blocks1 * (l.length / l.blocks);
}

const isComplex = (t: ScalarTypeName) => t === 'c32' || t === 'c64';

export function mulAdd(
  tr: CoopmatrixRewriteContext,
  inst: Extract<Inst04, { form: 'matrix' }>,
  result: CoopmatrixType,
): Inst[] {
  const [av, bv, cv] = inst.values;
  const r = inst.results[0];
  const span = inst.span;
  if (!av || !bv || !cv || !r) throw new NotLowered(inst.op, span);
  const [at, bt, ct] = [av, bv, cv].map((v) => tr.typed(v).type);
  if (at.kind !== 'coopmatrix' || bt.kind !== 'coopmatrix' || ct.kind !== 'coopmatrix')
    throw new NotLowered(inst.op, span);
  const s = result.subgroupSize;
  if (at.shape[0] % s || ct.shape[0] % s || result.shape[0] % s)
    throw new NotLowered(`${inst.op} of matrices whose rows are not a multiple of the subgroup size`, span);
  if ([at, bt, ct, result].some((t) => isComplex(t.component)))
    throw new NotLowered(`${inst.op} of complex matrices`, span);
  const out: Inst[] = [];
  const fresh = (base: string, type: IrType) => {
    const o = tr.operand(tr.made(base, type, span));
    return { result: { name: (o as { name: string }).name, span }, operand: o };
  };
  const emit = (base: string, type: IrType, x: object): Operand => {
    const v = fresh(base, type);
    out.push({ ...x, results: [v.result], span } as unknown as Inst);
    return v.operand;
  };
  const scalar = (n: ScalarTypeName): IrType => ({ kind: 'scalar', name: n });
  const typed = (type: IrType): TypedSpan => ({ type, span });
  const extract = (m: Operand, t: CoopmatrixType, v: number) =>
    emit(`${r.name}_x`, scalar(t.component), { op: 'coopmatrix_extract', operand: m, index: v, type: typed(t) });
  const convert = (x: Operand, from: ScalarTypeName, to: ScalarTypeName) =>
    from === to
      ? x
      : emit(`${r.name}_cv`, scalar(to), { op: 'cast', operand: x, from: typed(scalar(from)), to: typed(scalar(to)) });
  const a = tr.operand(av);
  const b = tr.operand(bv);
  const c = tr.operand(cv);
  const cc = ct.component;
  let acc = emit(`${r.name}_undef`, result, {
    op: 'coopmatrix_construct',
    operand: null,
    constant: false,
    type: typed(result),
  });
  const rl = result.layout;
  const bl = bt.layout;
  const ik1 = bl.rows * bl.blocks1;
  const kRows = bl.rows * bl.blocks;
  const inserts: { value: Operand; index: number }[] = [];
  for (let block = 0; block < rl.blocks; block++)
    for (let n = 0; n < rl.cols; n++) {
      let sum = extract(c, ct, componentNo(ct, n, block));
      for (let k = 0; k < kRows; k++) {
        const ak = convert(extract(a, at, componentNo(at, k, block)), at.component, cc);
        const l = (k % ik1) + n * ik1 + Math.floor(k / ik1) * ik1 * bl.cols;
        const bcomp = extract(b, bt, Math.floor(l / s));
        const bkn = emit(`${r.name}_b`, scalar(bt.component), {
          op: 'subgroup_broadcast',
          operand: bcomp,
          index: { kind: 'int', value: BigInt(l % s), span },
          type: typed(scalar(bt.component)),
        });
        const prod = emit(`${r.name}_p`, scalar(cc), {
          op: 'arith',
          fn: 'mul',
          operands: [ak, convert(bkn, bt.component, cc)],
          type: typed(scalar(cc)),
        });
        sum = emit(`${r.name}_s`, scalar(cc), {
          op: 'arith',
          fn: 'add',
          operands: [prod, sum],
          type: typed(scalar(cc)),
        });
      }
      inserts.push({ value: convert(sum, cc, result.component), index: n + block * rl.cols });
    }
  inserts.forEach(({ value, index }, i) => {
    const last = i === inserts.length - 1;
    const next = last ? { name: tr.define(r.name), span: r.span } : fresh(`${r.name}_m`, result).result;
    out.push({ op: 'coopmatrix_insert', value, operand: acc, index, type: typed(result), results: [next], span });
    acc = { kind: 'value', name: next.name, span };
  });
  return out;
}
