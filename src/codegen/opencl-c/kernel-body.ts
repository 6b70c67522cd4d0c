import { assertNever } from '../../assert-never.js';
import {
  INT_BITS,
  type Inst,
  type MemrefType,
  type Operand,
  type Region,
  type ScalarTypeName,
  isFloatType,
} from '../../frontend/tinytc/ast.js';
import type { ValueTypes } from '../../frontend/tinytc/check.js';
import { varName } from '../../frontend/tinytc/calling-convention.js';
import type { Span } from '../../diagnostics/source.js';
import type { AtomicHelpers } from './atomics.js';
import type { Fence } from '../barriers.js';
import type { LoweredKernel, SlotExt } from '../lowered.js';
import { arithNumber, castNumber, cmpNumber, isV04Number, isV04Unary, numberLiteral, unaryNumber } from './numbers.js';
import { C_TYPE, floatLiteral, intLiteral, isWide, wrapType } from './c-scalars.js';
import type { BlasPolicy } from '../blas-policy.js';
import * as blas from './collective.js';
import { gemm } from './gemm.js';
import type { CollectiveContext, ScalarArg } from './collective.js';
import type { Names } from './names.js';
import { type EvalSlice, expandDope, fuseDope, subviewDope } from '../dope.js';
import { C_EXT, type Ext, type View, elementAt, extText, pointerType } from './views.js';
import { atomicC, subgroupBuiltinC } from './spmd.js';

type Value =
  | { readonly kind: 'scalar'; readonly expr: string; readonly type: ScalarTypeName }
  | { readonly kind: 'memref'; readonly view: View }
  | {
      readonly kind: 'group';
      readonly table: string;
      readonly memref: MemrefType;
      readonly shape: readonly Ext[];
      readonly stride: readonly Ext[];
      readonly offset: Ext;
      /** The member count (v0.4's groups; v0.3's have none). */
      readonly size?: Ext;
    };

export interface KernelBody {
  /** Declarations at kernel scope (local arrays), then the statements. */
  readonly lines: readonly string[];
  /** For each line, the IR instruction it was generated from (null: kernarg's own set-up). */
  readonly origins: readonly (Span | null)[];
}

const ARITH_OP: Record<string, string> = {
  add: '+',
  sub: '-',
  mul: '*',
  div: '/',
  rem: '%',
  and: '&',
  or: '|',
  xor: '^',
};
const CMP_OP: Record<string, string> = { eq: '==', ne: '!=', gt: '>', ge: '>=', lt: '<', le: '<=' };
/** OpenCL C's spelling of each barrier's memories. */
const C_FENCE: Record<Fence, string> = {
  global: 'CLK_GLOBAL_MEM_FENCE',
  local: 'CLK_LOCAL_MEM_FENCE',
  both: 'CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE',
};
const SIMPLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The statements of one tinytc function as OpenCL C: replicated instructions become plain C
 * statements every work-item runs alike; collective ones (alloca, foreach and the BLAS-like
 * instructions) split their work over the work-group; barriers go where collective accesses
 * conflict. Views keep static extents and strides as literals.
 */
export class KernelBodyEmitter {
  private readonly values = new Map<string, Value>();
  private readonly out: string[] = [];
  private readonly hoisted: string[] = [];
  /** The instruction being emitted, and where each emitted line came from (build errors map back through them). */
  private at: Span | null = null;
  private readonly outAt: (Span | null)[] = [];
  private readonly hoistedAt: (Span | null)[] = [];
  /** The variables a yield assigns: an if's results, or a loop's carried values (`loop`: the yield may read them). */
  private readonly yields: { names: string[]; types: ScalarTypeName[]; loop?: true }[] = [];
  private depth = 0;
  private readonly ctx: CollectiveContext;
  private readonly lidLines: string[];
  private readonly types: ValueTypes;
  private readonly wg: readonly [number, number];

