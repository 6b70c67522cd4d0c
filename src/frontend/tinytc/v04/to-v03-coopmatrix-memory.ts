import type { Span } from '../../../diagnostics/source.js';
import type { Inst, IrType, Operand, TypedSpan } from '../ast.js';
import { type CoopmatrixType, coopmatrixOffsets } from '../coopmatrix-layout.js';
import type { Inst04 } from './ast.js';
import type { ValueRef } from './ast.js';
import { NotLowered } from './to-v03-spmd.js';

/**
 * `cooperative_matrix_load` and `_store` (tinytc v0.4.0's docs/dev/coopmatrix_layout.rst, "Load pseudo-code"):
 * each work-item reads or writes its own components, component v of lane p being the matrix entry
 * (p mod I + row offset of v, ⌊p / I⌋ + column offset of v) at the position (x, y): memref element
 * [x + i, y + j], or [x + j, y + i] with `.t`. Entries past the matrix's columns (padding) are 0 and not
 * stored; `.rows_checked`, `.cols_checked` and `.both_checked` make entries outside the memref 0 and skip
 * their stores. The lane is `subgroup_local_id`, so the function's subgroup size must be the device's.
 */

/** What this rewrite asks of the translator (`to-v03.ts`). */
export interface CoopmatrixRewriteContext {
  typed(v: ValueRef): TypedSpan;
  operand(v: ValueRef): Operand;
  /** A v0.3 name for a v0.4 definition (or, with `base`, for a value the rewrite makes: `name` is its key). */
  define(name: string, base?: string): string;
  /** A value the rewrite makes, of v0.3 type `type`: a key no v0.4 name can be, which `typed`/`operand` resolve. */
  made(base: string, type: IrType, span: Span): ValueRef;
  /** The translator's rewrite of one (scalar) v0.4 instruction. */
  rewrite(inst: Inst04): Inst[];
  /** The function's `subgroup_size`, which lays out every coopmatrix (null: it states none). */
  readonly subgroupSize: number | null;
}

const INDEX: IrType = { kind: 'scalar', name: 'index' };
const I1: IrType = { kind: 'scalar', name: 'i1' };

export class CoopmatrixMemory {
  private readonly out: Inst[] = [];

  constructor(
    private readonly tr: CoopmatrixRewriteContext,
    private readonly span: Span,
  ) {}

  /** A value of the rewrite's own: its v0.3 name, and the operand that reads it. */
  private fresh(base: string, type: IrType): { result: { name: string; span: Span }; operand: Operand } {
    const key = this.tr.made(base, type, this.span);
    const operand = this.tr.operand(key);
    return { result: { name: (operand as { name: string }).name, span: this.span }, operand };
  }

  private emit(base: string, type: IrType, inst: object): Operand {
    const v = this.fresh(base, type);
    this.out.push({ ...inst, results: [v.result], span: this.span } as unknown as Inst);
    return v.operand;
  }

  private int(n: number): Operand {
    return { kind: 'int', value: BigInt(n), span: this.span };
  }

  private index(fn: string, a: Operand, b: Operand): Operand {
    if (b.kind === 'int' && b.value === 0n && (fn === 'add' || fn === 'sub')) return a;
    return this.emit(`cm_${fn}`, INDEX, { op: 'arith', fn, operands: [a, b], type: { type: INDEX, span: this.span } });
  }

  private cmp(fn: string, a: Operand, b: Operand): Operand {
    return this.emit('cm_in', I1, { op: 'cmp', fn, operands: [a, b], type: { type: INDEX, span: this.span } });
  }

  private and(a: Operand | null, b: Operand): Operand {
    if (!a) return b;
    return this.emit('cm_ok', I1, { op: 'arith', fn: 'and', operands: [a, b], type: { type: I1, span: this.span } });
  }

  /** The lane's row and column within a block: p mod I and ⌊p / I⌋ (index). */
  private lane(t: CoopmatrixType): { row: Operand; col: Operand } {
    const p32 = this.emit(
      'cm_lane32',
      { kind: 'scalar', name: 'i32' },
      { op: 'subgroup_builtin', fn: 'subgroup_local_id' },
    );
    const from: TypedSpan = { type: { kind: 'scalar', name: 'i32' }, span: this.span };
    const p = this.emit('cm_lane', INDEX, { op: 'cast', operand: p32, from, to: { type: INDEX, span: this.span } });
    const I = t.layout.rows;
    return I === 1
      ? { row: this.int(0), col: p }
      : { row: this.index('rem', p, this.int(I)), col: this.index('div', p, this.int(I)) };
  }

