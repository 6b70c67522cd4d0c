// kernarg's code generators (OpenCL C, Vulkan SPIR-V) read tinytc v0.3's syntax tree. A v0.4
// function whose instructions all have a v0.3 counterpart is rewritten into that tree, so both
// versions share one lowering (codegen/lowered.ts) and every printer: `constant` values become the
// immediates v0.3 writes in place, `add` becomes `arith.add`, `equal` `cmp.eq`, and the operand
// types v0.3 spells after ':' come from the v0.4 checker. `barrier` is kept as the tree's `barrier`
// beside the ones kernarg places itself (codegen/barriers.ts), which adds none where it already orders the
// memory (refused in a foreach body). `foreach` becomes the tree's foreach (to-v03-foreach.ts), `foreach_tile` becomes a foreach over the tiles (to-v03-foreach-tile.ts),
// the subgroup reductions and scans the tree's subgroup_operation. `group_id.x` is the batch index, as
// v0.3's `group_id`: kernarg launches the batch along one axis for both. `for … init(…)` keeps its
// loop-carried scalars (the v0.3 tree's `for` has `carried`, which v0.3 syntax never fills). Each instruction without a
// counterpart is reported (KA2420) and the function is not generated; its interface still is.
import type { Diagnostic } from '../../../diagnostics/diagnostic.js';
import { DiagnosticBag } from '../../../diagnostics/diagnostic.js';
import { Messages } from '../../../diagnostics/messages.js';
import type { Span } from '../../../diagnostics/source.js';
import {
  type DeclaredConstant,
  type Func,
  type Inst,
  type IrType,
  type Operand,
  type Program,
  type Region,
  type Slice,
  type TypedSpan,
} from '../ast.js';
import type { Func04, Inst04, Literal, Program04, Region04, Type04, ValueRef } from './ast.js';
import type { ValueTypes04 } from './check.js';
import { MATH_UNARY } from './instructions.js';
import { type MathRewriteContext, minMax, unaryArith } from './to-v03-math.js';
import { NotLowered, atomicOrder, builtinOp } from './to-v03-spmd.js';
import { V04_ONLY, type03 } from './to-v03-types.js';
import { isSubgroupOperation, subgroupOperation04 } from './to-v03-subgroup.js';
import { foreachTile } from './to-v03-foreach-tile.js';
import { foreach04 } from './to-v03-foreach.js';
import {
  CoopmatrixRefused,
  CoopmatrixRewrite,
  type CoopmatrixRewriteContext,
  coopmatrix03,
} from './to-v03-coopmatrix.js';

const CMP = {
  equal: 'eq',
  not_equal: 'ne',
  greater_than: 'gt',
  greater_than_equal: 'ge',
  less_than: 'lt',
  less_than_equal: 'le',
} as const satisfies Record<string, string>;
const ARITH = new Set(['add', 'sub', 'mul', 'div', 'rem', 'shl', 'shr', 'and', 'or', 'xor']);
/** The v0.4 arith-unary and math-unary instructions, rewritten as one-operand `arith` functions of the same name. */
const UNARY = new Set(['abs', 'conj', 'im', 're', ...MATH_UNARY]);

class Translator implements MathRewriteContext, CoopmatrixRewriteContext {
  /** `constant` results (by v0.3 name), written in place as v0.3 immediates. */
  private readonly constants = new Map<string, Literal>();
  /**
   * v0.4 scopes a name to its region, so sibling regions may define the same name; v0.3 defines a
   * name once per function. Each definition gets a v0.3 name of its own (`%1`, then `%1_1`).
   */
  private readonly scopes: Map<string, string>[] = [new Map()];
  private readonly used = new Set<string>();
  /** The regions being rewritten, innermost last: their instructions so far and the constants declared among them. */
  private readonly open: { body: Inst[]; constants: DeclaredConstant[] }[] = [];
  /** Depth of enclosing `parallel` regions (a barrier there orders the work-items' own accesses). */
  private parallel = 0;
  /** Depth of enclosing foreach and foreach_tile bodies, and of foreach bodies alone. */
  private spmdLoop = 0;
  private plainForeach = 0;
  /** The values the coopmatrix rewrite makes (by a key no v0.4 name can be) and their v0.3 types. */
  private readonly madeTypes = new Map<string, IrType>();
  private readonly coop = new CoopmatrixRewrite(this);