  constructor(
    private readonly k: LoweredKernel,
    private readonly names: Names,
    private readonly atomics: AtomicHelpers,
    policy: BlasPolicy,
  ) {
    this.types = k.types;
    const wg = (this.wg = k.wg);
    const lid0 = names.internal('lid0');
    const lid1 = names.internal('lid1');
    const lid = names.internal('lid');
    this.lidLines = [
      `const long ${lid0} = get_local_id(0);`,
      `const long ${lid1} = get_local_id(1);`,
      `const long ${lid} = ${lid0} + ${lid1} * ${wg[0]};`,
    ];
    this.ctx = {
      names,
      lid0,
      lid1,
      lid,
      wg,
      hoist: (line) => this.hoist(line),
      atomic: (t, space, mode) => this.atomics.use(t, space, mode, this.names),
      policy,
    };
  }

  emit(): KernelBody {
    this.bindParams();
    this.region(this.k.func.body);
    if (this.out.length === 0 && this.hoisted.length === 0) return { lines: [], origins: [] };
    return {
      lines: [...this.hoisted, ...this.lidLines, ...this.out],
      origins: [...this.hoistedAt, ...this.lidLines.map(() => null), ...this.outAt],
    };
  }

  private line(s: string): void {
    this.out.push('  '.repeat(this.depth) + s);
    this.outAt.push(this.at);
  }

  private hoist(s: string): void {
    this.hoisted.push(s);
    this.hoistedAt.push(this.at);
  }

  private bindParams(): void {
    const ext = (e: SlotExt): Ext => (typeof e === 'number' ? e : e.slot);
    for (const [name, p] of this.k.params) {
      if (p.kind === 'scalar')
        this.values.set(name, {
          kind: 'scalar',
          expr: p.slot,
          type: (this.types.get(name) as { name: ScalarTypeName }).name,
        });
      else if (p.kind === 'memref')
        this.values.set(name, {
          kind: 'memref',
          view: {
            ptr: p.data,
            space: 'global',
            element: p.type.element,
            shape: p.shape.map(ext),
            stride: p.stride.map(ext),
          },
        });
      else
        this.values.set(name, {
          kind: 'group',
          table: p.table,
          memref: p.memref,
          shape: p.shape.map(ext),
          stride: p.stride.map(ext),
          offset: ext(p.offset),
          ...(p.size !== undefined ? { size: ext(p.size) } : {}),
        });
    }
  }

  private value(o: Operand): Value {
    return this.values.get((o as { name: string }).name)!;
  }

  private view(o: Operand): View {
    return (this.value(o) as Extract<Value, { kind: 'memref' }>).view;
  }

  /** A scalar operand as a C expression of type t. */
  private scalar(o: Operand, t: ScalarTypeName): string {
    if (o.kind === 'value') return (this.value(o) as Extract<Value, { kind: 'scalar' }>).expr;
    if (o.kind === 'complex' || isV04Number(t)) return numberLiteral(o, t);
    if (o.kind === 'int') return intLiteral(o.value, t);
    return isFloatType(t) ? floatLiteral(o.value, t) : String(o.value);
  }

  /**
   * alpha or beta of a BLAS instruction (IR type t) as a C expression of type `as`, the C operand's
   * element type: a mixed-type operand is cast to it first (the arithmetic is done in C's type).
   */
  private scalarArg(o: Operand, t: ScalarTypeName, as: ScalarTypeName): ScalarArg {
    const own = this.scalar(o, t);
    const expr = t === as ? own : `((${C_TYPE[as]})${own})`;
    return o.kind === 'value' || o.kind === 'complex' ? { expr } : { expr, imm: Number(o.value) };
  }

  private index(o: Operand): Ext {
    if (o.kind === 'int' && Number.isSafeInteger(Number(o.value))) return Number(o.value);
    return this.scalar(o, 'index');
  }

  private declare(irName: string, cType: string, expr: string, type: ScalarTypeName): string {
    const c = this.names.fresh(varName(irName));
    this.line(`${cType} ${c} = ${expr};`);
    this.values.set(irName, { kind: 'scalar', expr: c, type });
    return c;
  }