  /**
   * For each component: the memref indices and the condition (null: always) under which the entry is read or
   * written. `m` is the memref, `x`, `y` the position, `flags` the instruction's suffixes.
   */
  private places(
    t: CoopmatrixType,
    m: Operand,
    mt: TypedSpan,
    x: Operand,
    y: Operand,
    flags: readonly string[],
  ): { indices: [Operand, Operand]; when: Operand | null }[] {
    const transpose = flags.includes('.t');
    const rowsChecked = flags.includes('.rows_checked') || flags.includes('.both_checked');
    const colsChecked = flags.includes('.cols_checked') || flags.includes('.both_checked');
    const lane = this.lane(t);
    // The memref's extents along the modes i and j run in (the checked modes compare with them).
    const extent = (mode: number) => this.emit('cm_extent', INDEX, { op: 'size', operand: m, mode, type: mt });
    const iExtent = rowsChecked ? extent(transpose ? 1 : 0) : null;
    const jExtent = colsChecked ? extent(transpose ? 0 : 1) : null;
    const lanesPerRow = t.subgroupSize / t.layout.rows;
    return Array.from({ length: t.layout.length }, (_, v) => {
      const off = coopmatrixOffsets(t, v);
      const i = this.index('add', lane.row, this.int(off.row));
      const j = this.index('add', lane.col, this.int(off.col));
      // Padding: the columns past N (only where this component's columns can pass it).
      let when: Operand | null = off.col + lanesPerRow > t.shape[1] ? this.cmp('lt', j, this.int(t.shape[1])) : null;
      const ai = this.index('add', transpose ? y : x, i);
      const aj = this.index('add', transpose ? x : y, j);
      const inside = (a: Operand, e: Operand) => this.and(this.cmp('ge', a, this.int(0)), this.cmp('lt', a, e));
      if (iExtent) when = this.and(when, inside(ai, iExtent));
      if (jExtent) when = this.and(when, inside(aj, jExtent));
      return { indices: transpose ? [aj, ai] : [ai, aj], when };
    });
  }

  load(inst: Extract<Inst04, { form: 'matrix' }>, t: CoopmatrixType): Inst[] {
    const tr = this.tr;
    const [mv, xv, yv] = inst.values;
    const r = inst.results[0];
    if (!mv || !xv || !yv || !r) throw new NotLowered(inst.op, inst.span);
    const mt = tr.typed(mv);
    if (mt.type.kind !== 'memref' || mt.type.shape.length !== 2)
      throw new NotLowered(`${inst.op} of this operand`, inst.span);
    const m = tr.operand(mv);
    const element: IrType = { kind: 'scalar', name: mt.type.element };
    const places = this.places(t, m, mt, tr.operand(xv), tr.operand(yv), inst.flags);
    const ty: TypedSpan = { type: t, span: inst.span };
    let acc = this.emit(`${r.name}_undef`, t, { op: 'coopmatrix_construct', operand: null, constant: false, type: ty });
    places.forEach((p, v) => {
      let value: Operand;
      if (!p.when)
        value = this.emit(`${r.name}_${v}`, element, { op: 'load', operand: m, indices: p.indices, type: mt });
      else {
        // An if that yields the element, or 0.
        const read = this.fresh(`${r.name}_${v}_read`, element);
        const yieldOf = (o: Operand) => ({
          op: 'yield',
          operands: [o],
          types: [{ type: element, span: this.span }],
          results: [],
          span: this.span,
        });
        const zero: Operand =
          element.kind === 'scalar' && (element.name === 'c32' || element.name === 'c64')
            ? { kind: 'complex', re: 0, im: 0, span: this.span }
            : { kind: 'int', value: 0n, span: this.span };
        value = this.emit(`${r.name}_${v}`, element, {
          op: 'if',
          condition: p.when,
          resultTypes: [{ type: element, span: this.span }],
          then: {
            body: [
              { op: 'load', operand: m, indices: p.indices, type: mt, results: [read.result], span: this.span },
              yieldOf(read.operand),
            ],
            span: this.span,
          },
          else: { body: [yieldOf(zero)], span: this.span },
        });
      }
      const last = v === places.length - 1;
      const next = last ? { name: tr.define(r.name), span: r.span } : this.fresh(`${r.name}_m${v}`, t).result;
      this.out.push({
        op: 'coopmatrix_insert',
        value,
        operand: acc,
        index: v,
        type: ty,
        results: [next],
        span: inst.span,
      });
      acc = { kind: 'value', name: next.name, span: r.span };
    });
    return this.out.splice(0);
  }

  store(inst: Extract<Inst04, { form: 'matrix' }>): Inst[] {
    const tr = this.tr;
    const [val, mv, xv, yv] = inst.values;
    if (!val || !mv || !xv || !yv) throw new NotLowered(inst.op, inst.span);
    const vt = tr.typed(val);
    const mt = tr.typed(mv);
    if (vt.type.kind !== 'coopmatrix' || mt.type.kind !== 'memref' || mt.type.shape.length !== 2)
      throw new NotLowered(`${inst.op} of this operand`, inst.span);
    const t = vt.type;
    const m = tr.operand(mv);
    const element: IrType = { kind: 'scalar', name: t.component };
    const places = this.places(t, m, mt, tr.operand(xv), tr.operand(yv), inst.flags);
    places.forEach((p, v) => {
      const value = this.emit(`${val.name}_${v}`, element, {
        op: 'coopmatrix_extract',
        operand: tr.operand(val),
        index: v,
        type: vt,
      });
      const store = { op: 'store', value, operand: m, indices: p.indices, type: mt, results: [], span: this.span };
      if (!p.when) this.out.push(store as Inst);
      else
        this.out.push({
          op: 'if',
          condition: p.when,
          resultTypes: [],
          then: { body: [store as Inst], span: this.span },
          else: null,
          results: [],
          span: this.span,
        });
    });
    return this.out.splice(0);
  }
}