  /** `known`: the v0.3 types of an earlier pass's rewrite, which win over the v0.4 annotations. */
  constructor(
    private readonly types: ValueTypes04,
    private readonly known: ReadonlyMap<string, IrType> | undefined,
    readonly subgroupSize: number | null,
  ) {}

  /**
   * Gives a v0.4 definition its v0.3 name, visible in the current region. The values the coopmatrix rewrite
   * makes have keys that start with '#' (no v0.4 name does): their v0.3 names drop it.
   */
  define(name: string, base = name.replace(/^#+/, '')): string {
    if (this.madeTypes.has(name)) return this.named(name);
    let n = base;
    for (let k = 1; this.used.has(n); k++) n = `${base}_${k}`;
    this.used.add(n);
    this.scopes[this.scopes.length - 1].set(name, n);
    return n;
  }
  made(base: string, type: IrType, span: Span): ValueRef {
    let n = base.replace(/^#+/, '');
    for (let k = 1; this.used.has(n); k++) n = `${base.replace(/^#+/, '')}_${k}`;
    this.used.add(n);
    const key = `#${n}`;
    this.scopes[this.scopes.length - 1].set(key, n);
    this.madeTypes.set(key, type);
    return { kind: 'value', name: key, span };
  }
  rewrite(inst: Inst04): Inst[] {
    return this.inst(inst);
  }
  /** The v0.3 type of a v0.4 type (a coopmatrix laid out for this function's subgroup size). */
  private type03(t: Type04, span: Span): IrType {
    return t.kind === 'coopmatrix' ? coopmatrix03(t, span, this.subgroupSize) : type03(t, span);
  }
  private named(name: string): string {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const n = this.scopes[i].get(name);
      if (n) return n;
    }
    return name;
  }

  private typeOf(v: ValueRef): IrType {
    const k = this.known?.get(this.named(v.name));
    if (k) return k;
    const m = this.madeTypes.get(v.name);
    if (m) return m;
    const t = this.types.get(v.name);
    if (!t) throw new NotLowered(`%${v.name}`, v.span);
    return this.type03(t, v.span);
  }
  typed(v: ValueRef): TypedSpan {
    return { type: this.typeOf(v), span: v.span };
  }
  operand(v: ValueRef): Operand {
    const name = this.named(v.name);
    const c = this.constants.get(name);
    if (!c) return { kind: 'value', name, span: v.span };
    if (c.kind === 'int') return { kind: 'int', value: c.value, span: v.span };
    if (c.kind === 'bool') return { kind: 'int', value: c.value ? 1n : 0n, span: v.span };
    if (c.kind === 'float') return { kind: 'float', value: c.value, span: v.span };
    return { kind: 'complex', re: c.re, im: c.im, span: v.span };
  }
  private intOr(o: { kind: 'value'; name: string; span: Span } | { kind: 'int'; value: number; span: Span }): Operand {
    return o.kind === 'int' ? { kind: 'int', value: BigInt(o.value), span: o.span } : this.operand(o);
  }

  /** `vars`: names the region defines before its instructions (loop variables). */
  region(
    r: Region04,
    vars: readonly { name: string; span: Span }[] = [],
    prologue?: (renamed: readonly { name: string; span: Span }[]) => Inst[],
  ): { region: Region; vars: { name: string; span: Span }[] } {
    this.scopes.push(new Map());
    const renamed = vars.map((v) => ({ name: this.define(v.name), span: v.span }));
    const here = { body: [...(prologue?.(renamed) ?? [])], constants: [] as DeclaredConstant[] };
    this.open.push(here);
    for (const i of r.body) here.body.push(...this.inst(i));
    this.open.pop();
    this.scopes.pop();
    const { body, constants } = here;
    return { region: { body, span: r.span, ...(constants.length ? { constants } : {}) }, vars: renamed };
  }
  private body(r: Region04): Region {
    return this.region(r).region;
  }

  private inst(inst: Inst04): Inst[] {
    // Results are named after the operands and regions are read: they are not visible in them.
    const results = () => inst.results.map((r) => ({ name: this.define(r.name), span: r.span }));
    const one = (x: object): Inst[] => [{ ...x, results: results(), span: inst.span } as unknown as Inst];
    const no = (): never => {
      throw new NotLowered(inst.op + inst.flags.join(''), inst.span);
    };
    switch (inst.form) {
      case 'constant': {
        const t = inst.type.type.kind === 'bool' ? null : this.type03(inst.type.type, inst.type.span);
        if (t?.kind === 'coopmatrix') return this.coop.constant(inst, t);
        for (const r of results()) this.constants.set(r.name, inst.literal);
        const here = this.open[this.open.length - 1];
        const r = inst.results[0];
        if (r && (t === null || t.kind === 'scalar'))
          here.constants.push({
            before: here.body.length,
            type: t === null ? 'i1' : t.name,
            value: this.operand({ kind: 'value', name: r.name, span: r.span }),
          });
        return [];
      }
      case 'binary': {
        const ty = this.typed(inst.a);
        if (ty.type.kind === 'coopmatrix') {
          const rt = this.type03(inst.type.type, inst.type.span);
          return this.coop.binary(inst, rt.kind === 'coopmatrix' ? rt : ty.type);
        }
        if (inst.op in CMP)
          return one({
            op: 'cmp',
            fn: CMP[inst.op as keyof typeof CMP],
            operands: [this.operand(inst.a), this.operand(inst.b)],
            type: ty,
          });
        // f16 and bf16 take OpenCL's fmin/fmax, as tinytc spells them (numbers.ts); the rest keep a comparison and a branch.
        const half = ty.type.kind === 'scalar' && (ty.type.name === 'f16' || ty.type.name === 'bf16');
        if ((inst.op === 'min' || inst.op === 'max') && !half) return minMax(this, inst, ty);
        if (inst.op === 'subgroup_broadcast')
          return one({
            op: 'subgroup_broadcast',
            operand: this.operand(inst.a),
            index: this.operand(inst.b),
            type: ty,
          });
        if (!ARITH.has(inst.op) && !half) return no();
        return one({ op: 'arith', fn: inst.op, operands: [this.operand(inst.a), this.operand(inst.b)], type: ty });
      }
      case 'unary':
        if (this.typed(inst.a).type.kind === 'coopmatrix') {
          const rt = this.type03(inst.type.type, inst.type.span);
          if (rt.kind !== 'coopmatrix') throw new NotLowered(`${inst.op} of a coopmatrix to ${rt.kind}`, inst.span);
          return this.coop.unary(inst, rt);
        }
        if (inst.op === 'neg' || inst.op === 'not')
          return one({ op: 'arith', fn: inst.op, operands: [this.operand(inst.a)], type: this.typed(inst.a) });
        if (inst.op === 'cast')
          return one({
            op: 'cast',
            operand: this.operand(inst.a),
            from: this.typed(inst.a),
            to: { type: this.type03(inst.type.type, inst.type.span), span: inst.type.span },
          });
        if (inst.op === 'associated')
          return one({ op: 'associated', operand: this.operand(inst.a), type: this.typed(inst.a) });
        if (UNARY.has(inst.op)) return unaryArith(this, inst, no);
        // kernarg's foreach hands each work-item its own iterations: the lanes of a subgroup run different counts.
        if (isSubgroupOperation(inst.op) && this.plainForeach > 0)
          throw new NotLowered(`${inst.op} inside foreach`, inst.span);
        if (isSubgroupOperation(inst.op))
          return one(subgroupOperation04(inst.op, this.operand(inst.a), this.typed(inst.a), inst.span));
        return no();
      case 'builtin': {
        // group_id and num_groups read their launch axis; the subgroup built-ins are i32 (builtinOp).
        const b = builtinOp(inst.op, inst.flags.join(''));
        const to = type03(inst.type.type, inst.type.span);
        if (!b || to.kind !== 'scalar' || to.name === 'i1') return no();
        const op = b.op;
        if (to.name === b.type) return one(op);
        // Another integer type is a cast of it.
        const r = inst.results[0];
        if (!r || inst.results.length !== 1) return no();
        const id = { name: this.define(`${r.name}_${inst.op}`), span: r.span };
        const index: TypedSpan = { type: { kind: 'scalar', name: b.type }, span: inst.type.span };
        return [
          { ...op, results: [id], span: inst.span } as Inst,
          {
            op: 'cast',
            operand: { kind: 'value', name: id.name, span: r.span },
            from: index,
            to: { type: to, span: inst.type.span },
            results: [{ name: this.define(r.name), span: r.span }],
            span: inst.span,
          },
        ];
      }
      case 'alloca': {
        const a = inst.attrs?.kind === 'dict' ? inst.attrs.entries.get('alignment') : undefined;
        return one({
          op: 'alloca',
          type: { type: type03(inst.type.type, inst.type.span), span: inst.type.span },
          ...(a?.kind === 'int' ? { alignment: a.value } : {}),
        });
      }
      case 'load':
        if (inst.op === 'atomic_load')
          return one({
            op: 'atomic_load',
            operand: this.operand(inst.operand),
            indices: inst.indices.map((i) => this.operand(i)),
            type: this.atomicTarget(inst.operand, inst.op),
            order: atomicOrder(inst.flags, inst.span),
          });
        if (inst.op !== 'load') return no();
        return one({
          op: 'load',
          operand: this.operand(inst.operand),
          indices: inst.indices.map((i) => this.operand(i)),
          type: this.typed(inst.operand),
        });
      case 'store':
        if (inst.op.startsWith('atomic_'))
          return one({
            op: 'atomic_update',
            fn: inst.op.slice('atomic_'.length),
            value: this.operand(inst.value),
            operand: this.operand(inst.operand),
            indices: inst.indices.map((i) => this.operand(i)),
            type: this.atomicTarget(inst.operand, inst.op),
            order: atomicOrder(inst.flags, inst.span),
          });
        if (inst.op !== 'store' || inst.flags.length) return no();
        return one({
          op: 'store',
          value: this.operand(inst.value),
          operand: this.operand(inst.operand),
          indices: inst.indices.map((i) => this.operand(i)),
          type: this.typed(inst.operand),
        });
      case 'size': {
        const t = this.types.get(inst.operand.name);
        if (t?.kind !== 'memref' && t?.kind !== 'group') return no();
        return one({
          op: 'size',
          operand: this.operand(inst.operand),
          mode: inst.mode,
          type: this.typed(inst.operand),
        });
      }
      case 'subview': {
        const slices: Slice[] = inst.slices.map((s) =>
          s.size === null || (s.size.kind === 'int' && s.size.value === 0)
            ? { kind: 'index', index: this.intOr(s.offset) }
            : { kind: 'range', offset: this.intOr(s.offset), size: this.intOr(s.size) },
        );
        return one({ op: 'subview', operand: this.operand(inst.operand), slices, type: this.typed(inst.operand) });
      }
      case 'expand':
        return one({
          op: 'expand',
          operand: this.operand(inst.operand),
          mode: inst.mode,
          shape: inst.shape.map((o) => this.intOr(o)),
          shapeDynamic: inst.shape.map(() => false),
          type: this.typed(inst.operand),
        });
      case 'fuse':
        return one({
          op: 'fuse',
          operand: this.operand(inst.operand),
          from: inst.from,
          to: inst.to,
          type: this.typed(inst.operand),
        });
      case 'blas': {
        if (inst.op === 'cumsum') return no();
        // The collective printers (GEMM tiles, vector axpby, atomic updates) know the v0.3 types only.
        for (const v of inst.operands) {
          const t = this.typeOf(v);
          const e = t.kind === 'scalar' ? t.name : t.kind === 'memref' ? t.element : null;
          if (e && V04_ONLY.has(e)) throw new NotLowered(`${inst.op} on ${e}`, v.span);
        }
        const trans = inst.flags.filter((f) => f === '.n' || f === '.t').map((f) => f.slice(1) as 'n' | 't');
        const need = inst.op === 'gemm' ? 2 : inst.op === 'axpby' || inst.op === 'sum' || inst.op === 'gemv' ? 1 : 0;
        while (trans.length < need) trans.push('n');
        return one({
          op: 'blas',
          fn: inst.op,
          transA: trans[0] ?? null,
          transB: trans[1] ?? null,
          atomic: inst.flags.includes('.atomic'),
          operands: inst.operands.map((v) => this.operand(v)),
          types: inst.operands.map((v) => this.typed(v)),
        });
      }
      case 'barrier':
        // kernarg places the barriers collective code needs; one the program states orders what its work-items do
        // themselves, which those do not cover: it is kept, in a parallel region or outside one. In a foreach body
        // (kernarg's loop over the iterations each work-item takes) work-items may run different counts: none could
        // wait there.
        if (this.spmdLoop > 0) throw new NotLowered('barrier inside foreach', inst.span);
        return one({ op: 'barrier', global: inst.flags.includes('.global'), local: inst.flags.includes('.local') });
      case 'if':
        return one({
          op: 'if',
          condition: this.operand(inst.condition),
          resultTypes: inst.resultTypes.map((t) => ({ type: this.type03(t.type, t.span), span: t.span })),
          then: this.body(inst.then),
          else: inst.else ? this.body(inst.else) : null,
        });
      case 'yield':
        return one({
          op: 'yield',
          operands: inst.values.map((v) => this.operand(v)),
          types: inst.values.map((v) => this.typed(v)),
        });
      case 'for': {
        const lt: TypedSpan = this.typed(inst.from);
        const from = this.operand(inst.from);
        const to = this.operand(inst.to);
        const step = inst.step ? this.operand(inst.step) : null;
        // `init(%a = %x)`: the initial values are read here, outside the loop; their names are the body's.
        const inits = inst.init.map((c, i) => {
          const type = inst.resultTypes[i];
          const t = type ? this.type03(type.type, type.span) : this.typeOf(c.value);
          // The printers keep carried values in variables: numbers and coopmatrices (a work-item's components).
          if (t.kind !== 'scalar' && t.kind !== 'coopmatrix')
            throw new NotLowered('a loop-carried value that is not a number or a coopmatrix', c.name.span);
          return { init: this.operand(c.value), type: { type: t, span: type?.span ?? c.value.span } };
        });
        const { region, vars } = this.region(inst.body, [inst.variable, ...inst.init.map((c) => c.name)]);
        const carried = inits.map((c, i) => ({ ...c, name: vars[i + 1].name, span: vars[i + 1].span }));
        return one({
          op: 'for',
          variable: vars[0],
          from,
          to,
          step,
          loopType: lt,
          body: region,
          ...(carried.length ? { carried } : {}),
        });
      }
      case 'foreach': {
        this.spmdLoop++;
        if (!inst.tile) this.plainForeach++;
        const lowered = inst.tile ? foreachTile(this, inst) : foreach04(this, inst);
        if (!inst.tile) this.plainForeach--;
        this.spmdLoop--;
        return lowered;
      }
      case 'parallel': {
        this.parallel++;
        const body = this.body(inst.body);
        this.parallel--;
        return one({ op: 'parallel', body });
      }
      case 'matrix':
        return this.coop.matrix(inst, (t, span) => this.type03(t, span)) ?? no();
    }
  }

  /** The memref an atomic instruction reaches: 32- and 64-bit elements only (tinytc refuses i8 and i16 too). */
  private atomicTarget(v: ValueRef, op: string): TypedSpan {
    const t = this.typed(v);
    if (t.type.kind === 'memref' && (t.type.element === 'i8' || t.type.element === 'i16'))
      throw new NotLowered(`${op} of ${t.type.element}`, v.span);
    return t;
  }
}

/**
 * The v0.3 tree of each v0.4 function, or the reasons it has none (KA2420 diagnostics, one per
 * function: the first instruction or type without a v0.3 counterpart). v0.3 writes each operand's
 * type after ':' and infers view types itself, more statically where a v0.4 `constant` became an
 * immediate (`subview %a[0:%six]` of a v0.4 `?` is `0:6`, static 6); `known` carries the types v0.3
 * inferred for an earlier rewrite, so a caller can rewrite again until the annotations agree.
 */
export function toV03(
  program: Program04,
  types: ReadonlyMap<Func04, ValueTypes04>,
  known?: ReadonlyMap<string, ReadonlyMap<string, IrType>>,
): { program: Program; notLowered: Diagnostic[] } {
  const bag = new DiagnosticBag();
  const funcs: Func[] = [];
  for (const f of program.funcs) {
    const t = new Translator(types.get(f)!, known?.get(f.name), f.subgroupSize);
    try {
      const params = f.params.map((p) => {
        // v0.3 has no memref parameter in local memory (its code generators make global ones).
        if ((p.type.kind === 'memref' ? p.type : p.type.kind === 'group' ? p.type.memref : null)?.space === 'local')
          throw new NotLowered('a memref parameter in local memory', p.typeSpan);
        const byte = p.type.kind === 'bool' ? { passedAsByte: true } : {};
        return { name: p.name, span: p.span, type: type03(p.type, p.typeSpan), typeSpan: p.typeSpan, ...byte };
      });
      for (const p of params) t.define(p.name);
      funcs.push({
        name: f.name,
        span: f.span,
        params,
        workGroupSize: f.workGroupSize,
        subgroupSize: f.subgroupSize,
        body: t.region(f.body).region,
      });
    } catch (e) {
      if (!(e instanceof NotLowered)) throw e;
      if (e instanceof CoopmatrixRefused) bag.report(e.diagnostic, e.span, e.args.map(String));
      else bag.report(Messages.ir04NotLowered, e.span, [e.what]);
    }
  }
  return { program: { funcs }, notLowered: [...bag.items] };
}