  /** A C variable of its own holding `expr`, under a fresh name from `base`; no IR value names it. */
  private temporary(base: string, cType: string, expr: string): string {
    const c = this.names.fresh(base);
    this.line(`${cType} ${c} = ${expr};`);
    return c;
  }

  /** A run-time extent: kept as it is when it is a literal or a name, else given a name of its own. */
  private bind(base: string, e: Ext): Ext {
    if (typeof e === 'number' || SIMPLE.test(e)) return e;
    const c = this.names.fresh(base);
    this.line(`long ${c} = ${e};`);
    return c;
  }

  private defineView(irName: string, parent: View, offset: Ext, shape: Ext[], stride: Ext[]): void {
    const t = this.types.get(irName) as MemrefType;
    const base = varName(irName);
    let ptr = parent.ptr;
    if (offset !== 0 || !SIMPLE.test(ptr)) {
      ptr = this.names.fresh(base);
      this.line(
        `${pointerType(parent.space, C_TYPE[parent.element])} ${ptr} = ${parent.ptr}${offset === 0 ? '' : ` + ${extText(offset)}`};`,
      );
    }
    // Static entries of the result type are literals, whatever the parent spelled.
    const sh = shape.map((e, j) => t.shape[j] ?? this.bind(`${base}_shape${j}`, e));
    const st = stride.map((e, j) => t.stride[j] ?? this.bind(`${base}_stride${j}`, e));
    this.values.set(irName, {
      kind: 'memref',
      view: { ptr, space: parent.space, element: parent.element, shape: sh, stride: st },
    });
  }

  private region(r: Region): void {
    for (const inst of r.body) {
      const fence = this.k.barriers.get(inst);
      if (fence) this.line(`barrier(${C_FENCE[fence]});`);
      this.inst(inst);
    }
  }

  private block(head: string, r: Region, prologue: string[] = []): void {
    this.line(`${head} {`);
    this.depth++;
    for (const l of prologue) this.line(l);
    this.region(r);
    this.depth--;
  }

  private inst(inst: Inst): void {
    const outer = this.at;
    this.at = inst.span;
    try {
      this.instruction(inst);
    } finally {
      this.at = outer;
    }
  }

  private instruction(inst: Inst): void {
    const result = inst.results[0]?.name;
    switch (inst.op) {
      case 'alloca': {
        const t = inst.type.type as MemrefType;
        const c = this.names.fresh(varName(result!));
        const size = this.k.allocaElements.get(inst)!;
        this.hoist(`local ${C_TYPE[t.element]} ${c}[${size}];`);
        this.values.set(result!, {
          kind: 'memref',
          view: {
            ptr: c,
            space: 'local',
            element: t.element,
            shape: t.shape.map((d) => d!),
            stride: t.stride.map((d) => d!),
          },
        });
        return;
      }
      case 'arith':
        this.arith(inst, result!);
        return;
      case 'cmp': {
        const t = (inst.type.type as { name: ScalarTypeName }).name;
        const [a, b] = inst.operands.map((o) => this.scalar(o, t));
        const expr = isV04Number(t) ? cmpNumber(CMP_OP[inst.fn], t, a, b) : `${a} ${CMP_OP[inst.fn]} ${b}`;
        this.declare(result!, 'bool', expr, 'i1');
        return;
      }
      case 'cast': {
        const from = (inst.from.type as { name: ScalarTypeName }).name;
        const to = (inst.to.type as { name: ScalarTypeName }).name;
        const a = this.scalar(inst.operand, from);
        if (isV04Number(from) || isV04Number(to)) this.declare(result!, C_TYPE[to], castNumber(a, from, to), to);
        else this.declare(result!, C_TYPE[to], to === 'i1' ? `${a} != 0` : `(${C_TYPE[to]})${a}`, to);
        return;
      }
      case 'load': {
        const src = this.value(inst.operand);
        if (src.kind === 'group') {
          const id = this.index(inst.indices[0]);
          const base = varName(result!);
          const ptr = this.names.fresh(base);
          const m = src.memref;
          this.line(
            `${pointerType('global', C_TYPE[m.element])} ${ptr} = ${src.table}[${extText(id)}]${src.offset === 0 ? '' : ` + ${extText(src.offset)}`};`,
          );
          const member = (tables: readonly Ext[], what: string) =>
            tables.map((e, j) => {
              if (typeof e === 'number') return e;
              const c = this.names.fresh(`${base}_${what}${j}`);
              this.line(`long ${c} = ${e}[${extText(id)}];`);
              return c;
            });
          this.values.set(result!, {
            kind: 'memref',
            view: {
              ptr,
              space: 'global',
              element: m.element,
              shape: member(src.shape, 'shape'),
              stride: member(src.stride, 'stride'),
            },
          });
          return;
        }
        const v = (src as Extract<Value, { kind: 'memref' }>).view;
        this.declare(
          result!,
          C_TYPE[v.element],
          elementAt(
            v,
            inst.indices.map((o) => this.index(o)),
          ),
          v.element,
        );
        return;
      }
      case 'store': {
        // tinytc has every work-item of a mixed region store the same value, which races with a load of
        // the same location by another work-item; here one work-item stores and barriers order the rest.
        const v = this.view(inst.operand);
        const store = `${elementAt(
          v,
          inst.indices.map((o) => this.index(o)),
        )} = ${this.scalar(inst.value, v.element)};`;
        this.line(this.k.storeByFirst.has(inst) ? `if (${this.ctx.lid} == 0) ${store}` : store);
        return;
      }
      case 'size': {
        const v = this.value(inst.operand);
        const e = v.kind === 'group' ? v.size! : this.view(inst.operand).shape[inst.mode];
        this.declare(result!, 'long', extText(e), 'index');
        return;
      }
      case 'subview': {
        const v = this.view(inst.operand);
        const slices = inst.slices.map((s): EvalSlice<string> =>
          s.kind === 'index'
            ? { kind: 'index', index: this.index(s.index) }
            : s.kind === 'all'
              ? s
              : { kind: 'range', offset: this.index(s.offset), size: s.size ? this.index(s.size) : null },
        );
        const d = subviewDope(C_EXT, v, slices);
        this.defineView(result!, v, d.offset, d.shape, d.stride);
        return;
      }
      case 'expand': {
        const v = this.view(inst.operand);
        const d = expandDope(
          C_EXT,
          v,
          inst.mode,
          inst.shape.map((o, i) => (inst.shapeDynamic[i] ? null : this.index(o))),
        );
        this.defineView(result!, v, 0, d.shape, d.stride);
        return;
      }
      case 'fuse': {
        const v = this.view(inst.operand);
        const d = fuseDope(C_EXT, v, inst.from, inst.to);
        this.defineView(result!, v, 0, d.shape, d.stride);
        return;
      }
      // v0.3's batch axis is the third, launched with one work-item along it: the global id is the group's.
      case 'group_id':
        this.declare(
          result!,
          'long',
          inst.axis === undefined ? 'get_global_id(2)' : `get_group_id(${inst.axis})`,
          'index',
        );
        return;
      case 'group_size':
        this.declare(
          result!,
          'long',
          inst.axis === undefined ? 'get_global_size(2)' : `get_num_groups(${inst.axis})`,
          'index',
        );
        return;
      // tinytc v0.4's parallel regions and per-work-item instructions (spmd.ts).
      case 'parallel':
        this.region(inst.body);
        return;
      case 'associated': {
        const v = this.value(inst.operand);
        const ptr = v.kind === 'group' ? v.table : this.view(inst.operand).ptr;
        this.declare(result!, 'bool', `${ptr} != 0`, 'i1');
        return;
      }
      case 'subgroup_builtin':
        this.declare(result!, 'int', subgroupBuiltinC(inst.fn, this.wg, this.k.func.subgroupSize), 'i32');
        return;
      case 'subgroup_broadcast': {
        const t = (inst.type.type as { name: ScalarTypeName }).name;
        const lane = `(uint)${this.scalar(inst.index, 'i32')}`;
        this.declare(result!, C_TYPE[t], `sub_group_broadcast(${this.scalar(inst.operand, t)}, ${lane})`, t);
        return;
      }
      case 'atomic_load':
      case 'atomic_update': {
        const v = this.view(inst.operand);
        const fn = inst.op === 'atomic_load' ? 'load' : inst.fn;
        const value = inst.op === 'atomic_update' ? this.scalar(inst.value, v.element) : null;
        const at = elementAt(
          v,
          inst.indices.map((o) => this.index(o)),
        );
        const a = atomicC(v.element, v.space, fn, at, value, inst.order, (b) => this.names.fresh(b));
        if (a.int64) this.atomics.needsInt64 = true;
        for (const l of a.lines) this.line(l);
        if (result && a.result) this.values.set(result, { kind: 'scalar', expr: a.result, type: v.element });
        return;
      }
      case 'if': {
        const ts = inst.resultTypes.map((t) => (t.type as { name: ScalarTypeName }).name);
        const names = inst.results.map((r, i) => {
          const c = this.names.fresh(varName(r.name));
          this.line(`${C_TYPE[ts[i]]} ${c};`);
          return c;
        });
        this.yields.push({ names, types: ts });
        this.block(`if (${this.scalar(inst.condition, 'i1')})`, inst.then);
        if (inst.else) {
          this.line('} else {');
          this.depth++;
          this.region(inst.else);
          this.depth--;
        }
        this.line('}');
        this.yields.pop();
        inst.results.forEach((r, i) => this.values.set(r.name, { kind: 'scalar', expr: names[i], type: ts[i] }));
        return;
      }
      case 'yield': {
        const y = this.yields[this.yields.length - 1];
        const values = inst.operands.map((o, i) => this.scalar(o, y.types[i]));
        // A loop's yield may read the variables it assigns (`yield %b, %a` swaps): every value is read before any is set.
        const read =
          y.loop && values.length > 1
            ? values.map((v, i) => this.temporary(`${y.names[i]}_next`, C_TYPE[y.types[i]], v))
            : values;
        read.forEach((v, i) => this.line(`${y.names[i]} = ${v};`));
        return;
      }
      case 'for':
      case 'foreach':
        this.loop(inst);
        return;
      case 'blas':
        this.blas(inst);
        return;
      default:
        assertNever(inst);
    }
  }

  private arith(inst: Extract<Inst, { op: 'arith' }>, result: string): void {
    const t = (inst.type.type as { name: ScalarTypeName }).name;
    const ct = C_TYPE[t];
    const [a, b] = inst.operands.map((o) => this.scalar(o, t));
    // tinytc v0.4's types and one-operand functions (numbers.ts); abs, im and re of a complex number are real.
    if ((inst.operands.length === 1 && isV04Unary(inst.fn, t)) || isV04Number(t)) {
      const rt = (this.types.get(result) as { name: ScalarTypeName }).name;
      const expr = inst.operands.length === 1 ? unaryNumber(inst.fn, t, a) : arithNumber(inst.fn, t, a, b);
      this.declare(result, C_TYPE[rt], expr, rt);
      return;
    }
    let expr: string;
    if (t === 'i1') expr = inst.fn === 'not' ? `!${a}` : `${a} ${ARITH_OP[inst.fn]} ${b}`;
    else if (isFloatType(t))
      expr = inst.fn === 'neg' ? `-${a}` : inst.fn === 'rem' ? `fmod(${a}, ${b})` : `${a} ${ARITH_OP[inst.fn]} ${b}`;
    else {
      // Integers wrap (through the unsigned type) and shift by the count modulo the width, as OpenCL C does for vectors.
      const u = wrapType(t);
      const mask = INT_BITS[t]! - 1;
      switch (inst.fn) {
        case 'add':
        case 'sub':
        case 'mul':
          expr = `(${ct})((${u})${a} ${ARITH_OP[inst.fn]} (${u})${b})`;
          break;
        case 'neg':
          expr = `(${ct})(-(${u})${a})`;
          break;
        case 'not':
          expr = `(${ct})~${a}`;
          break;
        case 'shl':
          expr = `(${ct})((${u})${a} << (${b} & ${mask}))`;
          break;
        case 'shr':
          expr = `(${ct})(${a} >> (${b} & ${mask}))`;
          break;
        default:
          expr = `(${ct})(${a} ${ARITH_OP[inst.fn]} ${b})`;
      }
    }
    this.declare(result, ct, expr, t);
  }

  private loop(inst: Extract<Inst, { op: 'for' | 'foreach' }>): void {
    const t = inst.loopType ? (inst.loopType.type as { name: ScalarTypeName }).name : 'index';
    const from = this.scalar(inst.from, t);
    const to = this.scalar(inst.to, t);
    const spread = inst.op === 'foreach';
    const step = spread ? String(this.wg[0] * this.wg[1]) : inst.step ? this.scalar(inst.step, t) : '1';
    const start = spread ? `${from} + ${this.ctx.lid}` : from;
    // Loop-carried values live in variables declared before the loop: the body reads them, its yield
    // sets them, the results are their last values.
    const carried = inst.carried ?? [];
    const ct = carried.map((c) => (c.type.type as { name: ScalarTypeName }).name);
    const names = carried.map((c, i) => this.declare(c.name, C_TYPE[ct[i]], this.scalar(c.init, ct[i]), ct[i]));
    if (carried.length) this.yields.push({ names, types: ct, loop: true });
    const v = this.names.fresh(varName(inst.variable.name));
    this.values.set(inst.variable.name, { kind: 'scalar', expr: v, type: t });
    if (isWide(t)) {
      this.block(`for (long ${v} = ${start}; ${v} < ${to}; ${v} += ${step})`, inst.body);
    } else {
      // Narrow loop types count in long, so the last step cannot wrap around.
      const k = this.names.internal('k');
      this.block(`for (long ${k} = (long)${start}; ${k} < (long)${to}; ${k} += (long)${step})`, inst.body, [
        `const ${C_TYPE[t]} ${v} = (${C_TYPE[t]})${k};`,
      ]);
    }
    this.line('}');
    if (carried.length) this.yields.pop();
    inst.results.forEach((r, i) => this.values.set(r.name, { kind: 'scalar', expr: names[i], type: ct[i] }));
  }

  private blas(inst: Extract<Inst, { op: 'blas' }>): void {
    const t = (i: number) => (inst.types[i].type as { name: ScalarTypeName }).name;
    const o = inst.operands;
    const atomic = this.k.atomicModes.get(inst) ?? null;
    const e = this.view(o[o.length - 1]).element;
    let lines: string[];
    switch (inst.fn) {
      case 'axpby':
        lines = blas.axpby(
          this.ctx,
          inst.transA,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.scalarArg(o[2], t(2), e),
          this.view(o[3]),
        );
        break;
      case 'sum':
        lines = blas.sum(
          this.ctx,
          inst.transA,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.scalarArg(o[2], t(2), e),
          this.view(o[3]),
        );
        break;
      case 'gemm':
        lines = gemm(
          this.ctx,
          inst.transA,
          inst.transB,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.view(o[2]),
          this.scalarArg(o[3], t(3), e),
          this.view(o[4]),
        );
        break;
      case 'gemv':
        lines = blas.gemv(
          this.ctx,
          inst.transA,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.view(o[2]),
          this.scalarArg(o[3], t(3), e),
          this.view(o[4]),
        );
        break;
      case 'ger':
        lines = blas.ger(
          this.ctx,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.view(o[2]),
          this.scalarArg(o[3], t(3), e),
          this.view(o[4]),
        );
        break;
      case 'hadamard':
        lines = blas.hadamard(
          this.ctx,
          atomic,
          this.scalarArg(o[0], t(0), e),
          this.view(o[1]),
          this.view(o[2]),
          this.scalarArg(o[3], t(3), e),
          this.view(o[4]),
        );
        break;
    }
    for (const l of lines) this.line(l);
  }
}
